/* LKP's key performance indicators (lib/host/compare/kpi.h): the direction of the first of
 * LKP's patterns that matches the whole name, the performance file's before the latency
 * file's, and the verdict of a change, as lib/stats.rb's kpi_stat_direction gives them. */
#include "harness.h"
#include "host/compare/kpi.h"

/* Stats and LKP's direction of each (0: no KPI). */
static const struct {
	const char *stat;
	double direction;
} cases[] = {
    /* higher is better */
    {"netperf.Throughput_Mbps", 1},
    {"fsmark.files_per_sec", 1},
    {"fio.write_iops", 1},
    {"fio.read_bw_MBps", 1},
    {"iperf.tcp.sender.bps", 1},
    {"stress-ng.cpu.ops_per_sec", 1},
    {"sysbench-cpu.throughput_events/s", 1},
    {"perf-bench-futex.ops/s", 1},
    {"perf-bench-sched-pipe.ops_per_sec", 1},
    /* hackbench is in none by its name: LKP's first pattern, .+\.throughput, takes it */
    {"hackbench.throughput", 1},
    /* lower is better: latencies; fsmark's overhead; the latency file's weight */
    {"fsmark.app_overhead", -1},
    {"perf-bench-futex.wokeup_time_ms", -1},
    {"perf-bench-futex.avg_per_thread_latency_ms", -0.1},
    /* anchored as LKP's /^#{k}$/: a longer name, a prefix or a monitor's stat is no KPI */
    {"netperf.Throughput_Mbps_x", 0},
    {"netperf.Throughput", 0},
    {"netperf.time.elapsed_time", 0},
    {"proc-vmstat.nr_free_pages", 0},
    {"perf-profile.self.cpu-clock.memcpy", 0},
    {"", 0},
    /* Ruby's escapes of characters that are not special ("\-", "\/") are the characters */
    {"sysbench-x.throughput_MB/s", 1},
    {"sysbench.throughput_MB/s", 0},
};

TEST(kpi_direction)
{
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		double d = bb_kpi_direction(cases[i].stat);
		if (fabs(d - cases[i].direction) > 1e-12)
			bb_test_fail(__FILE__, __LINE__, "%s: direction %g, want %g", cases[i].stat,
			             d, cases[i].direction);
	}
}

TEST(kpi_verdict)
{
	CHECK_STR(bb_kpi_verdict(1, -5.2), "regression");
	CHECK_STR(bb_kpi_verdict(1, 5.2), "improvement");
	CHECK_STR(bb_kpi_verdict(-1, 5.2), "regression");
	CHECK_STR(bb_kpi_verdict(-0.1, -5.2), "improvement");
	/* LKP: not negative is an improvement */
	CHECK_STR(bb_kpi_verdict(1, 0), "improvement");
	CHECK(!bb_kpi_verdict(0, -5.2));
	CHECK_STR(bb_kpi_file(BB_KPI_PERF), "etc/index-perf-all.yaml");
	CHECK_STR(bb_kpi_file(BB_KPI_LATENCY), "etc/index-latency-all.yaml");
}

TEST(kpi_table_is_lkps)
{
	/* generated from LKP's two files: over 200 KPIs, the performance file's first */
	CHECK_INT(bb_lkp_nkpis, >, 200);
	CHECK_INT(bb_lkp_kpis[0].kind, ==, BB_KPI_PERF);
	CHECK_INT(bb_lkp_kpis[bb_lkp_nkpis - 1].kind, ==, BB_KPI_LATENCY);
	CHECK_INT(strlen(bb_lkp_kpis_commit), ==, 12);
}
