/*
 * Kernel module closure for one modules directory (lib/modules/VERSION), computed on the host
 * with libkmod exactly as `modprobe --show-depends` would: depends= and softdep pre:/post:,
 * builtins skipped, aliases resolved. When the directory has no modules.dep (Debian's kernel
 * package ships none), `depmod -b` runs on a staged copy (symlinks to the module tree plus
 * copies of modules.builtin*, modules.order), cached under the cache directory by a digest of
 * the tree's listing. Modules may be .ko, .ko.xz, .ko.zst or .ko.gz: the image gets a plain .ko
 * so the init can finit_module it.
 *
 * Functions return 0, -EINVAL (unknown module: the message suggests close names)
 * or another -errno.
 */
#ifndef BENCHBOOT_KMODS_H
#define BENCHBOOT_KMODS_H

#include <stddef.h>

#include "host/image/cpio.h"

struct kmods_entry {
	char *name;       /* module name, e.g. udp_tunnel */
	char *src;        /* host path of the module file (possibly compressed) */
	char *image_path; /* /lib/modules/VERSION/kernel/....ko */
};

struct kmod_ctx;

struct kmods {
	char *version;
	char *moddir;  /* the modules directory given */
	char *staged;  /* the directory libkmod reads (moddir itself when it has modules.dep) */
	char *tmproot; /* a temporary staging root to remove on close, or NULL */
	struct kmod_ctx *ctx;
	struct kmods_entry *v; /* the closure so far, in load order */
	size_t n, cap;
};

/* cachedir NULL: stage in a temporary directory, removed by bb_kmods_close. */
int bb_kmods_open(struct kmods *k, const char *moddir, const char *cachedir, char *err,
                  size_t errlen);
void bb_kmods_close(struct kmods *k);

/* Append name's closure (dependencies first) to k->v; already present modules are kept once. */
int bb_kmods_add(struct kmods *k, const char *name, char *err, size_t errlen);

/* A module file's content, decompressed. */
int bb_kmods_read(const char *src, unsigned char **data, size_t *size, char *err, size_t errlen);

/*
 * Add every module of the closure to the image, and /etc/benchboot/modules.order (one image
 * path per line, in load order; empty when no module was asked for).
 */
int bb_kmods_to_cpio(const struct kmods *k, struct cpio_list *l, char *err, size_t errlen);

#endif
