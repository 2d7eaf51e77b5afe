/*
 * LKP's /proc monitors (lib/parse/parse_monitor.c): the raw samples of a 2-vCPU TCG boot of this
 * project's image (tests/fixtures/monitors/tcg-2cpu.*, the iteration folder of
 * tests/qemu/job-monitors.sh), parsed into LKP's names and reduced as LKP reduces them; the
 * expected values were worked out by hand from those files. Then dump-stat's rules on small
 * made-up samples.
 */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "parse/parse_monitor.h"
#include "host/compare/statistics.h"
#include "plan/plan.h"

static struct bb_stats stats_of(const char *monitor, const char *raw)
{
	struct bb_stats s = {0};
	char err[256] = "";
	const struct bb_monitor *m = bb_monitor_find(monitor);
	if (!m)
		bb_test_fail(__FILE__, __LINE__, "no monitor %s", monitor);
	if (bb_monitor_stats(m, raw, &s, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "%s: %s", monitor, err);
	return s;
}

static double value(const struct bb_stats *s, const char *name)
{
	const struct bb_stat *st = bb_stats_find(s, name);
	if (!st)
		bb_test_fail(__FILE__, __LINE__, "no stat %s", name);
	return st->value;
}

TEST(proc_vmstat_event_counters_are_deltas_the_rest_means)
{
	struct bb_stats s = stats_of("proc-vmstat", test_slurp("monitors/tcg-2cpu.proc-vmstat"));
	/* pgfree 248765 248784 256358 263461 274869 in the five samples */
	CHECK_CLOSE(value(&s, "proc-vmstat.pgfree"), 274869 - 248765);
	CHECK_CLOSE(value(&s, "proc-vmstat.nr_free_pages"), 232597.6); /* not a counter: mean */
	CHECK(!bb_stats_find(&s, "proc-vmstat.time"));
	CHECK(!bb_stats_find(&s, "proc-vmstat.pswpin")); /* 0 in every sample: dropped */
	bb_stats_free(&s);
}

TEST(meminfo_memused_and_max_used)
{
	struct bb_stats s = stats_of("meminfo", test_slurp("monitors/tcg-2cpu.meminfo"));
	CHECK_CLOSE(value(&s, "meminfo.MemTotal"), 983484);
	CHECK_CLOSE(value(&s, "meminfo.Memused"), 53093.6);
	CHECK_CLOSE(value(&s, "meminfo.max_used_kB"), 53093.6);
	CHECK_CLOSE(value(&s, "meminfo.Memused"),
	            value(&s, "meminfo.MemTotal") - value(&s, "meminfo.MemFree"));
	CHECK(bb_stats_find(&s, "meminfo.Active(anon)"));
	CHECK(!bb_stats_find(&s, "meminfo.HugePages_Total")); /* 0 */
	bb_stats_free(&s);
}

TEST(vmstat_columns_as_procps_first_line_since_boot)
{
	struct bb_stats s = stats_of("vmstat", test_slurp("monitors/tcg-2cpu.vmstat"));
	/* cs: 143 (ctxt * 100 / all jiffies since boot), then the changes 52 143 199 190 */
	CHECK_CLOSE(value(&s, "vmstat.system.cs"), 145.4);
	CHECK_CLOSE(value(&s, "vmstat.system.in"), 297.4); /* 268 267 336 295 321 */
	CHECK_CLOSE(value(&s, "vmstat.cpu.us") + value(&s, "vmstat.cpu.sy") +
	                value(&s, "vmstat.cpu.id"),
	            100);
	CHECK(bb_stats_find(&s, "vmstat.memory.free"));
	CHECK(bb_stats_find(&s, "vmstat.procs.r"));
	CHECK(!bb_stats_find(&s, "vmstat.memory.swpd")); /* no swap */
	bb_stats_free(&s);
}

TEST(interrupts_names_and_deltas)
{
	struct bb_stats s = stats_of("interrupts", test_slurp("monitors/tcg-2cpu.interrupts"));
	/* LOC 1239 1036, then 1914 1491 */
	CHECK_CLOSE(value(&s, "interrupts.LOC:Local_timer_interrupts"), 1914 + 1491 - 1239 - 1036);
	CHECK_CLOSE(value(&s, "interrupts.CPU1.LOC:Local_timer_interrupts"), 1491 - 1036);
	CHECK_CLOSE(value(&s, "interrupts.CAL:Function_call_interrupts"), 408 + 459 - 350 - 258);
	/* a numbered IRQ: its words after the CPU columns joined by '.'; 236 at both ends */
	CHECK_CLOSE(value(&s, "interrupts.0:IO-APIC.2-edge.timer"), 0);
	CHECK(bb_stats_find(&s, "interrupts.CPU1.26:PCI-MSI.32770-edge.virtio0-req.1"));
	CHECK(!bb_stats_find(&s, "interrupts.ERR")); /* 0 */
	bb_stats_free(&s);
}

TEST(softirqs_mean_of_two_snapshots_as_lkp)
{
	struct bb_stats s = stats_of("softirqs", test_slurp("monitors/tcg-2cpu.softirqs"));
	/* NET_RX 0 0 at the start, 1554 637 at the end: LKP's prefix is softirq., a mean */
	CHECK_CLOSE(value(&s, "softirqs.CPU0.NET_RX"), 1554 / 2.0);
	CHECK_CLOSE(value(&s, "softirqs.NET_RX"), (1554 + 637) / 2.0);
	CHECK(!bb_stats_find(&s, "softirqs.HI")); /* 0 */
	bb_stats_free(&s);
}

TEST(uptime_one_read)
{
	struct bb_stats s = stats_of("uptime", test_slurp("monitors/tcg-2cpu.uptime"));
	CHECK_CLOSE(value(&s, "uptime.boot"), 14.37);
	CHECK_CLOSE(value(&s, "uptime.idle"), 7.35);
	CHECK_INT(s.n, ==, 2);
	bb_stats_free(&s);
}

TEST(dump_stat_late_key_padded_zero_dropped_short_last_cut)
{
	/* b appears in the second sample (a 0 before it), z is 0 throughout, c is missing from
	 * the last sample: the last sample goes (dump-stat's "Last record seems incomplete") */
	const char *raw = "time: 1\na 10\nz 0\nc 5\n"
	                  "time: 2\na 20\nb 7\nz 0\nc 6\n"
	                  "time: 3\na 40\nb 9\nz 0\n";
	struct bb_resjson r = {0};
	char err[128];
	CHECK_INT(bb_monitor_parse(bb_monitor_find("proc-vmstat"), raw, &r, err, sizeof err), ==,
	          0);
	const struct bb_resjson_series *b = bb_resjson_get(&r, "proc-vmstat.b");
	CHECK(b && b->n == 2 && b->v[0] == 0 && b->v[1] == 7);
	CHECK(!bb_resjson_get(&r, "proc-vmstat.z"));
	CHECK_INT(bb_resjson_get(&r, "proc-vmstat.a")->n, ==, 2);
	CHECK_INT(bb_resjson_get(&r, "proc-vmstat.c")->n, ==, 2);
	bb_resjson_free(&r);
}

TEST(reduce_single_sample_and_non_numbers)
{
	/* one sample: the value itself, an event counter too (its count since boot) */
	struct bb_stats s = stats_of("proc-vmstat", "time: 1\npgfree 1234\nnr_x abc\n");
	CHECK_CLOSE(value(&s, "proc-vmstat.pgfree"), 1234);
	CHECK(!bb_stats_find(&s, "proc-vmstat.nr_x"));
	bb_stats_free(&s);
	struct bb_resjson r = {0};
	char err[128];
	CHECK_INT(bb_monitor_parse(bb_monitor_find("meminfo"), "garbage\n", &r, err, sizeof err),
	          ==, -EINVAL);
	CHECK_CONTAINS(err, "time:");
	bb_resjson_free(&r);
}

TEST(event_counter_prefixes_and_stat_owner)
{
	CHECK(bb_monitor_event_counter("proc-vmstat.pgalloc_normal"));
	CHECK(bb_monitor_event_counter("proc-vmstat.numa_hit"));
	CHECK(!bb_monitor_event_counter("proc-vmstat.nr_free_pages"));
	CHECK(bb_monitor_event_counter("interrupts.CPU0.LOC:Local_timer_interrupts"));
	CHECK(!bb_monitor_event_counter("softirqs.NET_RX"));
	CHECK(!bb_monitor_event_counter("meminfo.Memused"));
	CHECK(bb_monitor_of_stat("vmstat.system.cs") == bb_monitor_find("vmstat"));
	CHECK(bb_monitor_of_stat("proc-vmstat.pgfree") == bb_monitor_find("proc-vmstat"));
	CHECK(!bb_monitor_of_stat("netperf.Throughput_Mbps"));
	CHECK(!bb_monitor_find("perf-stat"));
}

TEST(plan_monitors_key_and_cmdline)
{
	static const char plan[] = "benchboot-plan 1\n"
	                           "monitors=vmstat proc-vmstat\n"
	                           "[run r1]\n"
	                           "suite=netperf\n"
	                           "runtime=1\n"
	                           "client.arg=/usr/bin/netperf\n";
	struct bb_plan p;
	char err[256], report[512];
	if (bb_plan_parse(plan, strlen(plan), &p, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "plan: %s", err);
	CHECK_INT(p.monitors.n, ==, 2);
	CHECK_STR(p.monitors.v[1], "proc-vmstat");
	/* the command line's list replaces the plan's; empty: none */
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.monitors=meminfo", report, sizeof report), ==, 0);
	CHECK_INT(p.monitors.n, ==, 1);
	CHECK_STR(p.monitors.v[0], "meminfo");
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.monitors=", report, sizeof report), ==, 0);
	CHECK_INT(p.monitors.n, ==, 0);
	bb_plan_free(&p);
	static const char bad[] = "benchboot-plan 1\nmonitors=vmstat turbostat\n[run r1]\n"
	                          "suite=netperf\nruntime=1\nclient.arg=/usr/bin/netperf\n";
	CHECK_INT(bb_plan_parse(bad, strlen(bad), &p, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "monitors: 'turbostat' is not a monitor benchboot runs");
}

TEST(compare_monitor_thresholds_and_minimum_sizes)
{
	/* etc/perf-metrics-prefixes: proc-vmstat and vmstat.system are perf metrics (1%) */
	CHECK_CLOSE(bb_stat_threshold("proc-vmstat.pgfree"), 1);
	CHECK_CLOSE(bb_stat_threshold("vmstat.system.cs"), 1);
	CHECK_CLOSE(bb_stat_threshold("interrupts.CAL:Function_call_interrupts"), 1);
	CHECK_CLOSE(bb_stat_threshold("meminfo.Memused"), 5);
	CHECK_CLOSE(bb_stat_threshold("softirqs.NET_RX"), 5);
	CHECK_CLOSE(bb_stat_threshold("interrupts.LOC:Local_timer_interrupts"), 5);
	struct bb_lkp_verdict v;
	/* +3%, apart: a perf metric, over 1000 */
	double a[] = {100000, 100100, 100200}, b[] = {103000, 103100, 103200};
	CHECK_INT(bb_lkp_verdict("proc-vmstat.pgfree", a, 3, b, 3, &v), ==, 0);
	CHECK(v.changed);
	/* +3% of meminfo: under 5% */
	CHECK_INT(bb_lkp_verdict("meminfo.Memused", a, 3, b, 3, &v), ==, 0);
	CHECK(!v.changed);
	/* +50% but small: proc-vmstat's max > 1000, vmstat.system.cs's 100 (and delta 50) */
	double sa[] = {100, 101, 102}, sb[] = {150, 151, 152};
	CHECK_INT(bb_lkp_verdict("proc-vmstat.pgfree", sa, 3, sb, 3, &v), ==, 0);
	CHECK(!v.changed);
	CHECK_INT(bb_lkp_verdict("vmstat.system.cs", sa, 3, sb, 3, &v), ==, 0);
	CHECK(v.changed);
	double ta[] = {60, 61, 62}, tb[] = {90, 91, 92};
	CHECK_INT(bb_lkp_verdict("vmstat.system.cs", ta, 3, tb, 3, &v), ==, 0);
	CHECK(!v.changed); /* max 91 < 100 */
	/* a test's stat keeps its rule: no minimum size */
	CHECK_INT(bb_lkp_verdict("netperf.Throughput_Mbps", ta, 3, tb, 3, &v), ==, 0);
	CHECK(v.changed);
}
