/* Statistics of the comparison: samples, Student's t, intervals, LKP's rule; see statistics.h. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare/statistics.h"
#include "host/compare/stat_rules.h"

void bb_sample_compute(const double *v, size_t n, struct bb_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	double sum = 0;
	s->min = s->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->mean = sum / n;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = sqrt(ss / n);
}

/* ---- Student's t ---- */

/*
 * P(T <= t) for t with df degrees of freedom, through the regularized incomplete beta function:
 * P(|T| > |t|) = I_x(df/2, 1/2) with x = df / (df + t^2). I_x(a, b) is the continued fraction
 * of the incomplete beta integral (its even and odd steps d_2m = m (b - m) x / ((a + 2m - 1)
 * (a + 2m)), d_2m+1 = -(a + m) (a + b + m) x / ((a + 2m) (a + 2m + 1))), evaluated by Lentz's
 * method, on the side of x where it converges fast (I_x(a, b) = 1 - I_1-x(b, a)): a few dozen
 * steps, where integrating the density took a thousand. Checked against printed t tables and
 * the closed forms for df 1 and 2 in tests/unit/test_compare_stats.c.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 500; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double num =
			    odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
			        : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			d = 1 + num * d;
			if (fabs(d) < tiny)
				d = tiny;
			c = 1 + num / c;
			if (fabs(c) < tiny)
				c = tiny;
			d = 1 / d;
			h *= d * c;
			if (odd && fabs(d * c - 1) < 1e-15)
				return h;
		}
	}
	return h;
}

/* I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1 */
static double beta_regularized(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double bb_t_cdf(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	double tail = beta_regularized(df / 2, 0.5, df / (df + t * t)) / 2;
	return t >= 0 ? 1 - tail : tail;
}

/* Student's t density */
static double t_pdf(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) - (df + 1) / 2 * log1p(t * t / df)) /
	       sqrt(df * M_PI);
}

double bb_t_quantile(double p, double df)
{
	if (!(df > 0) || !(p > 0) || !(p < 1))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -bb_t_quantile(1 - p, df);
	/* bracket, then Newton's steps on the cdf (its derivative is the density), each kept
	 * inside the bracket (else a bisection): a handful of cdf evaluations, where bisection
	 * alone took about fifty */
	double lo = 0, hi = 1;
	while (bb_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	double x = hi / 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double c = bb_t_cdf(x, df) - p;
		if (c == 0)
			return x;
		if (c < 0)
			lo = x;
		else
			hi = x;
		double next = x - c / t_pdf(x, df);
		x = next > lo && next < hi ? next : (lo + hi) / 2;
		if (fabs(c) < 1e-15)
			break;
	}
	return x;
}

/* ---- intervals ---- */

int bb_fieller(double ma, double mb, double va, double vb, double cab, double t, double *lo,
               double *hi)
{
	/* (mb - r ma)^2 - t^2 (vb - 2 r cab + r^2 va) <= 0 is A r^2 - 2 B r + C <= 0 */
	double t2 = t * t;
	double qa = ma * ma - t2 * va, qb = ma * mb - t2 * cab, qc = mb * mb - t2 * vb;
	if (!(qa > 0))
		return -EDOM;
	double disc = qb * qb - qa * qc;
	if (disc < 0) /* rounding: the estimate mb / ma always satisfies the inequality */
		disc = 0;
	*lo = (qb - sqrt(disc)) / qa;
	*hi = (qb + sqrt(disc)) / qa;
	return 0;
}

/* Per boot: the sum and count of each side's values. */
struct boot_acc {
	size_t id;
	double sum[2];
	size_t n[2];
};

/* The boot's accumulator, a new one (in the order boots first come) when it has none yet;
 * slot[id] is its index plus one, 0 for none (ids are boot indexes: a table, not a search). */
static struct boot_acc *boot_find(struct boot_acc *acc, size_t *nacc, size_t *slot, size_t id)
{
	if (slot[id])
		return &acc[slot[id] - 1];
	memset(&acc[*nacc], 0, sizeof(*acc));
	acc[*nacc].id = id;
	slot[id] = ++*nacc;
	return &acc[*nacc - 1];
}

