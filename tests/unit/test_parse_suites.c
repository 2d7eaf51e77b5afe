/* The suites' parsers in the init on output captured from benchboot's own images
 * (tests/fixtures/hackbench/README, tests/fixtures/perf-bench/README,
 * tests/fixtures/sysbench/README) -> LKP's stats. */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "stat_check.h"
#include "parse_hackbench.h"
#include "parse_perf_bench.h"
#include "parse_sysbench.h"
#include "stats.h"

/* one hackbench run: KB = 80 tasks x 2000 messages x 100 bytes >> 10 = 15625, over 18.617 s */
TEST(hackbench_once)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("hackbench/process-pipe-once.txt");
	const char *outs[1] = {out};
	CHECK_INT(parse_hackbench_stats(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 4);
	CHECK(near(stat_of(&s, "hackbench.throughput"), 15625 / 18.617));
	CHECK(near(stat_of(&s, "hackbench.throughput_best"), 15625 / 18.617));
	CHECK(stat_of(&s, "hackbench.throughput_avg") == 839.29); /* rounded to 2 places */
	CHECK(near(stat_of(&s, "hackbench.throughput_worst"), 15625 / 18.617));
	CHECK_STR(s.v[0].unit, "KB/s");
	bb_stats_free(&s);
	free(out);
}

