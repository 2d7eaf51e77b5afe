/*
 * bb_primary_changes, what `run --until` calls after each boot: the primary stat's %change and
 * 95% interval between two groups of boots, on the fixture results (independent boots, one
 * boot) and on a folder written here whose sides ran in the same boots (paired). The interval
 * numbers are those of tests/unit/test_compare_stats.c, worked out separately.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "harness.h"
#include "host/compare/primary.h"

TEST(primary_independent_boots)
{
	struct bb_primary_query q = {.key = "cgroup"};
	struct bb_primary *p;
	size_t n;
	char err[512];
	CHECK_INT(bb_primary_changes(test_fixture("results/cgroup"), &q, &p, &n, err, sizeof(err)),
	          ==, 0);
	CHECK_INT(n, ==, 1);
	CHECK_STR(p[0].stat, "netperf.Throughput_Mbps");
	CHECK_STR(p[0].value_a, "v1");
	CHECK_STR(p[0].value_b, "v2");
	CHECK_CONTAINS(p[0].run, "test=SCTP_STREAM_MANY");
	CHECK_INT(p[0].boots_a, ==, 3);
	CHECK_INT(p[0].boots_b, ==, 3);
	CHECK_NEAR(p[0].change, -9.3617459, 1e-6);
	CHECK_INT(p[0].iv.basis, ==, BB_IV_BOOTS);
	CHECK_NEAR(p[0].iv.lo, -10.7246939833, 1e-6);
	CHECK_NEAR(p[0].iv.hi, -7.97777346195, 1e-6);
	/* [-10.7, -8.0] excludes 0 by more than 2%; for 9% it is narrow enough (+/-1.4) */
	CHECK_INT(bb_primary_settled(&p[0], 2), ==, BB_SETTLED_CHANGED);
	CHECK_INT(bb_primary_settled(&p[0], 9), ==, BB_SETTLED_NARROW);
	bb_primary_free(p, n);
	/* a named stat, and the sides given the other way round */
	q.stat = "netperf.time.voluntary_context_switches";
	q.value_a = "v2";
	CHECK_INT(bb_primary_changes(test_fixture("results/cgroup"), &q, &p, &n, err, sizeof(err)),
	          ==, 0);
	CHECK_STR(p[0].value_b, "v1");
	CHECK(p[0].change < -10);
	bb_primary_free(p, n);
	/* a stat no run has */
	q.stat = "netperf.no_such_stat";
	CHECK_INT(bb_primary_changes(test_fixture("results/cgroup"), &q, &p, &n, err, sizeof(err)),
	          ==, -EINVAL);
	CHECK_CONTAINS(err, "no matched run has the stat netperf.no_such_stat");
}

TEST(primary_side_not_there_yet)
{
	struct bb_primary_query q = {.key = "cgroup", .value_a = "v1", .value_b = "v3"};
	struct bb_primary *p;
	size_t n;
	char err[512];
	/* after the first boots only one side exists: -ENODATA, keep booting */
	CHECK_INT(bb_primary_changes(test_fixture("results/cgroup"), &q, &p, &n, err, sizeof(err)),
	          ==, -ENODATA);
	CHECK_CONTAINS(err, "no run with cgroup=v3 yet");
	/* one side named and two others in the folder: which one is meant? */
	q.value_a = NULL;
	CHECK_INT(bb_primary_changes(test_fixture("results/cgroup"), &q, &p, &n, err, sizeof(err)),
	          ==, -EINVAL);
	CHECK_CONTAINS(err, "'cgroup' has 2 values; say which two are the sides");
	struct bb_primary_query one = {.key = "nr_threads"};
	CHECK_INT(
	    bb_primary_changes(test_fixture("results/cgroup"), &one, &p, &n, err, sizeof(err)), ==,
	    -ENODATA);
	CHECK_CONTAINS(err, "1 value of 'nr_threads' so far");
	CHECK_INT(bb_primary_changes("/nonexistent/results", &one, &p, &n, err, sizeof(err)), ==,
	          -ENOENT);
}

