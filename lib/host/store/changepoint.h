/*
 * Change points in a series (docs/history.md "Change points"): E-divisive means (Matteson and
 * James 2014, with alpha = 1) as Hunter/Otava use it (Ingo et al., ICPE 2023): the split of a
 * segment that maximises the energy statistic Q between its two parts; a split is kept when a
 * Welch t-test between the two parts gives p below max_p (Hunter's deterministic test in
 * place of the permutation test; p times the number of splits the segment allowed, Bonferroni's
 * bound for having picked the best of them), then each part is searched again, the most
 * significant split first, until none is left. The points come in groups (a kernel's boots):
 * the split is searched among the groups' means (a change lies between two kernels, each
 * kernel weighs the same), at least min_groups groups a side; the test is on the points
 * (the boot is the unit). O(groups^2) per segment searched, each segment searched once.
 * Host only; no I/O.
 */
#ifndef BENCHBOOT_HOST_STORE_CHANGEPOINT_H
#define BENCHBOOT_HOST_STORE_CHANGEPOINT_H

#include <stddef.h>

struct bb_changepoint {
	size_t at; /* the first point after the change */
	double q;  /* the energy statistic of the split, within the segment it was found in */
	double p;  /* Welch's two-sided p between the two parts of that segment */
};

/*
 * The change points of v[0..n): group[i] the group of point i, nondecreasing (NULL: each point
 * its own). Into cps (at most max), ordered by position; *ncps how many. 0, or -ENOMEM.
 */
int bb_changepoints(const double *v, const size_t *group, size_t n, size_t min_groups, double max_p,
                    struct bb_changepoint *cps, size_t max, size_t *ncps);

/* Welch's two-sided p-value of the means of a[0..na) and b[0..nb) (1 when a side has fewer
 * than 2 points or both have no spread and equal means; 0 when no spread and the means
 * differ). */
double bb_welch_p(const double *a, size_t na, const double *b, size_t nb);

#endif
