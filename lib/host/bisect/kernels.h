/*
 * The candidates of `benchboot bisect --kernels FILE`: prebuilt kernels, oldest first, one a
 * line,
 *
 *     NAME VMLINUZ [MODULES_DIR|-] [EXTRA KERNEL COMMAND LINE...]
 *
 * the first line the good end, the last the bad end. Blank lines and lines whose first word
 * starts with '#' are skipped; a later word starting with '#' starts a comment. NAME: letters,
 * digits and . _ + - (it labels the boots, kernel=NAME), unique; MODULES_DIR: the kernel's
 * lib/modules/VERSION, '-' for none; the rest of the line goes on the kernel command line of
 * that candidate's boots. Paths are as written (relative ones to the current folder). Host only.
 */
#ifndef BENCHBOOT_HOST_BISECT_KERNELS_H
#define BENCHBOOT_HOST_BISECT_KERNELS_H

#include <stddef.h>

#define BB_BISECT_NAME_MAX 128

struct bb_bisect_cand {
	char name[BB_BISECT_NAME_MAX];
	char *vmlinuz;
	char *modules; /* NULL: none ('-', or not given) */
	char *append;  /* "" for none */
	unsigned line; /* in the file */
};

struct bb_bisect_cands {
	struct bb_bisect_cand *v;
	size_t n;
};

/*
 * Parse text (len bytes) of the file called path (for messages). 0, or -EINVAL with
 * "PATH:LINE: what is wrong" (or "PATH: ..." for the file as a whole: fewer than 2 candidates,
 * more than max), -ENOMEM.
 */
int bb_bisect_cands_parse(const char *text, size_t len, const char *path, size_t max,
                          struct bb_bisect_cands *out, char *err, size_t errlen);
/* Read and parse path, then check that each VMLINUZ is a file and each MODULES_DIR a folder
 * ("PATH:LINE: VMLINUZ X: No such file or directory": -EINVAL). -ENOENT/-EACCES when path
 * itself cannot be read. */
int bb_bisect_cands_read(const char *path, size_t max, struct bb_bisect_cands *out, char *err,
                         size_t errlen);
void bb_bisect_cands_free(struct bb_bisect_cands *c);

#endif