TEST(primary_one_boot_cannot_settle)
{
	struct bb_primary_query q = {.key = "prsctp_enable"};
	struct bb_primary *p;
	size_t n;
	char err[512];
	CHECK_INT(bb_primary_changes(test_fixture("results/prsctp"), &q, &p, &n, err, sizeof(err)),
	          ==, 0);
	CHECK_INT(p[0].boots_a, ==, 1);
	CHECK_INT(p[0].iv.basis, ==, BB_IV_ITERATIONS);
	CHECK(p[0].iv.excludes_zero);
	CHECK_INT(bb_primary_settled(&p[0], 50), ==, BB_UNSETTLED);
	bb_primary_free(p, n);
}

TEST(primary_paired_boots)
{
	/* 4 boots, each running x=0 then x=1: per-boot pairs */
	const double a[] = {100, 104, 98, 101}, b[] = {97, 101.5, 95.5, 98};
	const char *d = test_tmpdir();
	char rel[256], body[128];
	for (int i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "000%d-b00%d/env.json", i + 1, i);
		test_write_file(d, rel, "{\"benchboot_env\": 1}\n");
		snprintf(rel, sizeof(rel), "000%d-b00%d/done", i + 1, i);
		test_write_file(d, rel, "");
		for (int s = 0; s < 2; s++) {
			snprintf(rel, sizeof(rel), "000%d-b00%d/runs/R.x=%d/results.json", i + 1, i,
			         s);
			snprintf(body, sizeof(body), "{\"netperf.Throughput_Mbps\": [%g]}\n",
			         s ? b[i] : a[i]);
			test_write_file(d, rel, body);
		}
	}
	struct bb_primary_query q = {.key = "x"};
	struct bb_primary *p;
	size_t n;
	char err[512];
	CHECK_INT(bb_primary_changes(d, &q, &p, &n, err, sizeof(err)), ==, 0);
	CHECK_INT(n, ==, 1);
	CHECK_INT(p[0].boots_a, ==, 4);
	CHECK(p[0].iv.paired);
	CHECK_NEAR(p[0].iv.lo, -3.21673958542, 1e-6);
	CHECK_NEAR(p[0].iv.hi, -2.25500544482, 1e-6);
	/* [-3.2, -2.3]: excludes 0 by more than 2% */
	CHECK_INT(bb_primary_settled(&p[0], 2), ==, BB_SETTLED_CHANGED);
	/* not by 2.5%, but within +/-0.5 of the estimate -2.74: narrow enough */
	CHECK_INT(bb_primary_settled(&p[0], 2.5), ==, BB_SETTLED_NARROW);
	/* a 99% interval is wider */
	double w95 = p[0].iv.hi - p[0].iv.lo;
	bb_primary_free(p, n);
	q.confidence = 0.99;
	CHECK_INT(bb_primary_changes(d, &q, &p, &n, err, sizeof(err)), ==, 0);
	CHECK(p[0].iv.hi - p[0].iv.lo > w95);
	CHECK_NEAR(p[0].iv.confidence, 0.99, 0);
	bb_primary_free(p, n);
}

TEST(primary_settled_rule)
{
	struct bb_primary p = {0};
	p.iv.basis = BB_IV_BOOTS;
	p.iv.bounded = 1;
	p.change = -1;
	p.iv.change = -1;
	p.iv.lo = -3;
	p.iv.hi = 1;
	/* [-3, 1] around -1: +/-2 wide, holds 0 */
	CHECK_INT(bb_primary_settled(&p, 1.5), ==, BB_UNSETTLED);
	CHECK_INT(bb_primary_settled(&p, 2), ==, BB_SETTLED_NARROW);
	p.iv.lo = 2.5;
	p.iv.hi = 9;
	p.iv.change = 5;
	CHECK_INT(bb_primary_settled(&p, 2), ==, BB_SETTLED_CHANGED);
	CHECK_INT(bb_primary_settled(&p, 3), ==, BB_UNSETTLED);
	/* iterations of one boot never settle */
	p.iv.basis = BB_IV_ITERATIONS;
	CHECK_INT(bb_primary_settled(&p, 2), ==, BB_UNSETTLED);
}
