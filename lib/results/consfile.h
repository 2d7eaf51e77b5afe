/*
 * Result files over a serial console, for labs where only the console log comes back
 * (docs/results.md). One file is:
 *
 *   BENCHBOOT-FILE boot=BOOTDIR path=PATH size=N sha256=HEX
 *   BENCHBOOT-DATA 0 <base64 of up to 48 bytes>
 *   BENCHBOOT-DATA 1 ...
 *   BENCHBOOT-END boot=BOOTDIR path=PATH lines=N
 *
 * BOOTDIR is the boot's folder name (NNNN-BOOTID, 0000-BOOTID without a disk), PATH is relative
 * to it. The parser finds these lines anywhere in a line (after a timestamp or noise), drops CRs,
 * skips everything else, and delivers a file only when every data line arrived in order and the
 * size and sha256 match.
 */
#ifndef BENCHBOOT_CONSFILE_H
#define BENCHBOOT_CONSFILE_H

#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

#define CONSFILE_CHUNK 48 /* bytes per data line: 64 base64 characters */
#define CONSFILE_MAX_SIZE (1ULL << 30)

/* Encode one file; out receives each line (NUL-terminated, ending in "\n"). */
void bb_consfile_encode(const char *bootdir, const char *path, const void *data, size_t len,
                        void (*out)(const char *line, size_t len, void *ctx), void *ctx);

struct consfile_file {
	const char *bootdir, *path;
	const unsigned char *data;
	size_t len;
	const char *sha256;
};

struct consfile_parser;

/*
 * on_file gets every complete, verified file (return 0 to go on; nonzero stops parsing and is
 * returned by bb_consfile_feed). on_error gets each file that could not be recovered
 * (bootdir/path may be "?"), with the reason.
 */
struct consfile_parser *bb_consfile_parser_new(
    int (*on_file)(const struct consfile_file *f, void *ctx),
    void (*on_error)(const char *bootdir, const char *path, const char *why, void *ctx), void *ctx);
/* Feed bytes of the log, in any pieces. Returns 0, or what on_file returned. */
int bb_consfile_feed(struct consfile_parser *p, const char *buf, size_t len);
/* End of the log: a file still open is reported as truncated. Returns like bb_consfile_feed. */
int bb_consfile_finish(struct consfile_parser *p);
void bb_consfile_parser_free(struct consfile_parser *p);

/* The line of the log being read, 1-based (in on_error: the line where the loss was found;
 * after the end: the last line + 1). */
unsigned long bb_consfile_line(const struct consfile_parser *p);

/* Files delivered and files lost so far. */
void bb_consfile_counts(const struct consfile_parser *p, unsigned *ok, unsigned *bad);

#endif
