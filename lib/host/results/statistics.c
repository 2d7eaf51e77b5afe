/* Statistics of the comparison: samples, Welch's test, LKP's change rule; see statistics.h. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "host/results/statistics.h"

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

/*
 * The continued fraction of the incomplete beta function, evaluated with the modified Lentz
 * method (Numerical Recipes, 6.4); converges quickly for x < (a + 1) / (a + b + 2).
 */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double bb_betainc(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double bb_t_pvalue(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	return bb_betainc(df / 2, 0.5, df / (df + t * t));
}

int bb_welch(const double *a, size_t na, const double *b, size_t nb, double *t, double *df,
             double *p)
{
	if (na < 2 || nb < 2)
		return -1;
	struct bb_sample sa, sb;
	bb_sample_compute(a, na, &sa);
	bb_sample_compute(b, nb, &sb);
	/* sample variances (n - 1) from the population ones */
	double va = sa.sd * sa.sd * na / (na - 1), vb = sb.sd * sb.sd * nb / (nb - 1);
	double qa = va / na, qb = vb / nb, se2 = qa + qb;
	if (se2 == 0) {
		*t = sa.mean == sb.mean ? 0 : (sb.mean > sa.mean ? INFINITY : -INFINITY);
		*df = na + nb - 2;
		*p = sa.mean == sb.mean ? 1 : 0;
		return 0;
	}
	*t = (sb.mean - sa.mean) / sqrt(se2);
	*df = se2 * se2 / (qa * qa / (na - 1) + qb * qb / (nb - 1));
	*p = bb_t_pvalue(*t, *df);
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

double bb_stat_threshold(const char *name)
{
	/* what the benchmark measures, as opposed to what it cost (time.*, utilization) */
	static const char *const perf[] = {".Throughput_Mbps",
	                                   ".Throughput_total_Mbps",
	                                   ".Throughput_tps",
	                                   ".Throughput_total_tps",
	                                   ".ops",
	                                   ".ops_per_sec"};
	for (size_t i = 0; i < sizeof(perf) / sizeof(*perf); i++)
		if (ends_with(name, perf[i]))
			return 1;
	return 5;
}

int bb_lkp_changed(const struct bb_sample *a, const struct bb_sample *b, double change,
                   int change_defined, double threshold)
{
	if (!a->n || !b->n || (a->n < 3 && b->n < 3))
		return 0;
	if (!(b->min > a->max || b->max < a->min))
		return 0;
	return !change_defined || fabs(change) > threshold;
}
