/*
 * The statistics of a comparison, two kinds kept apart (docs/compare.md):
 * - LKP's own: mean and population stddev of the samples, and LKP's change rule `L` exactly as
 *   LKP's lib/stats.rb and lib/changed_stat.rb compute it (../shared/LKP.md);
 * - benchboot's: a 95% confidence interval of the %change with the boot as the unit
 *   (per-boot means; Fieller's interval of a ratio of means with Student's t), from which the
 *   `I` mark comes.
 * Host only; no I/O.
 */
#ifndef BENCHBOOT_HOST_RESULTS_STATISTICS_H
#define BENCHBOOT_HOST_RESULTS_STATISTICS_H

#include <stddef.h>

struct bb_sample {
	size_t n;
	double mean, sd, min, max; /* sd: population standard deviation, as LKP */
};
void bb_sample_compute(const double *v, size_t n, struct bb_sample *s);

/* Student's t distribution with df > 0 degrees of freedom (df need not be whole): the
 * cumulative probability P(T <= t), and its inverse for 0 < p < 1. NaN out of range. */
double bb_t_cdf(double t, double df);
double bb_t_quantile(double p, double df);

/*
 * Fieller's confidence interval of the ratio mb / ma of two means, given the squared standard
 * errors va, vb of the means, their covariance cab (0 for independent sides) and the t
 * quantile: the set of r with (mb - r ma)^2 <= t^2 (vb - 2 r cab + r^2 va). 0 with [lo, hi];
 * -EDOM when that set is not a bounded interval (ma is not told apart from 0).
 */
int bb_fieller(double ma, double mb, double va, double vb, double cab, double t, double *lo,
               double *hi);

/* What an interval rests on. */
enum bb_interval_basis {
	BB_IV_NONE = 0,   /* too few values for an interval */
	BB_IV_ITERATIONS, /* a side has one boot: iterations within a boot only (no mark) */
	BB_IV_BOOTS,      /* >= 2 boots a side: per-boot means, boot-to-boot variance included */
};

struct bb_interval {
	enum bb_interval_basis basis;
	int paired;              /* the same boots on both sides: per-boot pairs */
	size_t units_a, units_b; /* boots (BB_IV_BOOTS) or iterations on each side */
	double confidence;       /* 0.95 */
	double df;               /* degrees of freedom of the t quantile */
	int absolute;            /* of the difference B - A (bb_diff_interval), not the %change */
	int estimated;           /* 0 when A's mean is 0: no ratio */
	double change;           /* % change (absolute: B - A) the interval is around */
	int bounded;             /* 0: Fieller's set is unbounded (A's mean near 0) */
	double lo, hi;           /* % change (absolute: B - A, in the stat's unit) */
	int excludes_zero;       /* bounded and 0 outside [lo, hi] */
	/* paired boots and the order of the two sides in each (a_first given): boots where A's
	 * run came first, and where B's did */
	size_t a_first, b_first;
	/* both orders: the order effect taken out (a 2x2 crossover, docs/compare.md
	 * "Counterbalanced order"): the estimate is the mean of the two orders' mean pairs, the
	 * spread is within orders, df = n - 2; no interval when that is 0 (2 boots) */
	int crossover;
	/* crossover: the %change (of A's mean) a run gets from coming second in its boot */
	double order_effect;
};

/*
 * The confidence interval of the %change from A to B, 100 (mean_B / mean_A - 1). Each value
 * comes with the boot it was measured in (boot ids: indexes of the boots, from 0, equal ids
 * meaning the same boot; a boot may hold values of both sides; a table of the largest id's size
 * is made). With >= 2 boots on each side the unit is the boot: each boot's
 * values are averaged first; when both sides have exactly the same boots the per-boot means are
 * paired (n - 1 df), otherwise independent (Welch-Satterthwaite df). Paired boots whose order
 * is known (a_first[id]: 1 when A's run came first in boot id, 0 when B's did, -1 unknown; or
 * a_first NULL) and differs between boots are a crossover: the order effect is taken out
 * (n - 2 df; none with 2 boots). With one boot on a side, the iterations are the unit and the
 * basis says so (BB_IV_ITERATIONS). 0, or -ENOMEM.
 */
int bb_change_interval(const double *a, const size_t *boot_a, size_t na, const double *b,
                       const size_t *boot_b, size_t nb, const signed char *a_first,
                       double confidence, struct bb_interval *iv);

/*
 * The same for the difference mean_B - mean_A (a stat LKP shows as an absolute change, in
 * points: perf-profile.*, NAME%): the same units and degrees of freedom, Student's t interval
 * of the difference (paired by boot, or Welch's). 0, or -ENOMEM.
 */
int bb_diff_interval(const double *a, const size_t *boot_a, size_t na, const double *b,
                     const size_t *boot_b, size_t nb, const signed char *a_first, double confidence,
                     struct bb_interval *iv);

/* LKP's view of one stat (lib/stats.rb StatCompare, lib/changed_stat.rb). */
struct bb_lkp_verdict {
	int compared;     /* a side had >= 3 samples */
	double threshold; /* 1 (%) for LKP's perf metrics (a test program's stats), else 5 */
	double min_a, median_a, max_a, min_b, median_b, max_b; /* after LKP's trimming */
	double ratio;   /* higher median / lower median (5 when the lower is <= 0) */
	int changed;    /* the `L` mark */
	char rule[320]; /* the rule that decided, in words (--json "lkp.rule") */
};
/* The |change| (%) LKP requires of a stat: 1 for its perf metrics (a test program's stats,
 * etc/perf-metrics-prefixes: stat_rules.h), 5 for the others. */
double bb_stat_threshold(const char *name);
/* LKP's rule on the samples of a stat (A the base, B the new): 0, or -ENOMEM. */
int bb_lkp_verdict(const char *name, const double *a, size_t na, const double *b, size_t nb,
                   struct bb_lkp_verdict *v);

#endif
