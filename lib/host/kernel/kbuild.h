/*
 * Building a kernel from a tree (docs/kernel.md): bzImage and modules, out of tree (make O=),
 * from a base configuration (the user's file, or `make defconfig`) with benchboot's fragment
 * (host/kernel/kconfig.h) appended, then `make olddefconfig`. A commit is built from
 * benchboot's shared clone of the tree (host/kernel/gitsrc.h); without one, the tree is built
 * as it is. Builds are kept in CACHE/kernels/builds/KEY-CONFIG/ (vmlinuz, modules/lib/modules/
 * RELEASE, config, fragment, build.log, info), KEY the commit (or the tree's own HEAD when
 * its work tree is clean; a changed work tree is built anew every time) and CONFIG a digest
 * of the base configuration and the fragment; a commit's build is then a cache hit. A build
 * that fails is kept as KEY-CONFIG.failed/build.log, and a commit's failure is answered from
 * there too. make runs in one object folder per tree and configuration, so the builds of
 * neighbouring commits are incremental. Host only.
 */
#ifndef BENCHBOOT_HOST_KERNEL_KBUILD_H
#define BENCHBOOT_HOST_KERNEL_KBUILD_H

#include <signal.h>
#include <stddef.h>

#include "strv.h"

struct bb_kbuild_opts {
	const char *tree;        /* the kernel tree (a git work tree for commit) */
	const char *commit;      /* NULL: the tree as it is */
	const char *base_config; /* NULL: make defconfig */
	const char *fragment;    /* appended to the base configuration; NULL: none */
	const char *cachedir;    /* NULL: $BENCHBOOT_CACHE, else ~/.cache/benchboot */
	int jobs;                /* make -jN; 0: the online CPUs */
	/* progress: what is built, then a line a minute while make runs; NULL: silent */
	void (*say)(void *ctx, const char *line);
	void *ctx;
};

struct bb_kbuild_result {
	char name[64];   /* the commit's first 12 hex digits, or "tree" */
	char commit[41]; /* "" for a tree built as it is, without a clean HEAD */
	char dir[4096];  /* the kept build, or the .failed folder */
	char vmlinuz[4200], modules[4400], log[4400];
	char release[128]; /* `make kernelrelease` */
	char config_digest[17];
	int cached;           /* answered from the cache (a build, or a commit's failure) */
	double seconds;       /* of this build (0 when cached) */
	char failed_step[64]; /* on failure: "defconfig", "olddefconfig", "make", ... */
	/* fragment lines the final .config does not have: "CONFIG_X=V (the .config has ...)" */
	struct bb_strv config_missing;
};

/*
 * Build (or find). 0 built or cached; 1 the build failed (r->log kept, err says which step
 * and where the log is: a candidate that cannot be tested); -EINTR when make was interrupted
 * (SIGINT); -EINVAL bad input (no tree, no such commit, a missing base config); another
 * -errno (the cache, git, make not found). Free r with bb_kbuild_result_free.
 */
int bb_kernel_build(const struct bb_kbuild_opts *o, struct bb_kbuild_result *r, char *err,
                    size_t errlen);
void bb_kbuild_result_free(struct bb_kbuild_result *r);
/* The warning for r->config_missing.v[i], the same for every verb: "kernel NAME: the fragment
 * asks for CONFIG_X=V (the .config has ...); the boots may miss it". */
void bb_kbuild_missing_warning(const struct bb_kbuild_result *r, size_t i, char *out, size_t len);

#endif
