/*
 * The perf monitors of an iteration, perf-stat and perf-profile (docs/jobs.md, "Monitors";
 * the parsers: lib/parse/parse_perf.h). Each runs as one process of its own, forked with the /proc
 * sampler (monitor.h) when the clients are released: it waits for its window (delay), runs
 * /usr/bin/perf (Debian's linux-perf, in the image only for a job with a perf monitor) for its
 * duration or to the end of the measured window, and ends it with SIGINT.
 *
 * perf-stat: `perf stat -a --scale -I MS -x , -e EVENTS --log-fd 1`, LKP's event list, the
 * hardware groups only when the machine has a CPU PMU (none under QEMU's TCG: a status note
 * says so), into ITER/monitor.perf-stat.
 * perf-profile: `perf record -q -g --realtime=1 -m 256 -a --count=1000003 -e EV` with EV
 * cycles:pp (else cycles:p, else cycles) when the PMU has it, else the software clock
 * cpu-clock, into ITER/monitor.perf-profile.data, from runtime/2 for 10 s (LKP's defaults,
 * clipped to the measured window; options delay and duration), /proc/sys/kernel/kptr_restrict
 * at 0 while recording. After the iteration `perf report` gives ITER/monitor.perf-profile (the
 * stats' raw file) and `perf script` the folded stacks ITER/monitor.perf-profile.folded.
 */
#ifndef BENCHBOOT_INIT_MONITOR_PERF_H
#define BENCHBOOT_INIT_MONITOR_PERF_H

#include <sys/types.h>

#include "plan/plan.h"
#include "results/statset.h"
#include "strv.h"

/* The next iteration's plan (its monitor.NAME.OPTION keys) and runtime in seconds: called
 * before monitor_start. */
void monitor_perf_window(const struct bb_plan *plan, double runtime);
/* The run the next iteration belongs to, named in the heartbeat lines of the post-processing. */
void monitor_perf_run(const char *id);

/* Start the perf monitors among names (their status files written), from monitor_start. */
void monitor_perf_start(const struct bb_strv *names, const char *dir);
/* Wait until perf-profile's perf record is ready to sample (at most a minute): the benchmark
 * is released after, so that perf's start-up (seconds under TCG) does not eat its window. */
void monitor_perf_wait_ready(void);
/* End them (SIGINT; SIGKILL when one does not end within 30 s), from monitor_stop. */
void monitor_perf_stop(void);
/* 1 when pid is one of their processes (its exit recorded). */
int monitor_perf_reaped(pid_t pid, int status);
/* Their stats appended to out (perf-profile: perf report and perf script run first), from
 * monitor_stats. */
void monitor_perf_stats(const struct bb_strv *names, const char *dir, struct bb_stats *out);

#endif
