/* stats_for_run (aggregation over clients, rusage stats) and results.json (lib/results/resjson). */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "results/resjson.h"
#include "stats.h"

static double stat_of(const struct bb_stats *s, const char *name)
{
	const struct bb_stat *st = bb_stats_find(s, name);
	if (!st)
		bb_test_fail(__FILE__, __LINE__, "no stat %s", name);
	return st->value;
}

TEST(netperf_two_clients_mean_and_sum)
{
	/* two clients run at once against one netserver */
	const char *outs[2] = {test_slurp("netperf/tcp_stream-client0.txt"),
	                       test_slurp("netperf/tcp_stream-client1.txt")};
	struct rusage ru[2];
	memset(ru, 0, sizeof ru);
	ru[0].ru_utime.tv_sec = 1, ru[0].ru_utime.tv_usec = 500000;
	ru[1].ru_utime.tv_sec = 0, ru[1].ru_utime.tv_usec = 250000;
	ru[0].ru_stime.tv_sec = 2, ru[1].ru_stime.tv_sec = 1;
	ru[0].ru_nvcsw = 10, ru[1].ru_nvcsw = 5;
	ru[0].ru_nivcsw = 100, ru[1].ru_nivcsw = 7;
	ru[0].ru_maxrss = 2000, ru[1].ru_maxrss = 3000;
	ru[0].ru_minflt = 11, ru[1].ru_minflt = 12;
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(stats_for_run("netperf", outs, ru, 2, 3.5, &s, err, sizeof err), ==, 0);
	CHECK_CLOSE(stat_of(&s, "netperf.Throughput_Mbps"), (6916.85 + 6316.08) / 2);
	CHECK_CLOSE(stat_of(&s, "netperf.Throughput_total_Mbps"), 6916.85 + 6316.08);
	CHECK_STR(bb_stats_find(&s, "netperf.Throughput_Mbps")->unit, "Mbps");
	CHECK_CLOSE(stat_of(&s, "netperf.local_cpu_util_percent"), 99.83);
	CHECK_CLOSE(stat_of(&s, "netperf.local_service_demand_us_per_KB"), (2.365 + 2.590) / 2);
	CHECK_CLOSE(stat_of(&s, "netperf.remote_service_demand_us_per_KB"), (2.365 + 2.590) / 2);
	CHECK_CLOSE(stat_of(&s, "netperf.time.user_time"), 1.75);
	CHECK_CLOSE(stat_of(&s, "netperf.time.system_time"), 3.0);
	CHECK_CLOSE(stat_of(&s, "netperf.time.elapsed_time"), 3.5);
	CHECK_CLOSE(stat_of(&s, "netperf.time.percent_of_cpu_this_job_got"), 100 * 4.75 / 3.5);
	CHECK_CLOSE(stat_of(&s, "netperf.time.voluntary_context_switches"), 15);
	CHECK_CLOSE(stat_of(&s, "netperf.time.involuntary_context_switches"), 107);
	CHECK_CLOSE(stat_of(&s, "netperf.time.maximum_resident_set_size"), 3000);
	CHECK_CLOSE(stat_of(&s, "time.maximum_resident_set_size"), 3000); /* LKP: both */
	CHECK_CLOSE(stat_of(&s, "time.user_time"), 1.75);
	CHECK(bb_stats_find(&s, "netperf.time.page_size"));
	CHECK(!bb_stats_find(&s, "netperf.time.swaps")); /* 0: LKP's dump-stat drops it */
	/* LKP's names: no receiver line in a TCP stream, Both = Throughput */
	CHECK(!bb_stats_find(&s, "netperf.ThroughputRecv_Mbps"));
	CHECK_CLOSE(stat_of(&s, "netperf.ThroughputBoth_Mbps"), (6916.85 + 6316.08) / 2);
	CHECK_CLOSE(stat_of(&s, "netperf.ThroughputBoth_total_Mbps"), 6916.85 + 6316.08);
	/* workload: messages = total Mbit/s x elapsed x 10^6 / 8 / message size */
	CHECK(stat_of(&s, "netperf.workload") > 0);
	CHECK_CLOSE(stat_of(&s, "netperf.time.minor_page_faults"), 23);
	CHECK(!bb_stats_find(&s, "netperf.Throughput_tps"));
	bb_stats_free(&s);
	free((char *)outs[0]);
	free((char *)outs[1]);
}

