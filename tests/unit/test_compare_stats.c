/*
 * compare's statistics on known data: Student's t (closed forms for df 1 and 2, printed
 * tables, values integrated separately), Fieller's interval, the interval of a %change with the
 * boot as the unit (paired and independent boots, one boot a side), and LKP's `L` rule as
 * LKP's lib/stats.rb and lib/changed_stat.rb compute it. The reference numbers of the intervals
 * were worked out separately (Simpson integration of the t density in x, the quadratic formula).
 */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "host/compare/statistics.h"

TEST(t_cdf_closed_forms)
{
	/* df 1 is Cauchy: F(t) = 1/2 + atan(t) / pi; df 2: F(t) = 1/2 + t / (2 sqrt(2 + t^2)) */
	for (double t = -6; t <= 6; t += 0.75) {
		CHECK_NEAR(bb_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		CHECK_NEAR(bb_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
	CHECK_NEAR(bb_t_cdf(0, 7.3), 0.5, 1e-15);
	CHECK_NEAR(bb_t_cdf(INFINITY, 3), 1, 0);
	CHECK(isnan(bb_t_cdf(1, 0)));
	/* fractional df, integrated separately: two-sided p 0.26866672417 at t 1.3, df 3.7 */
	CHECK_NEAR(bb_t_cdf(1.3, 3.7), 1 - 0.26866672417 / 2, 1e-9);
	CHECK_NEAR(bb_t_cdf(-4.2, 25.5), 0.000286233024 / 2, 1e-11);
}

TEST(t_quantile_tables)
{
	/* 97.5% points from printed t tables (3 decimals) */
	const struct {
		double df, t;
	} table[] = {{1, 12.706}, {2, 4.303},  {3, 3.182},  {4, 2.776},
	             {5, 2.571},  {10, 2.228}, {29, 2.045}, {120, 1.980}};
	for (size_t i = 0; i < sizeof(table) / sizeof(*table); i++)
		CHECK_NEAR(bb_t_quantile(0.975, table[i].df), table[i].t, 5e-4);
	CHECK_NEAR(bb_t_quantile(0.995, 4), 4.604, 5e-4);
	/* closed form of df 1, symmetry, and the normal limit 1.959964 */
	CHECK_NEAR(bb_t_quantile(0.9, 1), tan(M_PI * 0.4), 1e-8);
	CHECK_NEAR(bb_t_quantile(0.025, 5), -bb_t_quantile(0.975, 5), 1e-12);
	CHECK_NEAR(bb_t_quantile(0.975, 1e7), 1.959964, 1e-5);
	CHECK_NEAR(bb_t_quantile(0.975, 3.7), 2.86752070719, 1e-7);
	CHECK(isnan(bb_t_quantile(1, 3)));
}

TEST(fieller_ratio)
{
	double lo, hi;
	/* no spread: the interval is the ratio itself */
	CHECK_INT(bb_fieller(100, 95, 0, 0, 0, 2, &lo, &hi), ==, 0);
	CHECK_NEAR(lo, 0.95, 1e-12);
	CHECK_NEAR(hi, 0.95, 1e-12);
	/* the denominator not told apart from 0: no bounded interval */
	CHECK_INT(bb_fieller(1, 5, 1, 1, 0, 2, &lo, &hi), ==, -EDOM);
	/* the estimate lies inside, and the interval is wider than the delta method's at small n */
	CHECK_INT(bb_fieller(100, 90, 4, 4, 0, 4.303, &lo, &hi), ==, 0);
	CHECK(lo < 0.9 && hi > 0.9);
}

TEST(interval_independent_boots)
{
	/* tests/fixtures/results/cgroup: 3 boots a side, one iteration each */
	const double a[] = {1093.41, 1108.17, 1101.65}, b[] = {998.12, 1004.57, 991.30};
	const size_t ba[] = {0, 1, 2}, bb[] = {3, 4, 5};
	struct bb_interval iv;
	CHECK_INT(bb_change_interval(a, ba, 3, b, bb, 3, NULL, 0.95, &iv), ==, 0);
	CHECK_INT(iv.basis, ==, BB_IV_BOOTS);
	CHECK_INT(iv.paired, ==, 0);
	CHECK_INT(iv.units_a, ==, 3);
	CHECK_NEAR(iv.df, 3.99957984576, 1e-8);
	CHECK_NEAR(iv.change, 100 * (997.996667 / 1101.076667 - 1), 1e-5);
	CHECK_NEAR(iv.lo, -10.7246939833, 1e-6);
	CHECK_NEAR(iv.hi, -7.97777346195, 1e-6);
	CHECK(iv.bounded && iv.excludes_zero);
}

TEST(interval_paired_boots_averages_iterations)
{
	/* both values of a side in a boot are averaged first: per-boot means A 100 104 98 101,
	 * B 97 101.5 95.5 98, both sides in the same 4 boots (a run-level axis) */
	const double a[] = {99, 101, 103, 105, 98, 98, 100.5, 101.5};
	const double b[] = {96, 98, 101.5, 101.5, 95, 96, 98, 98};
	const size_t ba[] = {7, 7, 8, 8, 9, 9, 10, 10}, bb[] = {9, 9, 7, 7, 8, 8, 10, 10};
	struct bb_interval iv;
	/* B's boots listed in another order: pairing goes by boot, not by position */
	const double b2[] = {95, 96, 96, 98, 101.5, 101.5, 98, 98};
	CHECK_INT(bb_change_interval(a, ba, 8, b2, bb, 8, NULL, 0.95, &iv), ==, 0);
	CHECK_INT(iv.basis, ==, BB_IV_BOOTS);
	CHECK_INT(iv.paired, ==, 1);
	CHECK_NEAR(iv.df, 3, 0);
	CHECK_NEAR(iv.lo, -3.21673958542, 1e-6);
	CHECK_NEAR(iv.hi, -2.25500544482, 1e-6);
	CHECK(iv.excludes_zero);
	(void)b;
}

TEST(interval_crossover_takes_the_order_effect_out)
{
	/* an A/A comparison in 6 boots (per-boot level 100 103 98 101 99 102), A first in boots
	 * 0, 2, 4 and B first in 1, 3, 5 (benchboot run's turns), the run second in a boot 4%
	 * faster, a little noise on B: the order effect is taken out, not read as a change */
	const double a[] = {100, 107.12, 98, 105.04, 99, 106.08};
	const double b[] = {104.3, 102.8, 102.02, 100.7, 103.16, 102.0};
	const size_t ba[] = {0, 1, 2, 3, 4, 5}, bb[] = {0, 1, 2, 3, 4, 5};
	const signed char first[] = {1, 0, 1, 0, 1, 0};
	struct bb_interval iv, plain;
	CHECK_INT(bb_change_interval(a, ba, 6, b, bb, 6, first, 0.95, &iv), ==, 0);
	CHECK_INT(iv.basis, ==, BB_IV_BOOTS);
	CHECK(iv.paired && iv.crossover);
	CHECK_INT(iv.a_first, ==, 3);
	CHECK_INT(iv.b_first, ==, 3);
	CHECK_NEAR(iv.df, 4, 0);
	/* the 2x2 crossover's estimate and Fieller's interval on it, computed apart */
	CHECK_NEAR(iv.change, -0.0422599310838, 1e-8);
	CHECK_NEAR(iv.lo, -0.200810471649, 1e-6);
	CHECK_NEAR(iv.hi, 0.114441868168, 1e-6);
	CHECK_NEAR(iv.order_effect, 4.09921331513, 1e-8);
	CHECK(iv.bounded && !iv.excludes_zero);
	/* the order not known: plain pairs, the order effect left in the spread */
	CHECK_INT(bb_change_interval(a, ba, 6, b, bb, 6, NULL, 0.95, &plain), ==, 0);
	CHECK(!plain.crossover && plain.paired);
	CHECK_NEAR(plain.df, 5, 0);
	CHECK(plain.hi - plain.lo > 10 * (iv.hi - iv.lo));
	/* a real -5% under the same order effect: found, with the order effect still 4% */
	double b5[6];
	for (int i = 0; i < 6; i++)
		b5[i] = b[i] * 0.95;
	CHECK_INT(bb_change_interval(a, ba, 6, b5, bb, 6, first, 0.95, &iv), ==, 0);
	CHECK(iv.crossover && iv.excludes_zero && iv.hi < -4.5 && iv.lo > -5.5);
	/* one order only: plain pairs, the order counted */
	const signed char same[] = {1, 1, 1, 1, 1, 1};
	CHECK_INT(bb_change_interval(a, ba, 6, b, bb, 6, same, 0.95, &iv), ==, 0);
	CHECK(!iv.crossover && iv.paired);
	CHECK_INT(iv.a_first, ==, 6);
	CHECK_INT(iv.b_first, ==, 0);
}

TEST(interval_crossover_of_two_boots_claims_nothing)
{
	/* 2 boots, one in each order: the order effect takes the one degree of freedom, so
	 * there is no interval and no mark, however close the two pairs are */
	const double a[] = {100, 104.0}, b[] = {104.1, 100.1};
	const size_t ba[] = {0, 1}, bb[] = {0, 1};
	const signed char first[] = {1, 0};
	struct bb_interval iv;
	CHECK_INT(bb_change_interval(a, ba, 2, b, bb, 2, first, 0.95, &iv), ==, 0);
	CHECK_INT(iv.basis, ==, BB_IV_BOOTS);
	CHECK(iv.crossover && iv.paired && iv.estimated);
	CHECK_NEAR(iv.df, 0, 0);
	CHECK(!iv.bounded && !iv.excludes_zero);
	CHECK_NEAR(iv.change, 100 * (102.1 / 102.0 - 1), 1e-9);
}

TEST(interval_one_boot_is_iterations_only)
{
	/* one boot a side: the iterations are the unit, and the basis says so */
	const double a[] = {731.2, 744.8, 738.0}, b[] = {702.5, 699.1};
	const size_t ba[] = {0, 0, 0}, bb[] = {1, 1};
	struct bb_interval iv;
	CHECK_INT(bb_change_interval(a, ba, 3, b, bb, 2, NULL, 0.95, &iv), ==, 0);
	CHECK_INT(iv.basis, ==, BB_IV_ITERATIONS);
	CHECK_INT(iv.units_b, ==, 2);
	CHECK_NEAR(iv.df, 2.68594729152, 1e-7);
	CHECK_NEAR(iv.lo, -6.89979947772, 1e-6);
	CHECK_NEAR(iv.hi, -3.11921555869, 1e-6);
	/* two boots on A but one on B: still iterations only */
	const size_t ba2[] = {0, 2, 2};
	CHECK_INT(bb_change_interval(a, ba2, 3, b, bb, 2, NULL, 0.95, &iv), ==, 0);
	CHECK_INT(iv.basis, ==, BB_IV_ITERATIONS);
	/* a single value on a side: no interval */
	CHECK_INT(bb_change_interval(a, ba, 3, b, bb, 1, NULL, 0.95, &iv), ==, 0);
	CHECK_INT(iv.basis, ==, BB_IV_NONE);
	/* A's mean 0: no %change, no interval */
	const double z[] = {0, 0, 0};
	CHECK_INT(bb_change_interval(z, ba, 3, b, bb, 2, NULL, 0.95, &iv), ==, 0);
	CHECK(!iv.bounded && !iv.excludes_zero);
}

TEST(lkp_rule_exact)
{
	struct bb_lkp_verdict v;
	const double a[] = {99, 100, 101}, b[] = {94, 95, 96};
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", a, 3, b, 3, &v), ==, 0);
	CHECK(v.compared && v.changed);
	CHECK_NEAR(v.median_a, 100, 0);
	CHECK_NEAR(v.ratio, 100.0 / 95, 1e-12);
	/* the samples overlap (min A 100 < max B 100.5), yet min and median of A are above the
	 * median and max of B: LKP calls it changed; it is not a no-overlap test */
	const double c[] = {100, 101, 102}, d[] = {98, 99, 100.5};
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", c, 3, d, 3, &v), ==, 0);
	CHECK(v.changed);
	/* B's min 96 is below A's median, A's min 97 below B's median: unchanged */
	const double e[] = {97, 98, 99.5}, f[] = {96, 100, 101};
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", e, 3, f, 3, &v), ==, 0);
	CHECK(!v.changed);
	/* the ratio of the medians must pass 1.01 for every stat ... */
	const double g[] = {100, 100, 100}, h[] = {99.2, 99.2, 99.2};
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", g, 3, h, 3, &v), ==, 0);
	CHECK(!v.changed);
	/* ... and 1.05 for a stat that is not a test program's: 100/96 = 1.042 */
	const double k[] = {95, 96, 97};
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", a, 3, k, 3, &v), ==, 0);
	CHECK(v.changed);
	CHECK_INT(bb_lkp_verdict("cpu.busy_percent", a, 3, k, 3, &v), ==, 0);
	CHECK(!v.changed);
	CHECK_NEAR(v.threshold, 5, 0);
	CHECK_INT(bb_lkp_verdict("cpu.busy_percent", a, 3, b, 3, &v), ==, 0);
	CHECK(v.changed); /* 100/95 = 1.053 */
	/* a side with >= 3 samples: 2 against 2 is not compared; 3 against 1 is */
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", a, 2, b, 2, &v), ==, 0);
	CHECK(!v.compared && !v.changed);
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", a, 3, b, 1, &v), ==, 0);
	CHECK(v.compared && v.changed);
	/* the median is the value at n / 2 of the sorted sample: 3 of 1 2 3 4 */
	const double m4[] = {4, 1, 3, 2}, far[] = {10, 11, 12};
	CHECK_INT(bb_lkp_verdict("netperf.x", m4, 4, far, 3, &v), ==, 0);
	CHECK_NEAR(v.median_a, 3, 0);
	CHECK_NEAR(v.median_b, 11, 0);
	/* a lower median of 0: the ratio is LKP's maximum, 5 */
	const double zero[] = {0, 0, 0};
	CHECK_INT(bb_lkp_verdict("netperf.x", zero, 3, far, 3, &v), ==, 0);
	CHECK_NEAR(v.ratio, 5, 0);
	CHECK(v.changed);
}

TEST(lkp_margin_from_32_samples)
{
	/* 32 samples: LKP drops 32 >> 5 = 1 at each end before taking min, median and max */
	double a[32], b[3] = {90, 91, 92};
	for (int i = 0; i < 32; i++)
		a[i] = 100 + (i % 4);
	a[5] = 50; /* an outlier below B: dropped */
	struct bb_lkp_verdict v;
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", a, 32, b, 3, &v), ==, 0);
	CHECK_NEAR(v.min_a, 100, 0);
	CHECK(v.changed);
	/* the new side's margin is at most 1 when the base (A) has 3 or fewer samples */
	double n[64];
	for (int i = 0; i < 64; i++)
		n[i] = 200 + i;
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", b, 3, n, 64, &v), ==, 0);
	CHECK_NEAR(v.min_b, 201, 0);
	CHECK_NEAR(v.max_b, 262, 0);
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", n, 64, b, 3, &v), ==, 0);
	CHECK_NEAR(v.min_a, 202, 0);
}

TEST(lkp_thresholds)
{
	CHECK_NEAR(bb_stat_threshold("netperf.Throughput_Mbps"), 1, 0);
	CHECK_NEAR(bb_stat_threshold("netperf.time.elapsed_time"), 1, 0);
	CHECK_NEAR(bb_stat_threshold("stress-ng.cpu.ops_per_sec"), 1, 0);
	CHECK_NEAR(bb_stat_threshold("stress-ng.time.voluntary_context_switches"), 1, 0);
	CHECK_NEAR(bb_stat_threshold("netperfx.y"), 5, 0);
	CHECK_NEAR(bb_stat_threshold("softirqs.NET_RX"), 5, 0);
}

/* Identical rows, different marks, and the reason said: LKP's minimum size of
 * .*.time.system_time (max >= 10) applies to netperf.time.system_time, not to time.system_time
 * (the pattern needs a character before ".time"). */
TEST(lkp_verdict_says_its_rule)
{
	const double a[] = {1, 1, 1}, b[] = {3, 3, 3};
	struct bb_lkp_verdict v;
	CHECK_INT(bb_lkp_verdict("netperf.time.system_time", a, 3, b, 3, &v), ==, 0);
	CHECK_INT(v.changed, ==, 0);
	CHECK_STR(v.rule,
	          "too small: apart, medians 200.00% apart (over 1%), but not LKP's minimum "
	          "for .*.time.system_time: max >= 10 and delta >= half of it");
	CHECK_INT(bb_lkp_verdict("time.system_time", a, 3, b, 3, &v), ==, 0);
	CHECK_INT(v.changed, ==, 1);
	CHECK_STR(v.rule, "changed: apart, medians 200.00% apart (over 1%)");
	const double c[] = {1, 3, 2};
	CHECK_INT(bb_lkp_verdict("time.system_time", a, 3, c, 3, &v), ==, 0);
	CHECK_STR(v.rule,
	          "not apart: neither side's min and median above the other's median and max");
	CHECK_INT(bb_lkp_verdict("time.system_time", a, 2, c, 2, &v), ==, 0);
	CHECK_STR(v.rule, "not compared: no side has 3 samples");
}
