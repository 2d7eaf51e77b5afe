/* LKP's key performance indicators (lib/host/compare/kpi.h): the direction of the first of
 * LKP's patterns that matches the whole name, the performance file's before the latency
 * file's, and the verdict of a change, as lib/stats.rb's kpi_stat_direction gives them. */
#include "harness.h"
#include "host/compare/kpi.h"

TEST(kpi_direction_of_each_suites_stats)
{
	/* higher is better */
	CHECK_CLOSE(bb_kpi_direction("netperf.Throughput_Mbps"), 1);
	CHECK_CLOSE(bb_kpi_direction("fsmark.files_per_sec"), 1);
	CHECK_CLOSE(bb_kpi_direction("fio.write_iops"), 1);
	CHECK_CLOSE(bb_kpi_direction("fio.read_bw_MBps"), 1);
	CHECK_CLOSE(bb_kpi_direction("iperf.tcp.sender.bps"), 1);
	CHECK_CLOSE(bb_kpi_direction("stress-ng.cpu.ops_per_sec"), 1);
	CHECK_CLOSE(bb_kpi_direction("sysbench-cpu.throughput_events/s"), 1);
	CHECK_CLOSE(bb_kpi_direction("perf-bench-futex.ops/s"), 1);
	CHECK_CLOSE(bb_kpi_direction("perf-bench-sched-pipe.ops_per_sec"), 1);
	/* hackbench is in none by its name: LKP's first pattern, .+\.throughput, takes it */
	CHECK_CLOSE(bb_kpi_direction("hackbench.throughput"), 1);
	/* lower is better: latencies; fsmark's overhead */
	CHECK_CLOSE(bb_kpi_direction("fsmark.app_overhead"), -1);
	CHECK_CLOSE(bb_kpi_direction("perf-bench-futex.wokeup_time_ms"), -1);
	/* the latency file's weight */
	CHECK_CLOSE(bb_kpi_direction("perf-bench-futex.avg_per_thread_latency_ms"), -0.1);
}

TEST(kpi_whole_name_only)
{
	/* anchored as LKP's /^#{k}$/: a longer name, a prefix or a monitor's stat is no KPI */
	CHECK_CLOSE(bb_kpi_direction("netperf.Throughput_Mbps_x"), 0);
	CHECK_CLOSE(bb_kpi_direction("netperf.Throughput"), 0);
	CHECK_CLOSE(bb_kpi_direction("netperf.time.elapsed_time"), 0);
	CHECK_CLOSE(bb_kpi_direction("proc-vmstat.nr_free_pages"), 0);
	CHECK_CLOSE(bb_kpi_direction("perf-profile.self.cpu-clock.memcpy"), 0);
	CHECK_CLOSE(bb_kpi_direction(""), 0);
	/* Ruby's escapes of characters that are not special ("\-", "\/") are the characters */
	CHECK_CLOSE(bb_kpi_direction("sysbench-x.throughput_MB/s"), 1);
	CHECK_CLOSE(bb_kpi_direction("sysbench.throughput_MB/s"), 0);
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
