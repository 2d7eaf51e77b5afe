/*
 * The statistics of a comparison (../shared/LKP.md): mean and population stddev of a sample,
 * Welch's t-test, LKP's change rule. Host only.
 */
#ifndef BENCHBOOT_HOST_RESULTS_STATISTICS_H
#define BENCHBOOT_HOST_RESULTS_STATISTICS_H

#include <stddef.h>

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

#endif
