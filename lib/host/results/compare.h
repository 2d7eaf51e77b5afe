/*
 * Comparing two sets of benchmark results the way 0-day reports do (../shared/LKP.md):
 * per stat the mean and relative stddev on each side, the %change, LKP's change rule and
 * Welch's t-test; the environment fields that differ first. Host only.
 */
#ifndef BENCHBOOT_HOST_COMPARE_H
#define BENCHBOOT_HOST_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "host/results/results_tree.h"

/* ---- statistics ---- */

struct bb_sample {
	size_t n;
	double mean, sd, min, max; /* sd: population standard deviation, as LKP */
};
void bb_sample_compute(const double *v, size_t n, struct bb_sample *s);
/* Regularized incomplete beta function I_x(a, b); NaN for arguments out of range. */
double bb_betainc(double a, double b, double x);
/* Two-sided p-value of Student's t with df degrees of freedom (df > 0, not necessarily whole). */
double bb_t_pvalue(double t, double df);
/*
 * Welch's unequal-variances t-test of b against a (sample variances, Welch-Satterthwaite df).
 * 0 with t, df, p set; -1 when a side has fewer than 2 values. Both sides constant: p is 1
 * when the means are equal, 0 otherwise.
 */
int bb_welch(const double *a, size_t na, const double *b, size_t nb, double *t, double *df,
             double *p);
/* The |%change| a stat must exceed: 1% for performance stats, 5% for the others (LKP). */
double bb_stat_threshold(const char *name);
/* LKP's rule: samples do not overlap, at least 3 on one side, |change| over the threshold. */
int bb_lkp_changed(const struct bb_sample *a, const struct bb_sample *b, double change,
                   int change_defined, double threshold);

/* ---- selecting and matching runs ---- */

/* A side of the comparison: runs picked from loaded results. */
struct bb_side {
	char *label;
	struct bb_res_run **runs;
	size_t nruns;
};

/*
 * The value of KEY for a run: a run parameter, a boot parameter, a label from run.json
 * (kernel=NAME), an environment field (env.json, flattened with dots) or the run's environment
 * read back, in that order; KEY may also be the
 * last dotted part of a name when that is unique ("prsctp_enable" for
 * "sysctl.net.sctp.prsctp_enable"), or "kernel", "cgroup", "boot". *resolved (if asked) gets the
 * name found, prefixed by "param:", "boot:", "label:", "env:" or "runenv:". NULL when absent.
 */
const char *bb_run_lookup(const struct bb_res_run *run, const char *key, const char **resolved);
/* Add the runs of res whose every condition KEY=VALUE holds (conds may be NULL). */
int bb_side_add(struct bb_side *side, const struct bb_results *res, const struct bb_pairs *conds);
void bb_side_free(struct bb_side *side);

struct bb_stat_cmp {
	char *name;
	double *a, *b;
	size_t na, nb;
	struct bb_sample sa, sb;
	int change_defined;
	double change; /* %: 100 * (mean_b - mean_a) / mean_a */
	int p_defined;
	double t, df, p;
	double threshold;
	int lkp, welch, significant;
};

struct bb_env_diff {
	char *key, *a, *b; /* the values on each side, ", "-joined; "(absent)" */
};

struct bb_run_cmp {
	struct bb_pairs params; /* the parameters both sides share (the axis excluded) */
	char *axis_a, *axis_b;  /* the axis values ("k=v ..."), or NULL */
	size_t runs_a, runs_b, boots_a, boots_b, failed_a, failed_b;
	struct bb_env_diff *env; /* per-run environment read back that differs */
	size_t nenv;
	struct bb_stat_cmp *stats;
	size_t nstats;
	size_t nsignificant;
};

struct bb_comparison {
	char *label_a, *label_b;
	size_t boots_a, boots_b;
	struct bb_env_diff *env;
	size_t nenv;
	struct bb_run_cmp *runs;
	size_t nruns;
	char **notes; /* unmatched runs, incomplete boots, failed iterations */
	size_t nnotes;
	size_t nsignificant;
	double alpha;
};

/*
 * Match the runs of a and b by their parameters, leaving out the axis keys, and compare each
 * pair. 0 on success; -1 with a message in err when no run matches (naming the parameters that
 * differ and how to say which one is the axis).
 */
int bb_compare(const struct bb_side *a, const struct bb_side *b, const char *const *axis,
               size_t naxis, struct bb_comparison *out, char *err, size_t errlen);
void bb_comparison_free(struct bb_comparison *c);
/* The 0-day style report; all: every stat, not only the changes. */
void bb_comparison_print(FILE *f, const struct bb_comparison *c, int all);
void bb_comparison_json(FILE *f, const struct bb_comparison *c, int all);
/* Per-iteration values of A and B for the changed stats (all: every stat) as SVG. */
int bb_comparison_svg(FILE *f, const struct bb_comparison *c, int all);
/* A number as the table shows it (LKP-like: 5.847e+08, 9745088, 79.79). */
const char *bb_fmt_num(double v, char *buf, size_t len);

/* qsort comparator for an array of strings (char *): numbers in numeric order, the rest as
 * text. */
int bb_value_cmp(const void *x, const void *y);

#endif
