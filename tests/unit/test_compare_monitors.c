/*
 * compare's LKP rules for monitor stats (host/compare/stat_rules.h: perf metrics, minimum
 * sizes, hidden stats, absolute changes, sort keys), the interval of an absolute change, and
 * the folded call stacks of the flame graph (host/compare/flamegraph.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "host/compare/flamegraph.h"
#include "host/compare/stat_rules.h"
#include "host/compare/statistics.h"

TEST(monitor_stats_and_perf_metrics)
{
	CHECK(bb_stat_is_monitor("perf-profile.self.cpu-clock.memcpy"));
	CHECK(bb_stat_is_monitor("perf-stat.ps.context-switches"));
	CHECK(bb_stat_is_monitor("mpstat.cpu.all.sys%"));
	CHECK(!bb_stat_is_monitor("netperf.Throughput_Mbps"));
	CHECK(!bb_stat_is_monitor("stress-ng.icmp-flood.ops_per_sec"));
	/* etc/perf-metrics-prefixes and -patterns */
	CHECK(bb_stat_perf_metric("perf-stat.i.task-clock"));
	CHECK(bb_stat_perf_metric("vmstat.cpu.sy"));
	CHECK(bb_stat_perf_metric("netperf.time.elapsed_time"));
	CHECK(bb_stat_perf_metric(
	    "perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath"));
	CHECK(!bb_stat_perf_metric("perf-profile.children.cpu-clock.sctp_sendmsg"));
	CHECK(!bb_stat_perf_metric("mpstat.cpu.all.sys%"));
	CHECK(!bb_stat_perf_metric("cpuidle..time")); /* "time" with nothing after */
	CHECK_NEAR(bb_stat_threshold("perf-stat.ps.cpu-migrations"), 1, 0);
	CHECK_NEAR(bb_stat_threshold("sched_debug.cpu.nr_switches.avg"), 5, 0);
}

TEST(lkp_minimum_sizes)
{
	/* perf-profile.*: 1 (an integer: delta >= 0.5 too) */
	CHECK(!bb_stat_reasonable_change("perf-profile.self.cpu-clock.memcpy", 0.4, 5));
	CHECK(!bb_stat_reasonable_change("perf-profile.self.cpu-clock.memcpy", 0.6, 0.9));
	CHECK(bb_stat_reasonable_change("perf-profile.self.cpu-clock.memcpy", 0.6, 1));
	/* the first pattern decides: native_queued_spin_lock_slowpath's 2.00 never applies */
	CHECK(bb_stat_reasonable_change(
	    "perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath", 0.6, 1.5));
	/* slabinfo: delta > 100; interrupts.*: 100 (the yaml before the 10000 of the code) */
	CHECK(!bb_stat_reasonable_change("slabinfo.kmalloc-64.active_objs", 100, 1e6));
	CHECK(bb_stat_reasonable_change("slabinfo.kmalloc-64.active_objs", 101, 200));
	CHECK(bb_stat_reasonable_change("interrupts.LOC:Local_timer_interrupts", 50, 100));
	CHECK(!bb_stat_reasonable_change("softirqs.NET_RX", 5000, 10000));
	CHECK(!bb_stat_reasonable_change("meminfo.Memused", 500, 1000));
	CHECK(!bb_stat_reasonable_change("proc-vmstat.nr_dirtied", 60, 99));
	/* a test's *.time.* stats too, as in LKP */
	CHECK(!bb_stat_reasonable_change("netperf.time.voluntary_context_switches", 400, 900));
	CHECK(bb_stat_reasonable_change("netperf.Throughput_Mbps", 0.1, 1));
	CHECK(bb_stat_reasonable_change("perf-stat.ps.cpu-migrations", 0.1, 1));
}

TEST(hidden_absolute_and_sort_keys)
{
	CHECK(bb_stat_hidden("interrupts.CAL:Function_call_interrupts"));
	CHECK(bb_stat_hidden("softirqs.NET_RX"));
	CHECK(bb_stat_hidden("slabinfo.kmalloc-64.active_objs"));
	CHECK(!bb_stat_hidden("meminfo.Memused")); /* denied, then allowed again */
	CHECK(!bb_stat_hidden("perf-profile.self.cpu-clock.memcpy"));
	CHECK(!bb_stat_hidden("netperf.Throughput_Mbps"));
	CHECK(bb_stat_absolute_change("perf-profile.self.cpu-clock.memcpy"));
	CHECK(bb_stat_absolute_change("mpstat.cpu.all.sys%"));
	CHECK(!bb_stat_absolute_change("perf-stat.overall.branch-miss-rate"));
	char k[128];
	CHECK_STR(bb_stat_sort_key("perf-profile.calltrace.cpu-clock.a.b", k, sizeof k),
	          "perf-profile.calltrace");
	CHECK_STR(bb_stat_sort_key("vmstat.system.cs", k, sizeof k), "vmstat.system.cs");
	CHECK_STR(bb_stat_base("proc-vmstat.pgfree", k, sizeof k), "proc-vmstat");
}

