/*
 * The regularized incomplete beta function, Student's t p-values and Welch's test, checked
 * against closed forms (I_x(a,1) = x^a, df 1 and 2 t distributions), printed t-tables and
 * values computed independently by numerical integration of the t density.
 */
#include <math.h>

#include "harness.h"
#include "host/results/compare.h"

#define CHECK_NEAR(got, want, tol)                                                                 \
	do {                                                                                       \
		double _g = (got), _w = (want), _t = (tol);                                        \
		if (!(fabs(_g - _w) <= _t))                                                        \
			bb_test_fail(__FILE__, __LINE__, "%s = %.12g, expected %.12g (+-%g)",      \
			             #got, _g, _w, _t);                                            \
	} while (0)

/* Relative: 3 significant digits and better. */
#define CHECK_REL(got, want, rel) CHECK_NEAR(got, want, fabs((double)(want)) * (rel))

TEST(betainc_closed_forms)
{
	for (double x = 0.05; x < 1; x += 0.1) {
		CHECK_NEAR(bb_betainc(1, 1, x), x, 1e-13);
		CHECK_NEAR(bb_betainc(3.5, 1, x), pow(x, 3.5), 1e-13);
		CHECK_NEAR(bb_betainc(1, 2.5, x), 1 - pow(1 - x, 2.5), 1e-13);
		CHECK_NEAR(bb_betainc(2.3, 0.7, x), 1 - bb_betainc(0.7, 2.3, 1 - x), 1e-13);
	}
	CHECK_NEAR(bb_betainc(7, 7, 0.5), 0.5, 1e-13);
	CHECK_NEAR(bb_betainc(40, 40, 0.5), 0.5, 1e-12);
	/* I_x(2,2) = 3x^2 - 2x^3 */
	CHECK_NEAR(bb_betainc(2, 2, 0.3), 3 * 0.09 - 2 * 0.027, 1e-13);
	CHECK_NEAR(bb_betainc(2, 3, 0), 0, 0);
	CHECK_NEAR(bb_betainc(2, 3, 1), 1, 0);
	CHECK(isnan(bb_betainc(0, 1, 0.5)));
	CHECK(isnan(bb_betainc(1, 1, 1.5)));
}

TEST(t_pvalue_closed_forms)
{
	/* df 1 is Cauchy: p = 1 - 2/pi atan|t|; df 2: p = 1 - |t| / sqrt(2 + t^2) */
	for (double t = -6; t <= 6; t += 0.75) {
		CHECK_NEAR(bb_t_pvalue(t, 1), 1 - 2 / M_PI * atan(fabs(t)), 1e-12);
		CHECK_NEAR(bb_t_pvalue(t, 2), 1 - fabs(t) / sqrt(2 + t * t), 1e-12);
	}
	CHECK_NEAR(bb_t_pvalue(0, 7.3), 1, 1e-14);
	CHECK_NEAR(bb_t_pvalue(INFINITY, 3), 0, 0);
	CHECK(isnan(bb_t_pvalue(1, 0)));
}

TEST(t_pvalue_textbook_table)
{
	/* two-sided 5% and 1% critical values from printed t-tables (3 decimals) */
	CHECK_NEAR(bb_t_pvalue(12.706, 1), 0.05, 5e-5);
	CHECK_NEAR(bb_t_pvalue(2.571, 5), 0.05, 5e-5);
	CHECK_NEAR(bb_t_pvalue(2.228, 10), 0.05, 5e-5);
	CHECK_NEAR(bb_t_pvalue(2.045, 29), 0.05, 5e-5);
	CHECK_NEAR(bb_t_pvalue(3.169, 10), 0.01, 5e-6);
	CHECK_NEAR(bb_t_pvalue(4.604, 4), 0.01, 5e-6);
	/* large df: the normal distribution, 2 * (1 - Phi(1.959964)) = 0.05 */
	CHECK_NEAR(bb_t_pvalue(1.959964, 1e7), 0.05, 1e-6);
}

TEST(t_pvalue_fractional_df)
{
	/* Simpson integration of the t density (200000 steps), done separately */
	CHECK_REL(bb_t_pvalue(1.3, 3.7), 0.26866672417, 1e-6);
	CHECK_REL(bb_t_pvalue(-4.2, 25.5), 0.000286233024, 1e-6);
	CHECK_REL(bb_t_pvalue(-17.967, 3.95378), 6.13554e-05, 1e-4);
}

TEST(welch_fixture_samples)
{
	/* cgroup v1 vs v2 throughput of tests/fixtures/results/cgroup */
	const double a[] = {1093.41, 1108.17, 1101.65}, b[] = {998.12, 1004.57, 991.30};
	double t, df, p;
	CHECK_INT(bb_welch(a, 3, b, 3, &t, &df, &p), ==, 0);
	CHECK_REL(t, -17.967, 1e-4);
	CHECK_REL(df, 3.95378, 1e-5);
	CHECK_REL(p, 6.13554e-05, 1e-4);
	/* unequal sizes: 3 vs 2 */
	const double c[] = {731.2, 744.8, 738.0}, d[] = {702.5, 699.1};
	CHECK_INT(bb_welch(c, 3, d, 2, &t, &df, &p), ==, 0);
	CHECK_REL(t, -8.69517, 1e-5);
	CHECK_REL(df, 2.63504, 1e-5);
	CHECK_REL(p, 0.00519013, 1e-5);
	/* a constant side (all zero) against a varying one */
	const double z[] = {0, 0, 0}, e[] = {0, 3, 1};
	CHECK_INT(bb_welch(z, 3, e, 3, &t, &df, &p), ==, 0);
	CHECK_REL(t, 1.51186, 1e-5);
	CHECK_REL(df, 2, 1e-9);
	CHECK_REL(p, 0.269703, 1e-5);
}

TEST(welch_degenerate)
{
	const double one[] = {5}, two[] = {5, 5}, three[] = {6, 6, 6};
	double t, df, p;
	CHECK_INT(bb_welch(one, 1, two, 2, &t, &df, &p), ==, -1);
	CHECK_INT(bb_welch(two, 2, one, 1, &t, &df, &p), ==, -1);
	CHECK_INT(bb_welch(two, 2, two, 2, &t, &df, &p), ==, 0);
	CHECK_NEAR(p, 1, 0);
	CHECK_INT(bb_welch(two, 2, three, 3, &t, &df, &p), ==, 0);
	CHECK_NEAR(p, 0, 0);
	CHECK(isinf(t) && t > 0);
}