TEST(netperf_rr_names)
{
	const char *outs[1] = {test_slurp("netperf/tcp_rr-cC.txt")};
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(stats_for_run("netperf", outs, NULL, 1, 2, &s, err, sizeof err), ==, 0);
	CHECK_CLOSE(stat_of(&s, "netperf.Throughput_tps"), 33420.75);
	CHECK_CLOSE(stat_of(&s, "netperf.Throughput_total_tps"), 33420.75);
	CHECK_CLOSE(stat_of(&s, "netperf.local_service_demand_us_per_Tr"), 59.245);
	CHECK(!bb_stats_find(&s, "netperf.time.user_time")); /* no rusages given */
	bb_stats_free(&s);
	free((char *)outs[0]);
}

TEST(netperf_unmeasured_side_left_out)
{
	const char *outs[1] = {test_slurp("netperf/tcp_stream-c.txt")};
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(stats_for_run("netperf", outs, NULL, 1, 2, &s, err, sizeof err), ==, 0);
	CHECK_CLOSE(stat_of(&s, "netperf.local_cpu_util_percent"), 100);
	CHECK(!bb_stats_find(&s, "netperf.remote_cpu_util_percent"));
	CHECK(!bb_stats_find(&s, "netperf.remote_service_demand_us_per_KB"));
	bb_stats_free(&s);
	free((char *)outs[0]);
}