TEST(difference_interval)
{
	/* paired boots: differences 5, 6, 7: mean 6, sd 1, se 1/sqrt(3); t(0.975, 2) = 4.3027 */
	const double a[] = {10, 20, 30}, b[] = {15, 26, 37};
	const size_t ba[] = {0, 1, 2}, bb[] = {0, 1, 2};
	struct bb_interval iv;
	CHECK_INT(bb_diff_interval(a, ba, 3, b, bb, 3, NULL, 0.95, &iv), ==, 0);
	CHECK(iv.absolute && iv.paired && iv.basis == BB_IV_BOOTS);
	CHECK_NEAR(iv.change, 6, 1e-12);
	CHECK_NEAR(iv.hi - iv.change, 4.302653 / sqrt(3), 1e-5);
	CHECK(iv.excludes_zero);
	/* independent boots, equal variances: Welch's df = 4, t(0.975, 4) = 2.7764 */
	const size_t bc[] = {3, 4, 5};
	const double c[] = {12, 22, 32};
	CHECK_INT(bb_diff_interval(a, ba, 3, c, bc, 3, NULL, 0.95, &iv), ==, 0);
	CHECK(!iv.paired);
	CHECK_NEAR(iv.df, 4, 1e-9);
	CHECK_NEAR(iv.hi - iv.change, 2.776445 * sqrt(100.0 / 3 + 100.0 / 3), 1e-4);
	CHECK(!iv.excludes_zero);
	/* a mean of 0 in A: still a difference */
	const double z[] = {0, 0, 0}, d[] = {1, 1.2, 0.8};
	CHECK_INT(bb_diff_interval(z, ba, 3, d, bb, 3, NULL, 0.95, &iv), ==, 0);
	CHECK(iv.bounded && iv.estimated);
	CHECK_NEAR(iv.change, 1, 1e-12);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

TEST(folded_stacks_merged_and_checked)
{
	char dir[] = "/tmp/bbfgXXXXXX", pa[64], pb[64], pc[64], err[512];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(pa, sizeof pa, "%s/a", dir);
	snprintf(pb, sizeof pb, "%s/b", dir);
	snprintf(pc, sizeof pc, "%s/c", dir);
	write_file(pa, "# event: cpu-clock\nmain;f;g 3\nmain;f 1\n\nmain;h 4\n");
	write_file(pb, "# event: cpu-clock\r\nmain;f;g 6\r\n");
	struct bb_flame fg;
	memset(&fg, 0, sizeof fg);
	CHECK_INT(bb_flame_add_file(&fg, 0, pa, err, sizeof err), ==, 0);
	CHECK_INT(bb_flame_add_file(&fg, 1, pb, err, sizeof err), ==, 0);
	CHECK_INT(bb_flame_check(&fg, err, sizeof err), ==, 0);
	CHECK_NEAR(fg.root.count[0], 8, 0);
	CHECK_NEAR(fg.root.count[1], 6, 0);
	CHECK_INT(fg.root.nchild, ==, 1);
	const struct bb_flame_node *m = &fg.root.child[0];
	CHECK_STR(m->name, "main");
	CHECK_INT(m->nchild, ==, 2);
	CHECK_NEAR(m->child[0].count[0], 4, 0); /* f: 3 + 1 */
	CHECK_NEAR(m->child[0].child[0].count[1], 6, 0);
	CHECK_STR(fg.event[1], "cpu-clock");
	/* another event on the same side */
	write_file(pc, "# event: cycles:pp\nmain 1\n");
	CHECK_INT(bb_flame_add_file(&fg, 1, pc, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, ":1: samples of cycles:pp, but ");
	bb_flame_free(&fg);
	/* different events on the two sides */
	memset(&fg, 0, sizeof fg);
	CHECK_INT(bb_flame_add_file(&fg, 0, pa, err, sizeof err), ==, 0);
	CHECK_INT(bb_flame_add_file(&fg, 1, pc, err, sizeof err), ==, 0);
	CHECK_INT(bb_flame_check(&fg, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "A and B sampled different events: A cpu-clock");
	bb_flame_free(&fg);
	/* malformed lines, by file and line */
	const char *bad[] = {"# event: cpu-clock\nmain;f\n", "main;;f 2\n", "main -3\n",
	                     "# event:\nmain 1\n"};
	const char *why[] = {":2: not a folded stack", ":1: an empty frame", ":1: the sample count",
	                     ":1: '# event:' names no event"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		write_file(pc, bad[i]);
		memset(&fg, 0, sizeof fg);
		CHECK_INT(bb_flame_add_file(&fg, 0, pc, err, sizeof err), ==, -EINVAL);
		CHECK_CONTAINS(err, why[i]);
		bb_flame_free(&fg);
	}
	memset(&fg, 0, sizeof fg);
	CHECK_INT(bb_flame_add_file(&fg, 0, "/nonexistent/x.folded", err, sizeof err), ==, -ENOENT);
	bb_flame_free(&fg);
	remove(pa);
	remove(pb);
	remove(pc);
	remove(dir);
}