/* Mean, and sample variance (n - 1) of x[0..n). */
static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double m = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = n > 1 ? ss / (n - 1) : 0;
}

/* Two independent samples x (na) and y (nb): means, squared standard errors, Welch's df. */
static void independent(const double *x, size_t na, const double *y, size_t nb, int absolute,
                        double *ma, double *mb, double *va, double *vb, double *df)
{
	double sa, sb;
	mean_var(x, na, ma, &sa);
	mean_var(y, nb, mb, &sb);
	*va = sa / na;
	*vb = sb / nb;
	/* Satterthwaite's df of vb + r^2 va, the variance in Fieller's inequality, at r = mb/ma
	 * (of a difference, r = 1: Welch's) */
	double r = *ma != 0 && !absolute ? *mb / *ma : 1, ea = r * r * *va;
	double den = *vb * *vb / (nb - 1) + ea * ea / (na - 1);
	*df = den > 0 ? (*vb + ea) * (*vb + ea) / den : (double)(na + nb - 2);
}

static void interval_finish(struct bb_interval *iv, double ma, double mb, double va, double vb,
                            double cab)
{
	double lo, hi, t = bb_t_quantile((1 + iv->confidence) / 2, iv->df);
	if (iv->absolute) {
		/* the difference mb - ma: its variance va + vb - 2 cab, Student's t */
		double var = va + vb - 2 * cab, half = t * sqrt(var > 0 ? var : 0);
		iv->estimated = iv->bounded = 1;
		iv->change = mb - ma;
		iv->lo = iv->change - half;
		iv->hi = iv->change + half;
		iv->excludes_zero = iv->lo > 0 || iv->hi < 0;
		return;
	}
	if (ma == 0)
		return;
	iv->estimated = 1;
	iv->change = 100 * (mb / ma - 1);
	if (bb_fieller(ma, mb, va, vb, cab, t, &lo, &hi))
		return;
	iv->bounded = 1;
	iv->lo = 100 * (lo - 1);
	iv->hi = 100 * (hi - 1);
	iv->excludes_zero = iv->lo > 0 || iv->hi < 0;
}

/*
 * Paired per-boot means x (A) and y (B) of n boots, in two orders (g[i] 1: A first): the 2x2
 * crossover's estimates. Per order o the mean pair (mx_o, my_o); the means are the average of
 * the two orders' (each order weighted alike, so an order effect cancels whatever the split),
 * the (co)variances pooled within orders over n - 2, times (1/n_1 + 1/n_0) / 4, the variance
 * factor of a mean of two group means. The order effect: half the difference of the two
 * orders' mean differences (B - A with B second, minus B - A with B first).
 */
static void crossover(const double *x, const double *y, const signed char *g, size_t n,
                      struct bb_interval *iv, double *ma, double *mb, double *va, double *vb,
                      double *cab)
{
	double sx[2] = {0, 0}, sy[2] = {0, 0}, ssx = 0, ssy = 0, sxy = 0;
	size_t k[2] = {0, 0};
	for (size_t i = 0; i < n; i++) {
		sx[g[i]] += x[i];
		sy[g[i]] += y[i];
		k[g[i]]++;
	}
	double mx[2] = {sx[0] / k[0], sx[1] / k[1]}, my[2] = {sy[0] / k[0], sy[1] / k[1]};
	for (size_t i = 0; i < n; i++) {
		double dx = x[i] - mx[g[i]], dy = y[i] - my[g[i]];
		ssx += dx * dx;
		ssy += dy * dy;
		sxy += dx * dy;
	}
	double f = n > 2 ? (1.0 / k[0] + 1.0 / k[1]) / 4 / (double)(n - 2) : 0;
	*ma = (mx[0] + mx[1]) / 2;
	*mb = (my[0] + my[1]) / 2;
	*va = ssx * f;
	*vb = ssy * f;
	*cab = sxy * f;
	iv->df = (double)n - 2;
	iv->crossover = 1;
	if (*ma != 0)
		iv->order_effect = 100 * ((my[1] - mx[1]) - (my[0] - mx[0])) / 2 / *ma;
}

