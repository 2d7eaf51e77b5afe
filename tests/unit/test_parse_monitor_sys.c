/*
 * mpstat, sched_debug, cpuidle and slabinfo (lib/parse/parse_monitor_cpu.c, _sched.c, _slab.c): the
 * raw samples of a 2-vCPU TCG boot of this project's image (tests/fixtures/monitors/tcg-2cpu.*,
 * from the iteration folder of tests/qemu/job-monitors.sh; the sched_debug task table and
 * slabinfo's caches trimmed), parsed into LKP's names and reduced as LKP reduces them, the
 * expected values worked out by hand from those files. Under TCG the kernel has no cpuidle
 * states (tcg-2cpu.cpuidle.status): cpuidle's raw samples here are written by hand in the
 * sampler's format. Then the sampler's status files on a fake root (init/monitor.c).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "harness.h"
#include "init_fake_root.h"
#include "monitor.h"
#include "parse/parse_monitor.h"

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

TEST(mpstat_per_interval_shares_of_proc_stat)
{
	struct bb_stats s = stats_of("mpstat", test_slurp("monitors/tcg-2cpu.mpstat"));
	/* cpu lines: user 13 14 17 19 22, system 230 330 414 507 601, idle 143 241 269 300 331,
	 * softirq 0 0 30 69 104: four intervals of 199 145 165 163 jiffies; sys% 100/199
	 * 84/145 93/165 94/163 rounded to 50.25 57.93 56.36 57.67 (two decimals, as mpstat) */
	CHECK_CLOSE(value(&s, "mpstat.cpu.all.sys%"), (50.25 + 57.93 + 56.36 + 57.67) / 4);
	CHECK_CLOSE(value(&s, "mpstat.cpu.all.usr%"), (0.5 + 2.07 + 1.21 + 1.84) / 4);
	CHECK_CLOSE(value(&s, "mpstat.cpu.all.soft%"), (0 + 20.69 + 23.64 + 21.47) / 4);
	CHECK_CLOSE(value(&s, "mpstat.cpu.all.idle%"), (49.25 + 19.31 + 18.79 + 19.02) / 4);
	/* the busiest record is the third: 100 - 18.79 - 0 */
	CHECK_CLOSE(value(&s, "mpstat.max_utilization_pct"), 100 - 18.79);
	CHECK_CLOSE(value(&s, "mpstat.max_utilization.seconds"), 3);
	/* 0 in every interval: dropped, as dump-stat drops them */
	CHECK(!bb_stats_find(&s, "mpstat.cpu.all.iowait%"));
	CHECK(!bb_stats_find(&s, "mpstat.cpu.all.steal%"));
	CHECK(!bb_stats_find(&s, "mpstat.time"));
	bb_stats_free(&s);
}

TEST(mpstat_series_one_record_per_interval)
{
	struct bb_resjson r = {0};
	char err[256];
	CHECK_INT(bb_monitor_parse(bb_monitor_find("mpstat"),
	                           test_slurp("monitors/tcg-2cpu.mpstat"), &r, err, sizeof err),
	          ==, 0);
	const struct bb_resjson_series *sys = bb_resjson_get(&r, "mpstat.cpu.all.sys%");
	CHECK(sys && sys->n == 4);
	CHECK_CLOSE(sys->v[0], 50.25);
	/* printed once after the last record, the records before it as zeros */
	const struct bb_resjson_series *mu = bb_resjson_get(&r, "mpstat.max_utilization_pct");
	CHECK(mu && mu->n == 4 && mu->v[0] == 0);
	CHECK_CLOSE(mu->v[3], 4 * (100 - 18.79));
	bb_resjson_free(&r);
	/* one sample: no interval, no stats */
	struct bb_stats s = stats_of("mpstat", "time: 1\ncpu  1 0 2 3 0 0 0 0 0 0\n");
	CHECK_INT((int)s.n, ==, 0);
	bb_stats_free(&s);
}

