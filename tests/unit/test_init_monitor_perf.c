/*
 * The perf monitors' processes (init/monitor_perf.c) on a fake root: a machine without perf
 * says so in the status files and gives no stats; without a PMU perf-stat notes the hardware
 * events it leaves out and perf-profile samples cpu-clock, its window (delay, duration: plan
 * keys) clipped to the measured window; a perf that records nothing makes the profile
 * unavailable with the reason. The fake /usr/bin/perf is a shell script that only waits: what
 * perf itself does is tested by booting it (tests/qemu/job-perf-monitors.sh).
 */
#include <errno.h>
#include <sys/stat.h>
#include <time.h>

#include "harness.h"
#include "init_fake_root.h"
#include "monitor.h"
#include "monitor_perf.h"
#include "plan/plan.h"

static void fake_proc(const char *root)
{
	test_write_file(root, "proc/stat", "cpu  1 0 2 3 0 0 0 0 0 0\n");
	test_write_file(root, "proc/self/mounts", "proc /proc proc rw 0 0\n");
	init_mkdirs("/r", 0755);
}

TEST(perf_monitors_without_perf_are_unavailable)
{
	const char *root = init_fake_root(NULL);
	fake_proc(root);
	struct bb_strv names = {0};
	bb_strv_add(&names, "perf-stat");
	bb_strv_add(&names, "perf-profile");
	monitor_perf_window(NULL, 10);
	pid_t pid = monitor_start(&names, "/r");
	CHECK(pid > 0);
	monitor_stop(pid);
	char status[600];
	for (int i = 0; i < 2; i++) {
		CHECK_INT(monitor_status_read("/r", names.v[i], status, sizeof status, NULL, 0), ==,
		          0);
		CHECK_CONTAINS(status, "unavailable: /usr/bin/perf: No such file or directory (the "
		                       "image has no perf");
	}
	struct bb_stats s = {0};
	monitor_stats(&names, "/r", &s);
	CHECK_INT((int)s.n, ==, 0); /* no stats, never zeros */
	bb_strv_free(&names);
}

TEST(perf_monitors_no_pmu_window_clipped_no_data)
{
	const char *root = init_fake_root(NULL);
	fake_proc(root);
	const char *perf = test_write_file(root, "usr/bin/perf", "#!/bin/sh\nexec sleep 30\n");
	chmod(perf, 0755);
	test_write_file(root, "proc/sys/kernel/perf_event_paranoid", "2\n");
	struct bb_plan p;
	init_fake_plan(&p, "monitor.perf-profile.delay=100\nmonitor.perf-profile.duration=7\n");
	struct bb_strv names = {0};
	bb_strv_add(&names, "perf-stat");
	bb_strv_add(&names, "perf-profile");
	monitor_perf_window(&p, 8);
	pid_t pid = monitor_start(&names, "/r");
	CHECK(pid > 0);
	struct timespec ts = {0, 300 * 1000 * 1000};
	nanosleep(&ts, NULL);
	monitor_stop(pid);
	char status[600], notes[1024];
	CHECK_INT(
	    monitor_status_read("/r", "perf-stat", status, sizeof status, notes, sizeof notes), ==,
	    0);
	CHECK_STR(status, "ok");
	CHECK_CONTAINS(notes, "hardware events not supported here (no CPU PMU");
	CHECK_CONTAINS(notes, ": cpu-cycles instructions cache-references cache-misses "
	                      "branch-instructions branch-misses dTLB-loads");
	CHECK_INT(
	    monitor_status_read("/r", "perf-profile", status, sizeof status, notes, sizeof notes),
	    ==, 0);
	CHECK_STR(status, "ok");
	CHECK_CONTAINS(notes, "sampled cpu-clock, a software clock, not cycles:pp");
	/* a delay past the 8 s window: runtime/2; the duration cut to the window's end */
	CHECK_CONTAINS(notes, "window: 4s from 4s into the measured window of 8s");
	/* perf-stat's raw file starts with its command line, as LKP's echo_exec writes it */
	char *raw = init_read("/r/monitor.perf-stat", NULL);
	CHECK(raw != NULL);
	CHECK_CONTAINS(raw, "/usr/bin/perf stat -a --scale -I 1000 -x , -e "
	                    "cpu-clock,task-clock,page-faults,context-switches,cpu-migrations,"
	                    "minor-faults,major-faults --log-fd 1\n");
	free(raw);
	struct bb_stats s = {0};
	monitor_stats(&names, "/r", &s);
	CHECK_INT((int)s.n, ==, 0);
	CHECK_INT(monitor_status_read("/r", "perf-stat", status, sizeof status, NULL, 0), ==, 0);
	CHECK_CONTAINS(status, "unavailable: perf stat gave no interval");
	CHECK_INT(monitor_status_read("/r", "perf-profile", status, sizeof status, NULL, 0), ==, 0);
	CHECK_CONTAINS(status, "unavailable: perf record wrote no /r/monitor.perf-profile.data");
	bb_strv_free(&names);
	bb_plan_free(&p);
}