static int interval(const double *a, const size_t *boot_a, size_t na, const double *b,
                    const size_t *boot_b, size_t nb, const signed char *a_first, double confidence,
                    int absolute, struct bb_interval *iv)
{
	signed char *g = NULL;
	struct boot_acc *acc = calloc(na + nb + 1, sizeof(*acc));
	double *x = calloc(na + nb + 1, sizeof(*x)), *y = calloc(na + nb + 1, sizeof(*y));
	size_t nacc = 0, ka = 0, kb = 0, both = 0, maxid = 0, *slot = NULL;
	int r = -ENOMEM;
	memset(iv, 0, sizeof(*iv));
	iv->confidence = confidence;
	iv->absolute = absolute;
	for (size_t i = 0; i < na + nb; i++)
		maxid = i < na ? (boot_a[i] > maxid ? boot_a[i] : maxid)
		               : (boot_b[i - na] > maxid ? boot_b[i - na] : maxid);
	if (!acc || !x || !y || !(g = calloc(na + nb + 1, sizeof(*g))) ||
	    !(slot = calloc(maxid + 1, sizeof(*slot))))
		goto out;
	for (size_t i = 0; i < na; i++) {
		struct boot_acc *ba = boot_find(acc, &nacc, slot, boot_a[i]);
		ba->sum[0] += a[i];
		ba->n[0]++;
	}
	for (size_t i = 0; i < nb; i++) {
		struct boot_acc *ba = boot_find(acc, &nacc, slot, boot_b[i]);
		ba->sum[1] += b[i];
		ba->n[1]++;
	}
	for (size_t i = 0; i < nacc; i++) {
		ka += acc[i].n[0] > 0;
		kb += acc[i].n[1] > 0;
		both += acc[i].n[0] > 0 && acc[i].n[1] > 0;
	}
	double ma, mb, va, vb, cab = 0;
	if (ka >= 2 && kb >= 2) {
		iv->basis = BB_IV_BOOTS;
		iv->units_a = ka;
		iv->units_b = kb;
		size_t nx = 0, ny = 0;
		for (size_t i = 0; i < nacc; i++) {
			if (acc[i].n[0])
				x[nx++] = acc[i].sum[0] / acc[i].n[0];
			if (acc[i].n[1])
				y[ny++] = acc[i].sum[1] / acc[i].n[1];
		}
		for (size_t i = 0; a_first && both == ka && both == kb && i < nacc; i++) {
			g[i] = a_first[acc[i].id];
			iv->a_first += g[i] == 1;
			iv->b_first += g[i] == 0;
		}
		if (both == ka && both == kb && iv->a_first && iv->b_first &&
		    iv->a_first + iv->b_first == nx) {
			/* the same boots in both orders: the order effect out */
			iv->paired = 1;
			crossover(x, y, g, nx, iv, &ma, &mb, &va, &vb, &cab);
			if (iv->df < 1) {
				/* the order effect takes the one degree of freedom there was */
				iv->estimated = absolute || ma != 0;
				iv->change = absolute ? mb - ma : ma != 0 ? 100 * (mb / ma - 1) : 0;
				r = 0;
				goto out;
			}
		} else if (both == ka && both == kb) {
			/* the same boots on both sides: x[i] and y[i] are one boot's pair */
			double sa, sb, sab = 0;
			iv->paired = 1;
			mean_var(x, nx, &ma, &sa);
			mean_var(y, ny, &mb, &sb);
			for (size_t i = 0; i < nx; i++)
				sab += (x[i] - ma) * (y[i] - mb);
			va = sa / nx;
			vb = sb / nx;
			cab = sab / (nx - 1) / nx;
			iv->df = nx - 1;
		} else {
			independent(x, nx, y, ny, absolute, &ma, &mb, &va, &vb, &iv->df);
		}
	} else if (na >= 2 && nb >= 2) {
		iv->basis = BB_IV_ITERATIONS;
		iv->units_a = na;
		iv->units_b = nb;
		independent(a, na, b, nb, absolute, &ma, &mb, &va, &vb, &iv->df);
	} else {
		r = 0;
		goto out;
	}
	interval_finish(iv, ma, mb, va, vb, cab);
	r = 0;
out:
	free(slot);
	free(acc);
	free(x);
	free(y);
	free(g);
	return r;
}

