/*
 * The candidates of `benchboot bisect --tree DIR --good C1 --bad C2`: C1, then the
 * first-parent commits of C1..C2 (host/kernel/gitsrc.h), named by their first 12 hex digits;
 * each is built when the bisection first boots it (the boots' prepare, host/bisect/boots.h),
 * from the base configuration and the job's fragment, through the build cache
 * (host/kernel/kbuild.h): a commit that does not build is untestable, its log kept and named.
 * Host only.
 */
#ifndef BENCHBOOT_HOST_BISECT_TREECANDS_H
#define BENCHBOOT_HOST_BISECT_TREECANDS_H

#include <stddef.h>

#include "host/bisect/kernels.h"
#include "host/kernel/kbuild.h"
#include "host/run/run.h"
#include "strv.h"

struct bb_bisect_tree {
	const char *tree;
	const char *config;         /* the base configuration, NULL: defconfig */
	const char *job;            /* its needs go into the fragment */
	const struct bb_strv *sets; /* the job's --set overrides, or NULL */
	void (*say)(void *ctx, enum bb_run_say to, const char *line);
	void *ctx;
	/* filled by open */
	struct bb_strv shas;
	char *fragment;
	struct bb_kbuild_result *built; /* per candidate */
};

/* The range into cands (at most max: more is -EINVAL, saying how to narrow it) and the
 * fragment. 0, or -errno with err (-EINVAL: not a git tree, no such commit, good not an
 * ancestor of bad, too many commits). Close t, then free cands. */
int bb_bisect_tree_open(struct bb_bisect_tree *t, const char *good, const char *bad, size_t max,
                        struct bb_bisect_cands *cands, char *err, size_t errlen);
/* For bb_bisect_boots_opts.prepare (ctx: the bb_bisect_tree). */
int bb_bisect_tree_prepare(void *ctx, size_t cand, const char **vmlinuz, const char **modules,
                           char *err, size_t errlen);
void bb_bisect_tree_close(struct bb_bisect_tree *t);

#endif