/* "Running in threaded mode": the same line for LKP's regex */
TEST(hackbench_threads)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("hackbench/threads-pipe-once.txt");
	const char *outs[1] = {out};
	CHECK_INT(parse_hackbench_stats(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK(near(stat_of(&s, "hackbench.throughput"), 15625 / 11.148));
	bb_stats_free(&s);
	free(out);
}

/* seven runs in one iteration (runtime 4 s): KB = 40 x 100 x 100 >> 10 = 390; best 0.553 s,
 * mean 0.677 s, worst 0.799 s */
TEST(hackbench_timed_best_avg_worst)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("hackbench/process-socket-timed.txt");
	const char *outs[1] = {out};
	CHECK_INT(parse_hackbench_stats(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK(near(stat_of(&s, "hackbench.throughput"), 390 / 0.553));
	CHECK(near(stat_of(&s, "hackbench.throughput_best"), 390 / 0.553));
	CHECK(stat_of(&s, "hackbench.throughput_avg") == 576.07);
	CHECK(near(stat_of(&s, "hackbench.throughput_worst"), 390 / 0.799));
	bb_stats_free(&s);
	free(out);
}

TEST(hackbench_without_time_says_what_it_printed)
{
	struct bb_stats s = {0};
	char err[256];
	const char *outs[1] = {"Running in process mode with 2 groups using 40 file descriptors "
	                       "each (== 80 tasks)\nsocketpair: Too many open files\n"};
	CHECK_INT(parse_hackbench_stats(outs, 1, &s, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, "hackbench: no \"Time:\" line in its output (it said: Running in process "
	               "mode with 2 groups using 40 file descriptors each (== 80 tasks))");
	bb_stats_free(&s);
}

TEST(perf_bench_sched_pipe)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("perf-bench/sched-pipe-threads.txt");
	const char *outs[1] = {out};
	CHECK_INT(parse_perf_bench_sched_pipe(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 1);
	CHECK(stat_of(&s, "perf-bench-sched-pipe.ops_per_sec") == 10109);
	bb_stats_free(&s);
	free(out);
}

TEST(perf_bench_sched_messaging)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("perf-bench/sched-messaging-pipe.txt");
	const char *outs[1] = {out};
	CHECK_INT(parse_perf_bench_sched_messaging(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK(stat_of(&s, "perf-bench-sched-messaging.total_time_sec") == 0.536);
	bb_stats_free(&s);
	free(out);
}

TEST(perf_bench_error_quotes_perf)
{
	struct bb_stats s = {0};
	char err[256];
	const char *outs[1] = {"\nperf: 'bench' is not a perf-command. See 'perf --help'.\n"};
	CHECK_INT(parse_perf_bench_sched_pipe(outs, 1, &s, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, "perf bench sched pipe: no \" ops/sec\" line in its output (it said: perf: "
	               "'bench' is not a perf-command. See 'perf --help'.)");
	bb_stats_free(&s);
}

/* perf bench futex: LKP's parse, each test's summary line (the [Run N] lines are not) */
static void futex_case(const char *file, const char *stat, double v, double sd)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp(file);
	const char *outs[1] = {out};
	CHECK_INT(parse_perf_bench_futex(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 2);
	CHECK(stat_of(&s, stat) == v);
	CHECK(stat_of(&s, "perf-bench-futex.stddev%") == sd);
	bb_stats_free(&s);
	free(out);
}

TEST(perf_bench_futex)
{
	futex_case("perf-bench/futex-hash-shared.txt", "perf-bench-futex.ops/s", 515072, 0);
	futex_case("perf-bench/futex-wake.txt", "perf-bench-futex.wokeup_time_ms", 0.0817, 18.90);
	futex_case("perf-bench/futex-requeue.txt", "perf-bench-futex.requeued_time_ms", 0.0491,
	           34.53);
	futex_case("perf-bench/futex-wake-parallel.txt",
	           "perf-bench-futex.avg_per_thread_latency_ms", 1.0849, 60.58);
	struct bb_stats s = {0};
	char err[256];
	const char *outs[1] = {
	    "# Running 'futex/hash' benchmark:\nperf: futex: Invalid argument\n"};
	CHECK_INT(parse_perf_bench_futex(outs, 1, &s, err, sizeof err), ==, -EINVAL);
	CHECK(strstr(err, "it said: # Running 'futex/hash' benchmark:") != NULL);
}

/* sysbench cpu, one thread for 3 s: LKP's stats of its lines; sysbench 1.0's total time stands
 * for the time elapsed of LKP's sysbench, events / total time for its events/s */
TEST(sysbench_cpu)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("sysbench/cpu.txt");
	const char *outs[1] = {out};
	CHECK_INT(parse_sysbench_cpu(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 11);
	CHECK(stat_of(&s, "sysbench-cpu.workload") == 693);
	CHECK(near(stat_of(&s, "sysbench-cpu.throughput_events/s"), 693 / 3.0056));
	CHECK(stat_of(&s, "sysbench-cpu.throughput_time") == 3.0056);
	CHECK(stat_of(&s, "sysbench-cpu.latency_ms.min") == 3.98);
	CHECK(stat_of(&s, "sysbench-cpu.latency_ms.avg") == 4.32);
	CHECK(stat_of(&s, "sysbench-cpu.latency_ms.max") == 8.45);
	CHECK(stat_of(&s, "sysbench-cpu.latency_ms.95th") == 4.65);
	CHECK(stat_of(&s, "sysbench-cpu.events/thread.avg") == 693);
	CHECK(stat_of(&s, "sysbench-cpu.events/thread.stddev") == 0);
	CHECK(stat_of(&s, "sysbench-cpu.runtime/thread.avg") == 2.9928);
	CHECK(stat_of(&s, "sysbench-cpu.runtime/thread.stddev") == 0);
	CHECK(bb_stats_find(&s, "sysbench-cpu.throughput_ops/s") == NULL);
	CHECK_STR(bb_stats_find(&s, "sysbench-cpu.latency_ms.avg")->unit, "ms");
	bb_stats_free(&s);
	free(out);
}

/* two sysbench memory of one iteration (nr_processes: 2): as LKP's parse reduces them, the
 * throughputs and the events summed, the least min, the greatest max, the others' mean */
TEST(sysbench_memory_two_processes)
{
	struct bb_stats s = {0};
	char err[256], *o0 = test_slurp("sysbench/memory-read-rnd.0.txt"),
	               *o1 = test_slurp("sysbench/memory-read-rnd.1.txt");
	const char *outs[2] = {o0, o1};
	CHECK_INT(parse_sysbench_memory(outs, 2, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 13);
	CHECK(near(stat_of(&s, "sysbench-memory.throughput_ops/s"), 40280.10 + 38608.90));
	CHECK(near(stat_of(&s, "sysbench-memory.throughput_MB/s"), 39.34 + 37.70));
	CHECK_STR(bb_stats_find(&s, "sysbench-memory.throughput_MB/s")->unit, "MiB/s");
	CHECK(stat_of(&s, "sysbench-memory.workload") == 81568 + 78690);
	CHECK(near(stat_of(&s, "sysbench-memory.throughput_events/s"),
	           (81568 / 2.0079 + 78690 / 2.0075) / 2));
	CHECK(near(stat_of(&s, "sysbench-memory.throughput_time"), 2.0077));
	CHECK(stat_of(&s, "sysbench-memory.latency_ms.min") == 0);
	CHECK(stat_of(&s, "sysbench-memory.latency_ms.max") == 21.37);
	CHECK(near(stat_of(&s, "sysbench-memory.latency_ms.avg"), 0.02));
	CHECK(near(stat_of(&s, "sysbench-memory.events/thread.avg"), (81568 + 78690) / 2.0));
	CHECK(near(stat_of(&s, "sysbench-memory.runtime/thread.avg"), (1.7392 + 1.6415) / 2));
	bb_stats_free(&s);
	free(o0);
	free(o1);
}

TEST(sysbench_threads_and_mutex)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("sysbench/threads.txt");
	const char *outs[1] = {out};
	CHECK_INT(parse_sysbench_threads(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK(stat_of(&s, "sysbench-threads.workload") == 1841);
	CHECK(near(stat_of(&s, "sysbench-threads.throughput_events/s"), 1841 / 3.0027));
	CHECK(stat_of(&s, "sysbench-threads.latency_ms.95th") == 2.18);
	bb_stats_free(&s);
	free(out);
	/* one event per thread: its time is the thread's */
	out = test_slurp("sysbench/mutex.txt");
	outs[0] = out;
	CHECK_INT(parse_sysbench_mutex(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK(stat_of(&s, "sysbench-mutex.workload") == 1);
	CHECK(stat_of(&s, "sysbench-mutex.runtime/thread.avg") == 0.1555);
	CHECK(stat_of(&s, "sysbench-mutex.latency_ms.avg") == 155.47);
	bb_stats_free(&s);
	free(out);
}

/* the sysbench LKP builds from git prints its own events/s and time elapsed: taken as they are */
TEST(sysbench_throughput_lines_of_lkps_sysbench)
{
	struct bb_stats s = {0};
	char err[256];
	const char *outs[1] = {"Throughput:\n    events/s (eps):                      114.0161\n"
	                       "    time elapsed:                        87.7069s\n"
	                       "    total number of events:              10000\n"};
	CHECK_INT(parse_sysbench_cpu(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK(stat_of(&s, "sysbench-cpu.throughput_events/s") == 114.0161);
	CHECK(stat_of(&s, "sysbench-cpu.throughput_time") == 87.7069);
	CHECK(stat_of(&s, "sysbench-cpu.workload") == 10000);
	bb_stats_free(&s);
}

TEST(sysbench_error_quotes_its_fatal_line)
{
	struct bb_stats s = {0};
	char err[256];
	const char *outs[1] = {"sysbench 1.0.20 (using system LuaJIT 2.1.1761786044)\n\n"
	                       "FATAL: Invalid value for memory-block-size: 4\n"};
	CHECK_INT(parse_sysbench_memory(outs, 1, &s, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, "sysbench-memory: no \"total number of events:\" line in the output of "
	               "client 0 (it said: FATAL: Invalid value for memory-block-size: 4)");
	CHECK_INT(s.n, ==, 0);
	bb_stats_free(&s);
}

/* the suites' table in stats.c reaches each parser by the suite's name */
TEST(stats_for_run_knows_the_suites)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("hackbench/process-pipe-once.txt");
	const char *outs[1] = {out};
	CHECK_INT(stats_for_run("hackbench", outs, NULL, 1, 20, &s, err, sizeof err), ==, 0);
	CHECK(bb_stats_find(&s, "hackbench.throughput") != NULL);
	bb_stats_free(&s);
	free(out);
}

TEST(stats_for_run_knows_the_sysbench_suites)
{
	const char *suites[] = {"sysbench-cpu", "sysbench-memory", "sysbench-threads",
	                        "sysbench-mutex"};
	char err[256], *out = test_slurp("sysbench/threads.txt"), name[64];
	const char *outs[1] = {out};
	for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
		struct bb_stats s = {0};
		CHECK_INT(stats_for_run(suites[i], outs, NULL, 1, 3, &s, err, sizeof err), ==, 0);
		snprintf(name, sizeof name, "%s.workload", suites[i]);
		CHECK(bb_stats_find(&s, name) != NULL);
		bb_stats_free(&s);
	}
	free(out);
}