int bb_change_interval(const double *a, const size_t *boot_a, size_t na, const double *b,
                       const size_t *boot_b, size_t nb, const signed char *a_first,
                       double confidence, struct bb_interval *iv)
{
	return interval(a, boot_a, na, b, boot_b, nb, a_first, confidence, 0, iv);
}

int bb_diff_interval(const double *a, const size_t *boot_a, size_t na, const double *b,
                     const size_t *boot_b, size_t nb, const signed char *a_first, double confidence,
                     struct bb_interval *iv)
{
	return interval(a, boot_a, na, b, boot_b, nb, a_first, confidence, 1, iv);
}

/* ---- LKP's rule ---- */

double bb_stat_threshold(const char *name)
{
	/* LKP's skip_small_change? (lib/stats.rb): a change needs a ratio over 1.01 for every
	 * stat, and over 1.05 unless perf_metric? holds (stat_rules.h) */
	return bb_stat_perf_metric(name) ? 1 : 5;
}

static int dbl_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/*
 * LKP's StatSummary: sorted, a margin of n >> 5 values dropped at each end (at most max_margin),
 * then min, the value at index n / 2 (the upper median, which LKP calls mean), max.
 */
static int summary(const double *v, size_t n, size_t max_margin, double *min, double *median,
                   double *max)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), dbl_cmp);
	size_t margin = n >> 5;
	if (margin > max_margin)
		margin = max_margin;
	const double *t = s + margin;
	size_t m = n - 2 * margin;
	*min = t[0];
	*median = t[m / 2];
	*max = t[m - 1];
	free(s);
	return 0;
}

int bb_lkp_verdict(const char *name, const double *a, size_t na, const double *b, size_t nb,
                   struct bb_lkp_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->threshold = bb_stat_threshold(name);
	/* skip_regular_stat?: one side needs 3 samples; a stat the base lacks is not compared */
	if (!na || !nb || (na < 3 && nb < 3)) {
		snprintf(v->rule, sizeof v->rule, "not compared: %s",
		         !na || !nb ? "one side has no value" : "no side has 3 samples");
		return 0;
	}
	v->compared = 1;
	/* calculate_matrix_values: margin at most 3; the new side's at most 1 when the base has
	 * 3 or fewer samples (A is LKP's base, B the new) */
	if (summary(a, na, 3, &v->min_a, &v->median_a, &v->max_a) ||
	    summary(b, nb, na <= 3 ? 1 : 3, &v->min_b, &v->median_b, &v->max_b))
		return -ENOMEM;
	/* changed_stat.rb, default mode: one side's min and median above the other's median and
	 * max */
	int apart = (v->min_b > v->median_a && v->median_b > v->max_a) ||
	            (v->min_a > v->median_b && v->median_a > v->max_b);
	/* calc_diff_metrics: the higher median over the lower, 5 at most (and when the lower is
	 * not positive) */
	double high = v->median_a > v->median_b ? v->median_a : v->median_b;
	double low = v->median_a > v->median_b ? v->median_b : v->median_a;
	v->ratio = low > 0 ? high / low : 5;
	if (v->ratio > 5)
		v->ratio = 5;
	v->changed = apart && v->ratio > 1.01 && (v->ratio > 1.05 || v->threshold == 1);
	if (!apart)
		snprintf(
		    v->rule, sizeof v->rule,
		    "not apart: neither side's min and median above the other's median and max");
	else if (!v->changed)
		snprintf(v->rule, sizeof v->rule, "medians %.2f%% apart, under the %g%% %s",
		         (v->ratio - 1) * 100, v->threshold,
		         v->threshold == 1 ? "of LKP's perf metrics" : "of the other stats");
	/* then reasonable_perf_change?, LKP's minimum sizes (every stat, as LKP) */
	if (v->changed) {
		char why[160];
		v->changed = bb_stat_reasonable_change_why(
		    name, high - low, v->max_a > v->max_b ? v->max_a : v->max_b, why, sizeof why);
		snprintf(v->rule, sizeof v->rule, "%s: apart, medians %.2f%% apart (over %g%%)%s%s",
		         v->changed ? "changed" : "too small", (v->ratio - 1) * 100, v->threshold,
		         *why ? (v->changed ? ", and " : ", but not ") : "", why);
	}
	return 0;
}
