/* stress-ng --metrics outputs captured from the pinned stress-ng (0.15.06 before, 0.22.01 now:
 * tests/fixtures/stress-ng/README) -> stats. */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "parse_stressng.h"

static double stat_of(const struct bb_stats *s, const char *name)
{
	const struct bb_stat *st = bb_stats_find(s, name);
	if (!st)
		bb_test_fail(__FILE__, __LINE__, "no stat %s", name);
	return st->value;
}

TEST(cpu_metrics)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("stress-ng/cpu.txt");
	CHECK_INT(parse_stressng(out, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 3);
	CHECK_STR(s.v[0].name, "stress-ng.cpu.pass"); /* LKP's names */
	CHECK(stat_of(&s, "stress-ng.cpu.pass") == 1);
	CHECK(stat_of(&s, "stress-ng.cpu.ops") == 3465);
	CHECK(stat_of(&s, "stress-ng.cpu.ops_per_sec") == 1731.15);
	bb_stats_free(&s);
	free(out);
}

TEST(icmp_flood_misc_metrics_as_lkp_names_them)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("stress-ng/icmp-flood.txt");
	CHECK_INT(parse_stressng(out, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 7);
	CHECK(stat_of(&s, "stress-ng.icmp-flood.ops") == 377196);
	CHECK(stat_of(&s, "stress-ng.icmp-flood.ops_per_sec") == 188591.54);
	/* "94364.14 sendto calls per sec (geometic mean of 2 instances)" */
	CHECK(stat_of(&s, "stress-ng.icmp-flood.sendto_calls_per_sec") == 94364.14);
	CHECK(stat_of(&s, "stress-ng.icmp-flood.sendto_calls_per_sec.pass") == 1);
	CHECK(stat_of(&s, "stress-ng.icmp-flood.MB_written_per_sec") == 47.53);
	bb_stats_free(&s);
	free(out);
}

/* 0.22.01, the stress-ng the image carries: same table, the misc rows named as LKP's parse
 * names them (unit words joined by '_'). */
TEST(bitops_of_0_22)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("stress-ng/bitops-0.22.txt");
	CHECK_INT(parse_stressng(out, &s, err, sizeof err), ==, 0);
	CHECK(stat_of(&s, "stress-ng.bitops.pass") == 1);
	CHECK(stat_of(&s, "stress-ng.bitops.ops") == 56688);
	CHECK(stat_of(&s, "stress-ng.bitops.ops_per_sec") == 56590.86);
	CHECK(stat_of(&s, "stress-ng.bitops.abs_mega-ops_per_second") == 669.47);
	CHECK(stat_of(&s, "stress-ng.bitops.zerobyte_mega-ops_per_second.pass") == 1);
	CHECK(!bb_stats_find(&s, "stress-ng.bitops.fail"));
	bb_stats_free(&s);
	free(out);
}

TEST(two_stressors)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("stress-ng/cpu-vm.txt");
	CHECK_INT(parse_stressng(out, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 6);
	CHECK(stat_of(&s, "stress-ng.vm.ops") == 21676);
	CHECK(stat_of(&s, "stress-ng.vm.ops_per_sec") == 10747.88);
	CHECK(stat_of(&s, "stress-ng.cpu.ops_per_sec") == 1050.36);
	bb_stats_free(&s);
	free(out);
}

TEST(log_copied_twice_counts_once)
{
	/* stdout (--log-file copy) and stderr concatenated: the same table twice */
	char *one = test_slurp("stress-ng/cpu.txt");
	size_t len = strlen(one);
	char *twice = malloc(2 * len + 1);
	memcpy(twice, one, len);
	memcpy(twice + len, one, len + 1);
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(parse_stressng(twice, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 3);
	CHECK(stat_of(&s, "stress-ng.cpu.ops") == 3465);
	bb_stats_free(&s);
	free(twice);
	free(one);
}

TEST(metrics_brief)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("stress-ng/cpu-metrics-brief.txt");
	CHECK_INT(parse_stressng(out, &s, err, sizeof err), ==, 0);
	CHECK(stat_of(&s, "stress-ng.cpu.ops") == 2295);
	bb_stats_free(&s);
	free(out);
}