TEST(sched_debug_per_cpu_keys_and_their_statistics)
{
	struct bb_stats s = stats_of("sched_debug", test_slurp("monitors/tcg-2cpu.sched_debug"));
	/* cpu#0 .nr_switches 814, cpu#1 746 */
	CHECK_CLOSE(value(&s, "sched_debug.cpu.nr_switches.0"), 814);
	CHECK_CLOSE(value(&s, "sched_debug.cpu.nr_switches.1"), 746);
	CHECK_CLOSE(value(&s, "sched_debug.cpu.nr_switches.max"), 814);
	CHECK_CLOSE(value(&s, "sched_debug.cpu.nr_switches.min"), 746);
	CHECK_CLOSE(value(&s, "sched_debug.cpu.nr_switches.avg"), 780);
	CHECK_CLOSE(value(&s, "sched_debug.cpu.nr_switches.stddev"), 34);
	/* cfs_rq[0]:/ .min_vruntime 1532.118642, cfs_rq[1]:/ 1021.838898 */
	CHECK_CLOSE(value(&s, "sched_debug.cfs_rq:/.min_vruntime.avg"),
	            (1532.118642 + 1021.838898) / 2);
	CHECK_CLOSE(value(&s, "sched_debug.cfs_rq:/.min_vruntime.stddev"),
	            (1532.118642 - 1021.838898) / 2);
	CHECK_CLOSE(value(&s, "sched_debug.rt_rq:.rt_runtime.max"), 950);
	/* top level and a section without a number */
	CHECK_CLOSE(value(&s, "sched_debug.ktime"), 2688.454987);
	CHECK_CLOSE(value(&s, "sched_debug.sysctl_sched.sysctl_sched_latency"), 12);
	CHECK_CLOSE(value(&s, "sched_debug.sysctl_sched.sysctl_sched_tunable_scaling"), 1);
	CHECK(!bb_stats_find(&s, "sched_debug.sysctl_sched.sysctl_sched_child_runs_first"));
	bb_stats_free(&s);
}

TEST(sched_debug_autogroups_left_out_samples_averaged)
{
	const char *raw = "time: 1\n"
	                  "cpu#0, 2000.000 MHz\n  .nr_switches : 10\n"
	                  "cfs_rq[0]:/autogroup-3\n  .load : 5\n"
	                  "cpu#1, 2000.000 MHz\n  .nr_switches : 30\n"
	                  "time: 61\n"
	                  "cpu#0, 2000.000 MHz\n  .nr_switches : 20\n"
	                  "cpu#1, 2000.000 MHz\n  .nr_switches : 60\n";
	struct bb_stats s = stats_of("sched_debug", raw);
	CHECK_CLOSE(value(&s, "sched_debug.cpu.nr_switches.0"), 15); /* not a counter: a mean */
	CHECK_CLOSE(value(&s, "sched_debug.cpu.nr_switches.max"), 45);
	CHECK_CLOSE(value(&s, "sched_debug.cpu.nr_switches.stddev"), (10 + 20) / 2.0);
	for (size_t i = 0; i < s.n; i++)
		CHECK(!strstr(s.v[i].name, "autogroup") && !strstr(s.v[i].name, ".load"));
	bb_stats_free(&s);
}

