/*
 * Comparing two sets of benchmark results the way 0-day reports do (../shared/LKP.md):
 * per stat the mean and relative stddev on each side, the %change, LKP's change rule `L`, and
 * benchboot's 95% interval of the %change with the boot as the unit (mark `I`); the environment
 * fields that differ first; the kernel's reports as LKP's failure stats. Host only. The parts:
 * statistics.h (the numbers), match.h (selecting and matching runs), envdiff.h, failstats.h
 * (with dmesg.h), render.h (text, JSON, SVG); docs/compare.md.
 */
#ifndef BENCHBOOT_HOST_COMPARE_H
#define BENCHBOOT_HOST_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "host/compare/envdiff.h"
#include "host/compare/failstats.h"
#include "host/compare/match.h"
#include "host/compare/results_tree.h"
#include "host/compare/statistics.h"

struct bb_stat_cmp {
	char *name;
	double *a, *b;              /* one value per iteration */
	size_t *boot_a, *boot_b;    /* the boot of each value (an index within the matched run) */
	const signed char *a_first; /* per boot index: 1 A's run came first, 0 B's, -1 unknown
	                             * (the matched run's a_first) */
	size_t na, nb;
	struct bb_sample sa, sb;
	int change_defined;
	int absolute;  /* LKP's absolute change (perf-profile.*, NAME%): change is in points */
	double change; /* %: 100 * (mean_b - mean_a) / mean_a, means over all iterations (LKP);
	                * absolute: mean_b - mean_a */
	double threshold;
	struct bb_lkp_verdict lkpv;
	struct bb_interval iv;
	int lkp;             /* LKP's `L` */
	int interval;        /* benchboot's `I`: boot-level 95% interval excludes 0 */
	int significant;     /* either */
	int hidden;          /* LKP hides it unless asked (interrupts, softirqs, slabinfo; --more):
	                      * not shown, never marked */
	int side_by_side;    /* the interval pairs boots that ran side by side (boot_a, boot_b are
	                      * then those pairs) */
	double kpi;          /* LKP's direction when the stat is a KPI (kpi.h), else 0 */
	const char *verdict; /* a marked change of a KPI: "regression" or "improvement"; NULL */
};

struct bb_run_cmp {
	struct bb_kvs params;  /* the parameters both sides share (the axis excluded) */
	char *axis_a, *axis_b; /* the axis values ("k=v ..."), or NULL */
	size_t runs_a, runs_b, boots_a, boots_b, failed_a, failed_b;
	struct bb_env_diff *env; /* per-run environment read back that differs */
	size_t nenv;
	struct bb_stat_cmp *stats;
	size_t nstats;
	size_t nsignificant;
	/* per boot of the matched run (the stats' boot indexes): whether A's run came first in
	 * it (1), B's (0), unknown or not both (-1); from the iterations' positions */
	signed char *a_first;
	size_t nhidden; /* stats hidden (bb_stat_cmp.hidden) */
};

struct bb_comparison {
	char *label_a, *label_b;
	size_t boots_a, boots_b;
	size_t stalled_boots_a, stalled_boots_b; /* of those, boots with kernel stall reports */
	size_t bare_boots_a, bare_boots_b;       /* and boots that left no results (bb_side.bare) */
	struct bb_env_diff *env;
	size_t nenv;
	struct bb_run_cmp *runs;
	size_t nruns;
	struct bb_fail_stat *fails; /* sorted by name */
	size_t nfails, nfails_changed;
	char **notes; /* unmatched runs, incomplete boots, boots without results, boots with
	               * kernel stall reports, failed iterations */
	size_t nnotes, notes_cap;
	/* data that should be there and is not, each "SIDE: where: what": a run whose iterations
	 * ended ok with no stat of the test (an empty or missing results.json), a boot without
	 * env.json. The comparison is not "no change" then: compare exits 100 */
	char **missing;
	size_t nmissing, missing_cap;
	size_t nsignificant;
	double confidence; /* of the intervals: 0.95 */
	int more;          /* the stats LKP hides unless asked are shown (--more) */
};

/*
 * Match the runs of a and b by their parameters, leaving out the axis keys, and compare each
 * pair. 0 on success; -EINVAL with a message in err when a side has no run or no run matches
 * (naming the parameters that differ and how to say which one is the axis), -ENOMEM.
 */
int bb_compare(const struct bb_side *a, const struct bb_side *b, const char *const *axis,
               size_t naxis, struct bb_comparison *out, char *err, size_t errlen);
/* The same; more: also the stats LKP hides unless asked (interrupts, softirqs, slabinfo). */
int bb_compare_more(const struct bb_side *a, const struct bb_side *b, const char *const *axis,
                    size_t naxis, int more, struct bb_comparison *out, char *err, size_t errlen);
void bb_comparison_free(struct bb_comparison *c);

#endif
