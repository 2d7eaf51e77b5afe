/*
 * perf-bench-sched-pipe, as LKP's programs/perf-bench-sched-pipe/run runs it: `perf bench
 * sched pipe -l LOOPS [-T]` (LKP's `loops: 10000000ops` is written with its unit; -T with
 * mode: threads). perf is the image's (Debian's linux-perf of the kernel's version, the one
 * the perf monitors run). LKP reads no runtime: `runtime` only bounds the iteration (the
 * watchdog). Parser: init/parse_perf_bench.c (LKP's parse: ops_per_sec).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites/suite.h"

static int check_mode(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (!strcmp(s, "process") || !strcmp(s, "threads"))
		return 0;
	return jfail(w, m, "%s: '%s' is not process or threads (perf bench sched pipe -T)", key, s);
}

static const struct keydef keys[] = {
    {C_BLOCK, "loops", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_suite_check_ops},
    {C_BLOCK, "mode", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_mode},
};

static int build(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	char loops[32];
	snprintf(loops, sizeof loops, "%.*s",
	         (int)strspn(bb_kvs_get_or(p, "loops", "1000000"), "0123456789"),
	         bb_kvs_get_or(p, "loops", "1000000"));
	sr->nominal_s = 1;
	sr->runtime_s = (double)secs;
	struct bb_strv *c = &sr->client_argv;
	if (bb_strv_add(c, "/usr/bin/perf") || bb_strv_add(c, "bench") || bb_strv_add(c, "sched") ||
	    bb_strv_add(c, "pipe") || bb_strv_add(c, "-l") || bb_strv_add(c, loops) ||
	    (!strcmp(bb_kvs_get_or(p, "mode", "process"), "threads") && bb_strv_add(c, "-T")))
		return -ENOMEM;
	snprintf(sr->client_count, sizeof sr->client_count, "1");
	return bb_strv_add(&sr->files, "/usr/bin/perf");
}

static const char *const loose[] = {"loops", "mode", NULL};
static const struct bb_suite_default defaults[] = {
    {"loops", "1000000"}, /* perf's own default */
    {"mode", "process"},
    {NULL, NULL},
};
static const struct bb_suite_file files[] = {
    {"/usr/bin/perf", "usr/bin/perf", 0},
    {NULL, NULL, 0},
};
static const char *const primary[] = {"perf-bench-sched-pipe.ops_per_sec", NULL};

const struct bb_suite bb_suite_perf_bench_sched_pipe = {
    .name = "perf-bench-sched-pipe",
    .summary = "context switches through a pipe between two tasks, ops per second",
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
