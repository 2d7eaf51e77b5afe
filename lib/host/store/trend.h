/*
 * A job's trends across the kernels of the store (docs/history.md), as `benchboot trend` prints
 * them and `benchboot report` draws them: which runs and stats to follow, each one's series of
 * boots grouped by kernel (in the store's order or --order's), its change points
 * (changepoint.h) and each change point's %change with compare's 95% interval. Host only.
 *
 *     struct bb_trend_query q = {.job = "netperf", .max_p = 0.0001, .min_kernels = 2};
 *     bb_trend_walk(st, &q, each_series, ctx, err, sizeof err);   // each run, each stat
 */
#ifndef BENCHBOOT_HOST_STORE_TREND_H
#define BENCHBOOT_HOST_STORE_TREND_H

#include <stddef.h>

#include "host/compare/statistics.h"
#include "host/store/store.h"
#include "strv.h"

#define BB_TREND_MAX_CHANGES 32

struct bb_trend_query {
	const char *job;
	const char *run;             /* one run, or NULL: every run of the job */
	const char *stat;            /* a stat, "all", or NULL: each run's primary stat */
	const struct bb_strv *order; /* the kernels, oldest first (others left out); NULL: as
	                              * they came */
	const char *tree;            /* --tree: the kernel tree of the kernels' commits, or NULL */
	double max_p;
	size_t min_kernels;
};

struct bb_trend_change {
	size_t at;             /* the first boot after the change */
	double p;              /* changepoint.h's */
	struct bb_interval iv; /* the %change between the segments on either side */
	size_t boots_before;   /* the boots of the segment before, and after */
	size_t boots_after;
};

struct bb_trend_series {
	const char *run, *stat;
	struct bb_store_point *p; /* the boots, each kernel's together */
	size_t n;
	size_t nk;     /* kernels */
	size_t *group; /* per boot: its kernel's index */
	size_t *first; /* per kernel: its first boot; first[nk] = n */
	double *means; /* per kernel: the mean of its boots */
	double lo, hi; /* the smallest and largest boot */
	struct bb_trend_change cps[BB_TREND_MAX_CHANGES];
	size_t ncps;
};

/* The kernel of the boots before a change point, and after it. */
#define BB_TREND_BEFORE(s, c) ((s)->p[(c)->at - 1].kernel)
#define BB_TREND_AFTER(s, c) ((s)->p[(c)->at].kernel)

/*
 * Called for every series bb_trend_walk loads (s NULL: run has no primary stat; say so). 0 to
 * go on, -errno to stop (err said).
 */
typedef int bb_trend_fn(const struct bb_trend_series *s, const char *run, void *ctx, char *err,
                        size_t errlen);
/*
 * Every run of q's job (or q->run), every stat q asks of it: fn on each series. 0, 1 when a
 * series had a change point, -ENOENT when the store has no boot of the job (err says so and
 * how to find the jobs), -errno with err.
 */
int bb_trend_walk(struct bb_store *st, const struct bb_trend_query *q, bb_trend_fn *fn, void *ctx,
                  char *err, size_t errlen);

/*
 * --tree DIR: the kernels of the job's boots in the git order of the kernel tree DIR, oldest
 * first (topologically, from the merge base of their commits), their labels into order; a
 * kernel takes the commit its recorded commit (kernel_id.h) or else its name resolves to in
 * DIR; those that resolve to none, into skipped. 0; -EINVAL (DIR is no git repository, or no
 * kernel resolves), -errno; with err.
 */
int bb_trend_tree_order(struct bb_store *st, const char *job, const char *tree,
                        struct bb_strv *order, struct bb_strv *skipped, char *err, size_t errlen);

/* The commit of kernel k in tree: its recorded commit's, else its name's (a tag, a branch,
 * a hash). 0, or -EINVAL (neither is a commit of tree). */
int bb_trend_tree_commit(const char *tree, const struct bb_store_kernel *k, char sha[41]);

/*
 * The `benchboot bisect` command for change point cp of s: with --tree (q->tree) and a commit
 * for both kernels around it, `benchboot bisect JOBFILE --tree DIR --good C1 --bad C2 --stat S`;
 * else `... --kernels FILE --stat S` (FILE kernels_file, or KERNELS when NULL) with the
 * kernels file's lines for the two kernels (NAME VMLINUZ - EXTRA_CMDLINE, after a comment that
 * the kernels built between them go between). JOBFILE is the job file the store records, else
 * the job's name (job_file_missing). 0 or -errno with err.
 */
struct bb_trend_bisect {
	char *command;        /* one line, its words quoted for the shell where they need it */
	char *kernels;        /* the kernels file (lines ending in '\n'), or NULL with --tree */
	int job_file_missing; /* the store records no job file of the job */
	int vmlinuz_missing;  /* a kernel's vmlinuz is not recorded: VMLINUZ in its line */
};
int bb_trend_bisect(struct bb_store *st, const struct bb_trend_query *q,
                    const struct bb_trend_series *s, const struct bb_trend_change *cp,
                    const char *kernels_file, struct bb_trend_bisect *out, char *err,
                    size_t errlen);
void bb_trend_bisect_free(struct bb_trend_bisect *b);

/* --order FILE: a kernel name a line, '#' comments and blank lines skipped, into order. 0;
 * -EINVAL (it names no kernel), -errno; with err. */
int bb_trend_order_read(const char *file, struct bb_strv *order, char *err, size_t errlen);

#endif
