/*
 * perf-bench-sched-messaging, as LKP's programs/perf-bench-sched-messaging/run runs it: `perf
 * bench sched messaging [--nr_loops LOOPS] [--group GROUPS] [--pipe] [--thread]` (hackbench's
 * pattern inside perf: ipc pipe or socket, mode process or thread). perf is the image's.
 * LKP reads no runtime: `runtime` only bounds the iteration (the watchdog). Parser:
 * init/parse_perf_bench.c (LKP's parse: total_time_sec, lower is better).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites/suite.h"

static int check_mode(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (!strcmp(s, "process") || !strcmp(s, "thread"))
		return 0;
	return jfail(w, m,
	             "%s: '%s' is not process or thread (perf bench sched messaging --thread)", key,
	             s);
}

static int check_ipc(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (!strcmp(s, "pipe") || !strcmp(s, "socket"))
		return 0;
	return jfail(w, m, "%s: '%s' is not pipe or socket (perf bench sched messaging --pipe)",
	             key, s);
}

static const struct keydef keys[] = {
    {C_BLOCK, "loops", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_suite_check_ops},
    {C_BLOCK, "groups", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_suite_check_ops},
    {C_BLOCK, "ipc", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_ipc},
    {C_BLOCK, "mode", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_mode},
};

static int build(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	const char *loops = bb_kvs_get(p, "loops"), *groups = bb_kvs_get(p, "groups");
	sr->nominal_s = 1;
	sr->runtime_s = (double)secs;
	struct bb_strv *c = &sr->client_argv;
	if (bb_strv_add(c, "/usr/bin/perf") || bb_strv_add(c, "bench") || bb_strv_add(c, "sched") ||
	    bb_strv_add(c, "messaging") ||
	    (loops && (bb_strv_add(c, "--nr_loops") ||
	               bb_suite_argv_addf(c, "%.*s", (int)strspn(loops, "0123456789"), loops))) ||
	    (groups &&
	     (bb_strv_add(c, "--group") ||
	      bb_suite_argv_addf(c, "%.*s", (int)strspn(groups, "0123456789"), groups))) ||
	    (!strcmp(bb_kvs_get_or(p, "ipc", "socket"), "pipe") && bb_strv_add(c, "--pipe")) ||
	    (!strcmp(bb_kvs_get_or(p, "mode", "process"), "thread") && bb_strv_add(c, "--thread")))
		return -ENOMEM;
	snprintf(sr->client_count, sizeof sr->client_count, "1");
	return bb_strv_add(&sr->files, "/usr/bin/perf");
}

static const char *const loose[] = {"loops", "groups", "ipc", "mode", NULL};
static const struct bb_suite_default defaults[] = {
    {"ipc", "socket"},
    {"mode", "process"},
    {NULL, NULL},
};
static const struct bb_suite_file files[] = {
    {"/usr/bin/perf", "usr/bin/perf", 0},
    {NULL, NULL, 0},
};
static const char *const primary[] = {"perf-bench-sched-messaging.total_time_sec", NULL};

const struct bb_suite bb_suite_perf_bench_sched_messaging = {
    .name = "perf-bench-sched-messaging",
    .summary = "hackbench's messaging pattern inside perf, its total time",
    .runtime_key = "runtime",
    .default_runtime = "300s",
    .keys = keys,
    .nkeys = sizeof keys / sizeof keys[0],
    .loose = loose,
    .defaults = defaults,
    .build = build,
    .files = files,
    .primary = primary,
};