TEST(netperf_one_bad_client_fails_the_run)
{
	const char *outs[2] = {test_slurp("netperf/tcp_stream-client0.txt"),
	                       test_slurp("netperf/error-noserver.txt")};
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(stats_for_run("netperf", outs, NULL, 2, 2, &s, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, "client 1: netperf: establish control: are you sure there is a netserver "
	               "listening on 127.0.0.1 at port 1?");
	bb_stats_free(&s);
	const char *mixed[2] = {outs[0], test_slurp("netperf/tcp_rr.txt")};
	CHECK_INT(stats_for_run("netperf", mixed, NULL, 2, 2, &s, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, "client 1: mixes RR and stream results");
	bb_stats_free(&s);
	free((char *)outs[0]);
	free((char *)outs[1]);
	free((char *)mixed[1]);
}

TEST(stressng_clients_summed)
{
	char *one = test_slurp("stress-ng/cpu.txt");
	const char *outs[2] = {one, one};
	struct rusage ru[2];
	memset(ru, 0, sizeof ru);
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(stats_for_run("stress-ng", outs, ru, 2, 2.01, &s, err, sizeof err), ==, 0);
	CHECK_CLOSE(stat_of(&s, "stress-ng.cpu.ops"), 2 * 3465);
	CHECK_CLOSE(stat_of(&s, "stress-ng.cpu.ops_per_sec"), 2 * 1731.15);
	CHECK_CLOSE(stat_of(&s, "stress-ng.time.elapsed_time"), 2.01);
	CHECK(bb_stats_find(&s, "stress-ng.time.maximum_resident_set_size"));
	CHECK_CLOSE(stat_of(&s, "stress-ng.cpu.pass"), 1); /* not summed over clients */
	bb_stats_free(&s);
	free(one);
}

TEST(unknown_suite)
{
	const char *outs[1] = {"x"};
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(stats_for_run("fio", outs, NULL, 1, 1, &s, err, sizeof err), ==, -ENOTSUP);
	CHECK_STR(err, "unknown suite 'fio'");
}

TEST(stat_name_too_long)
{
	struct bb_stats s = {0};
	char name[200];
	memset(name, 'a', sizeof name - 1);
	name[sizeof name - 1] = 0;
	CHECK_INT(bb_stats_add(&s, name, 1, ""), ==, -ENAMETOOLONG);
	CHECK_INT(s.n, ==, 0);
}

TEST(resjson_append_iterations)
{
	struct bb_stats it = {0};
	char err[256], *t1 = NULL, *t2 = NULL;
	bb_stats_add(&it, "netperf.Throughput_Mbps", 2353.31, "Mbps");
	bb_stats_add(&it, "netperf.Throughput_total_Mbps", 4706.62, "Mbps");
	CHECK_INT(bb_resjson_append(NULL, &it, &t1, err, sizeof err), ==, 0);
	CHECK_STR(t1, "{\n  \"netperf.Throughput_Mbps\": [\n    2353.31\n  ],\n"
	              "  \"netperf.Throughput_total_Mbps\": [\n    4706.62\n  ]\n}\n");
	it.v[0].value = 2371.58;
	it.v[1].value = 0.1 + 0.2; /* needs 17 digits to read back */
	CHECK_INT(bb_resjson_append(t1, &it, &t2, err, sizeof err), ==, 0);
	struct bb_resjson r;
	CHECK_INT(bb_resjson_parse(t2, &r, err, sizeof err), ==, 0);
	const struct bb_resjson_series *tp = bb_resjson_get(&r, "netperf.Throughput_Mbps");
	CHECK(tp && tp->n == 2);
	CHECK(tp->v[0] == 2353.31 && tp->v[1] == 2371.58);
	const struct bb_resjson_series *tot = bb_resjson_get(&r, "netperf.Throughput_total_Mbps");
	CHECK(tot && tot->n == 2 && tot->v[1] == 0.1 + 0.2);
	bb_resjson_free(&r);
	bb_stats_free(&it);
	free(t1);
	free(t2);
}

TEST(resjson_sorted_nan_and_empty)
{
	struct bb_stats it = {0};
	bb_stats_add(&it, "z.b", NAN, "");
	bb_stats_add(&it, "a.\"q\"", 1e20, "");
	struct bb_resjson r = {0};
	CHECK_INT(bb_resjson_add(&r, &it), ==, 0);
	char *t = bb_resjson_format(&r);
	CHECK_STR(t, "{\n  \"a.\\\"q\\\"\": [\n    1e+20\n  ],\n  \"z.b\": [\n    null\n  ]\n}\n");
	struct bb_resjson back;
	char err[256];
	CHECK_INT(bb_resjson_parse(t, &back, err, sizeof err), ==, 0);
	CHECK(isnan(bb_resjson_get(&back, "z.b")->v[0]));
	CHECK(bb_resjson_get(&back, "a.\"q\"")->v[0] == 1e20);
	bb_resjson_free(&back);
	bb_resjson_free(&r);
	free(t);
	struct bb_resjson e = {0};
	t = bb_resjson_format(&e);
	CHECK_STR(t, "{}\n");
	free(t);
	CHECK_INT(bb_resjson_parse("  {  }  ", &e, err, sizeof err), ==, 0);
	CHECK_INT(e.n, ==, 0);
	bb_stats_free(&it);
}

static void bad_json(const char *text, const char *want)
{
	struct bb_resjson r;
	char err[256];
	CHECK_INT(bb_resjson_parse(text, &r, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, want);
}

TEST(resjson_errors)
{
	bad_json("[1]", "line 1 col 1: expected '{'");
	bad_json("{\"a\": 1}", "line 1 col 7: expected '[' (a stat is an array of numbers)");
	bad_json("{\"a\": [1,]}", "line 1 col 10: expected a number");
	bad_json("{\"a\": [1]\n,\"a\": [2]}", "line 2 col 5: duplicate stat name");
	bad_json("{\"a\": [1] \"b\"", "line 1 col 11: expected ',' or '}'");
	bad_json("{\"a\": [1]} x", "line 1 col 12: text after the object");
	bad_json("{\"a", "line 1 col 4: unterminated string");
}

TEST(netperf_udp_stream_lkp_names)
{
	/* two UDP_STREAM clients: Throughput from the sender lines, ThroughputRecv from the
	 * receiver lines, Both their sum; workload in messages */
	const char *outs[2] = {test_slurp("netperf/udp_stream-cC.txt"),
	                       test_slurp("netperf/udp_stream-P0.txt")};
	struct bb_stats s = {0};
	char err[256];
	CHECK_INT(stats_for_run("netperf", outs, NULL, 2, 2, &s, err, sizeof err), ==, 0);
	CHECK_CLOSE(stat_of(&s, "netperf.Throughput_Mbps"), (4771.0 + 785.29) / 2);
	CHECK_CLOSE(stat_of(&s, "netperf.ThroughputRecv_Mbps"), (1797.4 + 364.18) / 2);
	CHECK_CLOSE(stat_of(&s, "netperf.ThroughputBoth_Mbps"),
	            (4771.0 + 785.29) / 2 + (1797.4 + 364.18) / 2);
	CHECK_CLOSE(stat_of(&s, "netperf.Throughput_total_Mbps"), 4771.0 + 785.29);
	CHECK_CLOSE(stat_of(&s, "netperf.ThroughputRecv_total_Mbps"), 1797.4 + 364.18);
	CHECK_CLOSE(stat_of(&s, "netperf.ThroughputBoth_total_Mbps"),
	            4771.0 + 785.29 + 1797.4 + 364.18);
	/* LKP takes the time and message size of the last data line: 2.00 s, 1024 bytes */
	CHECK_CLOSE(stat_of(&s, "netperf.workload"),
	            (4771.0 + 785.29 + 1797.4 + 364.18) * 2.00 * 1e6 / 8 / 1024);
	bb_stats_free(&s);
}