TEST(old_info_prefix)
{
	/* stress-ng before 0.13 printed the table at level info: (the shape LKP's parser reads) */
	const char *out = "stress-ng: info:  [1] dispatching hogs: 4 icmp-flood\n"
	                  "stress-ng: info:  [1] stressor       bogo ops real time  usr time  sys "
	                  "time   bogo ops/s   bogo ops/s\n"
	                  "stress-ng: info:  [1]                           (secs)    (secs)    "
	                  "(secs)   (real time) (usr+sys time)\n"
	                  "stress-ng: info:  [1] icmp-flood   584700000     60.00     10.00    "
	                  "200.00   9745000.00   2784285.71\n"
	                  "stress-ng: info:  [1] for a 60.01s run time:\n";
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(parse_stressng(out, &s, err, sizeof err), ==, 0);
	CHECK(stat_of(&s, "stress-ng.icmp-flood.ops") == 584700000);
	CHECK(stat_of(&s, "stress-ng.icmp-flood.ops_per_sec") == 9745000);
	bb_stats_free(&s);
}

static void parse_err(const char *text, const char *want)
{
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(parse_stressng(text, &s, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, want);
	bb_stats_free(&s);
}

TEST(errors_quote_stressng)
{
	char *out = test_slurp("stress-ng/error-skipped.txt");
	parse_err(out, "stress-ng printed no metrics: stress-ng: info:  [32404] apparmor stressor "
	               "will be skipped, AppArmor is not enabled");
	free(out);
	out = test_slurp("stress-ng/error-bad-option.txt");
	parse_err(out, "stress-ng printed no metrics: stress-ng: unrecognized option '--nosuch'");
	free(out);
	parse_err("", "stress-ng printed no metrics table (empty output)");
	parse_err("stress-ng: info:  [3] dispatching hogs: 1 cpu\n",
	          "stress-ng printed no metrics table (was --metrics given?)");
}

TEST(failed_verification_is_an_error)
{
	char *out = test_slurp("stress-ng/cpu.txt");
	size_t len = strlen(out);
	char *bad = malloc(len + 400);
	strcpy(bad, out);
	strcat(bad, "stress-ng: fail:  [23522] cpu: fft: verification failed\n"
	            "stress-ng: info:  [23521] unsuccessful run completed in 2.01s\n");
	parse_err(bad, "stress-ng reported a failure: stress-ng: fail:  [23522] cpu: fft: "
	               "verification failed");
	free(bad);
	free(out);
}

TEST(zero_ops_is_fail_as_in_lkp)
{
	const char *out =
	    "stress-ng: metrc: [5961] stressor       bogo ops real time  usr time  sys time   "
	    "bogo ops/s     bogo ops/s CPU used per       RSS Max\n"
	    "stress-ng: metrc: [5961]                           (secs)    (secs)    (secs)   "
	    "(real time) (usr+sys time) instance (%)          (KB)\n"
	    "stress-ng: metrc: [5961] uprobe                0     60.00      0.21      0.87        "
	    " "
	    "0.00           0.00         0.01          1792\n"
	    "stress-ng: metrc: [5961] uprobe                 0.00 MB trace data per second "
	    "(harmonic mean of 2 instances)\n";
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(parse_stressng(out, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 2);
	CHECK(stat_of(&s, "stress-ng.uprobe.fail") == 1);
	CHECK(stat_of(&s, "stress-ng.uprobe.MB_trace_data_per_second.fail") == 1);
	CHECK(!bb_stats_find(&s, "stress-ng.uprobe.ops"));
	bb_stats_free(&s);
}