/* Two snapshots as the sampler writes them: two CPUs, POLL and C1 each. */
static const char cpuidle_raw[] = "time: 10.0\n"
                                  "==> /sys/devices/system/cpu/cpu0/cpuidle/state0/name <==\nPOLL\n"
                                  "==> /sys/devices/system/cpu/cpu0/cpuidle/state1/name <==\nC1\n"
                                  "==> /sys/devices/system/cpu/cpu1/cpuidle/state0/name <==\nPOLL\n"
                                  "==> /sys/devices/system/cpu/cpu1/cpuidle/state1/name <==\nC1\n"
                                  "==> /sys/devices/system/cpu/cpu0/cpuidle/state0/time <==\n100\n"
                                  "==> /sys/devices/system/cpu/cpu0/cpuidle/state1/time <==\n5000\n"
                                  "==> /sys/devices/system/cpu/cpu1/cpuidle/state0/time <==\n200\n"
                                  "==> /sys/devices/system/cpu/cpu1/cpuidle/state1/time <==\n7000\n"
                                  "==> /sys/devices/system/cpu/cpu0/cpuidle/state0/usage <==\n3\n"
                                  "==> /sys/devices/system/cpu/cpu0/cpuidle/state1/usage <==\n40\n"
                                  "==> /sys/devices/system/cpu/cpu1/cpuidle/state0/usage <==\n5\n"
                                  "==> /sys/devices/system/cpu/cpu1/cpuidle/state1/usage <==\n60\n"
                                  "time: 13.0\n"
                                  "==> /sys/devices/system/cpu/cpu0/cpuidle/state0/time <==\n150\n"
                                  "==> /sys/devices/system/cpu/cpu0/cpuidle/state1/time <==\n9000\n"
                                  "==> /sys/devices/system/cpu/cpu1/cpuidle/state0/time <==\n200\n"
                                  "==> /sys/devices/system/cpu/cpu1/cpuidle/state1/time <==\n8000\n"
                                  "==> /sys/devices/system/cpu/cpu0/cpuidle/state0/usage <==\n4\n"
                                  "==> /sys/devices/system/cpu/cpu0/cpuidle/state1/usage <==\n50\n"
                                  "==> /sys/devices/system/cpu/cpu1/cpuidle/state0/usage <==\n5\n"
                                  "==> /sys/devices/system/cpu/cpu1/cpuidle/state1/usage <==\n61\n";

TEST(cpuidle_lkp_names_without_the_state_and_deltas)
{
	struct bb_stats s = stats_of("cpuidle", cpuidle_raw);
	/* time: 12300 then 17350; usage 108 then 120 */
	CHECK_CLOSE(value(&s, "cpuidle..time"), 17350 - 12300);
	CHECK_CLOSE(value(&s, "cpuidle..usage"), 120 - 108);
	CHECK_INT((int)s.n, ==, 2);
	bb_stats_free(&s);
}

TEST(slabinfo_four_columns_means)
{
	struct bb_stats s = stats_of("slabinfo", test_slurp("monitors/tcg-2cpu.slabinfo"));
	/* TCP: 14 objects in 1 slab, then 28 in 2; kmalloc-1k 288/18 then 336/21 */
	CHECK_CLOSE(value(&s, "slabinfo.TCP.active_objs"), (14 + 28) / 2.0);
	CHECK_CLOSE(value(&s, "slabinfo.TCP.num_slabs"), 1.5);
	CHECK_CLOSE(value(&s, "slabinfo.kmalloc-1k.num_objs"), (288 + 336) / 2.0);
	CHECK_CLOSE(value(&s, "slabinfo.kmalloc-1k.active_slabs"), (18 + 21) / 2.0);
	CHECK(!bb_stats_find(&s, "slabinfo.TCP.objsize"));
	CHECK(!bb_stats_find(&s, "slabinfo.fsverity_info.active_objs")); /* 0: dropped */
	bb_stats_free(&s);
	/* another version: an error naming it, no stats */
	struct bb_stats t = {0};
	char err[256] = "";
	CHECK_INT(bb_monitor_stats(bb_monitor_find("slabinfo"),
	                           "time: 1\nslabinfo - version: 3.0\n", &t, err, sizeof err),
	          ==, -EINVAL);
	CHECK_CONTAINS(err, "slabinfo - version: 3.0 is not 2.1");
}

