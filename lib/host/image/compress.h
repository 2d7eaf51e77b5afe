/*
 * Compression the kernel can unpack, in-process (zlib, libzstd), reproducible: gzip carries no
 * name and mtime 0, zstd runs single-threaded in one pinned mode. An optional uncompressed
 * early cpio (microcode) goes first, as Documentation/x86/microcode.rst describes.
 */
#ifndef BENCHBOOT_COMPRESS_H
#define BENCHBOOT_COMPRESS_H

#include <stddef.h>

#include "host/image/cpio.h"

enum compress_kind { COMPRESS_GZIP, COMPRESS_ZSTD, COMPRESS_NONE };

/* Threads for gzip: 0 (the default) means one per online CPU; the output is the same. */
extern int compress_threads;

/* "gzip", "zstd", "none" -> kind; 0, or -EINVAL for an unknown name. */
int bb_compress_parse(const char *name, enum compress_kind *kind);
const char *bb_compress_name(enum compress_kind kind);
/* The default level: gzip 6 (as gzip), zstd 19 (as the kernel's own initramfs rule). */
int bb_compress_default_level(enum compress_kind kind);

/*
 * Append data compressed with kind at level (0: default) to out. Returns 0, -EINVAL
 * (bad level) or another -errno.
 */
int bb_compress_append(struct bytebuf *out, const void *data, size_t len, enum compress_kind kind,
                       int level, char *err, size_t errlen);

/*
 * Append an early cpio read from path, checked to be an uncompressed newc archive, padded with
 * zeros to a multiple of 512 (the kernel skips zero padding between archives).
 */
int bb_compress_append_early(struct bytebuf *out, const char *path, char *err, size_t errlen);

#endif
