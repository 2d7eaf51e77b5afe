/*
 * The monitors of an iteration (lib/parse/parse_monitor.h): one sampling process, forked as the
 * clients are released and stopped when they have ended, that reads the /proc files of every
 * monitor of the plan at LKP's times (at the start, then every interval; the two-snapshot
 * monitors at the start and the end; uptime at the end) into ITER/monitor.NAME, and sleeps in
 * between. Not in the job cgroup; it dies with the runner. Before its first sample it writes
 * each monitor's status file (monitor_status.h): `ok`, or `unavailable: REASON` for a monitor
 * whose files this machine does not have (that one is not sampled).
 */
#ifndef BENCHBOOT_INIT_MONITOR_H
#define BENCHBOOT_INIT_MONITOR_H

#include <sys/types.h>

#include <sys/resource.h>

#include "monitor_status.h"
#include "plan/plan.h"
#include "results/statset.h"
#include "strv.h"

/* The plan whose monitor.NAME.OPTION keys the sampler reads (`interval`); NULL: none. */
void monitor_use_plan(const struct bb_plan *plan);
/* Fork the sampler for the monitors named in names (none: nothing) writing into dir (under
 * init_root). Its pid, 0 when nothing was started, or -errno. */
pid_t monitor_start(const struct bb_strv *names, const char *dir);
/* End it: SIGTERM (it takes its end snapshots and exits), SIGKILL after 2 s; waited for. */
void monitor_stop(pid_t pid);
/* 1 when pid is the sampler (run_reap: it is not a benchmark's process); its status kept. */
int monitor_reaped(pid_t pid, int status, const struct rusage *ru);
/* The stats of each available monitor's raw file in dir, appended to out; a monitor whose
 * file cannot be read or parsed is said on the console, left out and its status rewritten
 * (unavailable: the reason); an ok one without any stat gets a note saying so. */
void monitor_stats(const struct bb_strv *names, const char *dir, struct bb_stats *out);

#endif