/* The sampler on a fake root: what is there is ok, what is not says why. */
TEST(sampler_status_files)
{
	const char *root = init_fake_root(NULL);
	test_write_file(root, "proc/stat", "cpu  1 0 2 3 0 0 0 0 0 0\n");
	test_write_file(root, "proc/mounts", "");
	test_write_file(root, "proc/self/mounts", "proc /proc proc rw 0 0\n");
	test_write_file(root, "sys/devices/system/cpu/cpuidle/current_driver", "none\n");
	init_mkdirs("/r", 0755);
	struct bb_strv names = {0};
	bb_strv_add(&names, "mpstat");
	bb_strv_add(&names, "cpuidle");
	bb_strv_add(&names, "sched_debug");
	bb_strv_add(&names, "slabinfo");
	pid_t pid = monitor_start(&names, "/r");
	CHECK(pid > 0);
	struct timespec ts = {0, 300 * 1000 * 1000};
	nanosleep(&ts, NULL);
	monitor_stop(pid);
	char status[512];
	CHECK_INT(monitor_status_read("/r", "mpstat", status, sizeof status, NULL, 0), ==, 0);
	CHECK_STR(status, "ok");
	CHECK_INT(monitor_status_read("/r", "cpuidle", status, sizeof status, NULL, 0), ==, 0);
	CHECK_CONTAINS(status, "unavailable: no idle states under /sys/devices/system/cpu/cpu*/"
	                       "cpuidle (cpuidle driver: none)");
	CHECK_INT(monitor_status_read("/r", "sched_debug", status, sizeof status, NULL, 0), ==, 0);
	CHECK_CONTAINS(status, "unavailable: /sys/kernel/debug/sched/debug: No such file or "
	                       "directory (debugfs is not mounted on /sys/kernel/debug); "
	                       "/proc/sched_debug: No such file or directory");
	CHECK_INT(monitor_status_read("/r", "slabinfo", status, sizeof status, NULL, 0), ==, 0);
	CHECK_STR(status, "unavailable: /proc/slabinfo: No such file or directory (kernel without "
	                  "CONFIG_SLUB_DEBUG?)");
	struct stat st;
	CHECK(stat(init_path("/r/monitor.cpuidle"), &st) && errno == ENOENT); /* no raw file */
	CHECK(!stat(init_path("/r/monitor.mpstat"), &st));
	/* the stats: mpstat has one sample (no interval): ok with a note, the others none */
	struct bb_stats s = {0};
	monitor_stats(&names, "/r", &s);
	CHECK_INT((int)s.n, ==, 0);
	char notes[512];
	CHECK_INT(monitor_status_read("/r", "mpstat", status, sizeof status, notes, sizeof notes),
	          ==, 0);
	CHECK_STR(status, "ok");
	CHECK_CONTAINS(notes, "no stats: 1 sample");
	bb_strv_free(&names);
}

/* results.json's "monitor_status": written after the stats, read back, appended to. */
TEST(resjson_monitor_status_round_trip)
{
	struct bb_stats it = {0};
	char err[256], *t1 = NULL, *t2 = NULL;
	const char *names[2] = {"cpuidle", "mpstat"};
	const char *st[2] = {"unavailable: no idle states \"here\"", "ok"};
	bb_stats_add(&it, "mpstat.cpu.all.sys%", 55.5, "");
	CHECK_INT(bb_resjson_append_status(NULL, &it, names, st, 2, &t1, err, sizeof err), ==, 0);
	CHECK_STR(t1, "{\n  \"mpstat.cpu.all.sys%\": [\n    55.5\n  ],\n  \"monitor_status\": {\n"
	              "    \"cpuidle\": [\n      \"unavailable: no idle states \\\"here\\\"\"\n    "
	              "],\n    \"mpstat\": [\n      \"ok\"\n    ]\n  }\n}\n");
	CHECK_INT(bb_resjson_append_status(t1, &it, names, st, 2, &t2, err, sizeof err), ==, 0);
	struct bb_resjson r = {0};
	CHECK_INT(bb_resjson_parse(t2, &r, err, sizeof err), ==, 0);
	const struct bb_resjson_status *s = bb_resjson_get_status(&r, "cpuidle");
	CHECK(s && s->n == 2);
	CHECK_STR(s->v[1], st[0]);
	CHECK(bb_resjson_get(&r, "mpstat.cpu.all.sys%")->n == 2);
	CHECK(!bb_resjson_get(&r, "monitor_status"));
	bb_resjson_free(&r);
	/* the old shape without it still reads; a bad one says where */
	CHECK_INT(bb_resjson_parse("{\"a.b\": [1]}", &r, err, sizeof err), ==, 0);
	bb_resjson_free(&r);
	CHECK_INT(bb_resjson_parse("{\"monitor_status\": {\"x\": [1]}}", &r, err, sizeof err), ==,
	          -EINVAL);
	CHECK_CONTAINS(err, "line 1 col 27: expected a string");
	free(t1);
	free(t2);
	bb_stats_free(&it);
}
