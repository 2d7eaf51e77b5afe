/*
 * The primary stat's %change between two groups of boots, with its 95% interval: what
 * `benchboot run --until` asks after each boot to decide whether to boot again.
 *
 *     struct bb_primary_query q = {.key = "kernel"};   // sides: the two values of kernel
 *     struct bb_primary *p;
 *     size_t n;
 *     char err[512];
 *     int rc = bb_primary_changes("results/x", &q, &p, &n, err, sizeof(err));
 *     if (rc == -ENODATA)      // a side has no run yet (err says which): boot on
 *             ...;
 *     else if (rc)             // -ENOENT, -ENOTDIR: no folder; -EINVAL: bad folder, key or
 *             ...;             // stat (err says what); -ENOMEM
 *     for (size_t i = 0; i < n; i++)
 *             printf("%s %s: %+.1f%% [%.1f, %.1f], boots %zu/%zu\n", p[i].run, p[i].stat,
 *                    p[i].change, p[i].iv.lo, p[i].iv.hi, p[i].boots_a, p[i].boots_b);
 *     enum bb_settled why = bb_primary_settled(&p[0], 2.0);   // --until 2%
 *     bb_primary_free(p, n);
 *
 * One entry per matched run (the runs of A and B with the same parameters, as `compare`
 * matches them, the key left out). The primary stat is q.stat when given, else the first of
 * netperf.Throughput_Mbps, netperf.Throughput_tps, a stat ending in .ops_per_sec (stress-ng),
 * that the run has; a run without it is left out, and none at all is -EINVAL. The interval is
 * compare's (statistics.h): with >= 2 boots a side its basis is BB_IV_BOOTS (the boot is the
 * unit); with fewer it is BB_IV_ITERATIONS, which cannot settle anything. Host only.
 */
#ifndef BENCHBOOT_HOST_RESULTS_PRIMARY_H
#define BENCHBOOT_HOST_RESULTS_PRIMARY_H

#include <stddef.h>

#include "host/compare/statistics.h"

struct bb_primary_query {
	const char *key;               /* what tells the sides apart: kernel, boot_group, ... */
	const char *value_a, *value_b; /* NULL: the folder's two values of key, in compare --by's
	                                  order (numbers numerically, else as text) */
	const char *stat;              /* NULL: the suite's primary stat */
	double confidence;             /* 0: 0.95 */
};

struct bb_primary {
	char *run;  /* the parameters the matched runs share, "k=v ..." */
	char *stat; /* the stat compared */
	char *value_a, *value_b;
	size_t boots_a, boots_b;
	int change_defined;    /* 0 when A's mean is 0 */
	double change;         /* %: 100 (mean_B - mean_A) / mean_A over all iterations */
	struct bb_interval iv; /* iv.lo, iv.hi: % (when iv.bounded) */
};

/* Read the results folder dir and compare as above. 0 with *out (n entries, >= 1); -ENODATA
 * when a side has no run yet; -ENOENT, -ENOTDIR no such folder; -EINVAL bad input; -ENOMEM.
 * The message goes to err. */
int bb_primary_changes(const char *dir, const struct bb_primary_query *q, struct bb_primary **out,
                       size_t *nout, char *err, size_t errlen);
void bb_primary_free(struct bb_primary *p, size_t n);

/* How a stat ranks as a suite's primary stat: 0 netperf.Throughput_Mbps, 1
 * netperf.Throughput_tps, 2 a stat ending in .ops_per_sec, -1 not a primary stat. Of a run's
 * stats, the lowest rank is its primary (the first of equal ones). */
int bb_primary_rank(const char *name);

enum bb_settled {
	BB_UNSETTLED = 0,   /* keep booting */
	BB_SETTLED_NARROW,  /* the interval is within +/- target of the estimate */
	BB_SETTLED_CHANGED, /* the interval excludes 0 by more than target */
};
/* The --until rule on one entry (target in %, e.g. 2): only a boot-level interval
 * (BB_IV_BOOTS, bounded) settles. */
enum bb_settled bb_primary_settled(const struct bb_primary *p, double target);

#endif
