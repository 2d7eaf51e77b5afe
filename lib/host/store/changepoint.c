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
 * each part; the sums in O(m^2) from running totals. Splits with at least min_seg points a side;
 * *at: 0 when none is allowed; *candidates: how many were.
 */
static void best_split(const double *x, size_t m, size_t min_seg, size_t *at, double *q,
                       size_t *candidates)
{
	double *right = calloc(m + 1, sizeof *right);
	*at = 0;
	*q = -INFINITY;
	*candidates = 0;
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
		if (t < min_seg || m - t < min_seg)
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

/* A segment of units [a, b) and its best split, found once. */
struct segment {
	size_t a, b, at; /* at: the split (a unit index), 0 none */
	double q, p;
};

static void search(const double *u, const size_t *start, const double *v, size_t min_groups,
                   struct segment *s)
{
	size_t k, at;
	best_split(u + s->a, s->b - s->a, min_groups, &at, &s->q, &k);
	s->at = at ? s->a + at : 0;
	s->p = 2;
	if (!at)
		return;
	/* the two sides' points (the boots), the split the best of k: Bonferroni's bound */
	size_t lo = start[s->a], mid = start[s->at], hi = start[s->b];
	s->p = fmin(1, (double)k * bb_welch_p(v + lo, mid - lo, v + mid, hi - mid));
}

int bb_changepoints(const double *v, const size_t *group, size_t n, size_t min_groups, double max_p,
                    struct bb_changepoint *cps, size_t max, size_t *ncps)
{
	/* the units: the groups' means (each point its own group without group) */
	size_t nu = 0;
	double *u = malloc((n + 1) * sizeof *u);
	size_t *start = malloc((n + 2) * sizeof *start);
	struct segment *seg = malloc((max + 1) * sizeof *seg);
	int rc = 0;
	*ncps = 0;
	if (!u || !start || !seg) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (!i || !group || group[i] != group[i - 1]) {
			start[nu] = i;
			u[nu++] = 0;
		}
		u[nu - 1] += v[i];
	}
	start[nu] = n;
	for (size_t k = 0; k < nu; k++)
		u[k] /= (double)(start[k + 1] - start[k]);
	if (min_groups < 1)
		min_groups = 1;
	size_t nseg = 1;
	seg[0] = (struct segment){0, nu, 0, 0, 2};
	search(u, start, v, min_groups, &seg[0]);
	while (*ncps < max) {
		size_t best = nseg;
		for (size_t s = 0; s < nseg; s++)
			if (seg[s].at && seg[s].p < max_p &&
			    (best == nseg || seg[s].p < seg[best].p ||
			     (seg[s].p == seg[best].p && seg[s].q > seg[best].q)))
				best = s;
		if (best == nseg)
			break;
		struct segment was = seg[best];
		cps[(*ncps)++] = (struct bb_changepoint){start[was.at], was.q, was.p};
		/* the segment splits in two, each searched once */
		seg[best] = (struct segment){was.a, was.at, 0, 0, 2};
		seg[nseg] = (struct segment){was.at, was.b, 0, 0, 2};
		search(u, start, v, min_groups, &seg[best]);
		search(u, start, v, min_groups, &seg[nseg++]);
	}
	/* by position */
	for (size_t i = 1; i < *ncps; i++)
		for (size_t j = i; j > 0 && cps[j - 1].at > cps[j].at; j--) {
			struct bb_changepoint t = cps[j];
			cps[j] = cps[j - 1];
			cps[j - 1] = t;
		}
out:
	free(u);
	free(start);
	free(seg);
	return rc;
}
