/* E-divisive means with Welch's test; see changepoint.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare/statistics.h"
#include "host/store/changepoint.h"

double bb_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
	if (na < 2 || nb < 2)
		return 1;
	struct bb_sample sa, sb;
	bb_sample_compute(a, na, &sa);
	bb_sample_compute(b, nb, &sb);
	/* bb_sample's sd is the population's: the sample variance for the test */
	double va = sa.sd * sa.sd * (double)na / (double)(na - 1);
	double vb = sb.sd * sb.sd * (double)nb / (double)(nb - 1);
	double se2 = va / (double)na + vb / (double)nb;
	if (se2 <= 0)
		return sa.mean == sb.mean ? 1 : 0;
	double t = (sb.mean - sa.mean) / sqrt(se2);
	double df =
	    se2 * se2 /
	    ((va / na) * (va / na) / (double)(na - 1) + (vb / nb) * (vb / nb) / (double)(nb - 1));
	return fmax(0, 2 * (1 - bb_t_cdf(fabs(t), df)));
}

/*
 * The best split of x[0..m): the energy statistic Q(t) = t (m - t) / m x (2 / (t (m - t)) B(t) -
 * L(t) / C(t, 2) - R(t) / C(m - t, 2)), B the sum of |xi - xj| across the split, L and R within
 * each part; the sums in O(m^2) from running totals. *at: 0 when no split is allowed.
 */
static void best_split(const double *x, const size_t *group, size_t m, size_t min_groups,
                       size_t *at, double *q, size_t *candidates)
{
	*candidates = 0;
	double *right = calloc(m + 1, sizeof *right);
	*at = 0;
	*q = -INFINITY;
	if (!right || m < 2)
		goto out;
	/* right[t]: the sum of |xi - xj| over t <= i < j < m */
	for (size_t t = m - 1; t-- > 0;) {
		double s = 0;
		for (size_t j = t + 1; j < m; j++)
			s += fabs(x[t] - x[j]);
		right[t] = right[t + 1] + s;
	}
	double total = right[0], left = 0;
	for (size_t t = 1; t < m; t++) {
		double s = 0;
		for (size_t i = 0; i + 1 < t; i++)
			s += fabs(x[i] - x[t - 1]);
		left += s; /* the pairs within x[0..t) */
		size_t gl = group ? group[t - 1] - group[0] + 1 : t;
		size_t gr = group ? group[m - 1] - group[t] + 1 : m - t;
		if ((group && group[t] == group[t - 1]) || gl < min_groups || gr < min_groups)
			continue;
		++*candidates;
		double nl = (double)t, nr = (double)(m - t);
		double across = total - left - right[t];
		double wl = t > 1 ? left / (nl * (nl - 1) / 2) : 0;
		double wr = m - t > 1 ? right[t] / (nr * (nr - 1) / 2) : 0;
		double v = nl * nr / (double)m * (2 * across / (nl * nr) - wl - wr);
		if (v > *q) {
			*q = v;
			*at = t;
		}
	}
out:
	free(right);
}

int bb_changepoints(const double *v, const size_t *group, size_t n, size_t min_groups, double max_p,
                    struct bb_changepoint *cps, size_t max, size_t *ncps)
{
	/* the segments' bounds: 0, the change points found so far, n */
	size_t *bounds = malloc((max + 2) * sizeof *bounds), nb = 2;
	*ncps = 0;
	if (!bounds)
		return -ENOMEM;
	bounds[0] = 0;
	bounds[1] = n;
	if (min_groups < 1)
		min_groups = 1;
	while (*ncps < max) {
		struct bb_changepoint best = {0, 0, 2};
		size_t best_seg = 0;
		for (size_t s = 0; s + 1 < nb; s++) {
			size_t a = bounds[s], m = bounds[s + 1] - a, at, k;
			double q;
			best_split(v + a, group ? group + a : NULL, m, min_groups, &at, &q, &k);
			if (!at)
				continue;
			/* the split is the best of k: Bonferroni's bound for having chosen it */
			double p = fmin(1, (double)k * bb_welch_p(v + a, at, v + a + at, m - at));
			if (p < max_p && (p < best.p || (p == best.p && q > best.q))) {
				best = (struct bb_changepoint){a + at, q, p};
				best_seg = s + 1;
			}
		}
		if (!best_seg)
			break;
		memmove(bounds + best_seg + 1, bounds + best_seg, (nb - best_seg) * sizeof *bounds);
		bounds[best_seg] = best.at;
		nb++;
		cps[(*ncps)++] = best;
	}
	free(bounds);
	/* by position */
	for (size_t i = 1; i < *ncps; i++)
		for (size_t j = i; j > 0 && cps[j - 1].at > cps[j].at; j--) {
			struct bb_changepoint t = cps[j];
			cps[j] = cps[j - 1];
			cps[j - 1] = t;
		}
	return 0;
}
