/*
 * hackbench (rt-tests), as LKP's programs/hackbench/run runs it: nr_threads groups (a
 * percentage of the online CPUs, resolved in the guest as LKP does), fds file descriptors
 * each (20), --process or --threads, --pipe or sockets, loops messages (LKP: 30000 x CPUs /
 * groups) of datasize bytes (100); without `iterations` it runs again until runtime (600 s)
 * has passed, with `iterations: N` each of benchboot's N iterations runs it once. LKP's
 * set_env runs first: the open-file limit, and pid_max, threads-max and max_map_count when
 * the tasks pass 16384. Debian testing's rt-tests, taken without its python3 dependency
 * (hackbench is a C program). Parser: init/parse_hackbench.c (LKP's programs/hackbench/parse).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites/suite.h"

/* LKP's run script, one line (a plan argument is one line): $1 nr_threads, $2 mode, $3 ipc,
 * $4 fds, $5 datasize, $6 loops or -, $7 runtime in seconds, $8 `once` or `time`. */
static const char script[] =
    "n=$(nproc); g=$1; case $g in *%) g=$((n * ${g%\\%} / 100));; esac; "
    "if [ \"$g\" -lt 1 ]; then echo \"hackbench: nr_threads $1 of $n CPUs is 0 groups: "
    "the run is dropped, as LKP drops such a job\" >&2; exit 1; fi; "
    "l=$6; [ \"$l\" = - ] && l=$((30000 * n / g)); "
    "p=; [ \"$3\" = pipe ] && p=--pipe; "
    "t=$((g * 2 * $4)); ulimit -n $((t + 2048)) || exit 1; "
    "if [ $t -gt 16384 ]; then echo $((t * 2)) >/proc/sys/kernel/pid_max; "
    "echo $((t * 2)) >/proc/sys/kernel/threads-max; "
    "echo $((t * 100)) >/proc/sys/vm/max_map_count; fi; "
    "s=$(date +%s); "
    "while :; do /usr/bin/hackbench -g $g -f $4 --$2 $p -l $l -s $5 || exit 1; "
    "[ \"$8\" = once ] && break; [ $(($(date +%s) - s)) -gt $7 ] && break; done";

/* LKP's run passes --MODE: its jobs write threads; its meta.yaml says thread, which
 * hackbench's getopt_long takes as the abbreviation of --threads */
static int check_mode(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (!strcmp(s, "process") || !strcmp(s, "threads") || !strcmp(s, "thread"))
		return 0;
	return jfail(w, m,
	             "%s: '%s' is not process, threads or thread (hackbench --process, --threads)",
	             key, s);
}

static int check_ipc(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (!strcmp(s, "pipe") || !strcmp(s, "socket"))
		return 0;
	return jfail(w, m, "%s: '%s' is not pipe or socket (LKP's hackbench ipc)", key, s);
}

static int check_fds(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	return bb_suite_check_whole(w, key, s, m, 1, 1000, NULL,
	                            NULL); /* a group's tasks: 2 x fds */
}

static int check_int(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	/* as hackbench reads it: atoi into an int */
	return bb_suite_check_whole(w, key, s, m, 1, 2147483647L, NULL, NULL);
}

static const struct keydef keys[] = {
    {C_BLOCK, "mode", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_mode},
    {C_BLOCK, "ipc", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_ipc},
    {C_BLOCK, "fds", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_fds},
    {C_BLOCK, "datasize", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_int},
    {C_BLOCK, "loops", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_int},
    {C_BLOCK, "nr_threads", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "runtime", NULL, K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "iterations", NULL, K_POSINT, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    /* LKP's per-instance override, for nr_instances > 1 (cgroup2 siblings): one instance
     * here, so recorded only */
    {C_BLOCK, "nr_threads_by_instance", "lkp.nr_threads_by_instance", K_NOTE, 0, BB_LEVEL_NOTE,
     C_NONE, NULL, NULL},
};

static int build(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	long count;
	int pct;
	const char *nr = bb_suite_nr_threads(p, &count, &pct, err, errlen);
	if (!nr)
		return -EINVAL;
	/* LKP's `iterations` runs hackbench that many times, benchboot's iterations do: each
	 * runs it once; without it, one iteration runs it again and again for runtime */
	int once = bb_kvs_get(p, "iterations") != NULL;
	sr->timed = !once;
	sr->nominal_s = once ? 1 : (double)secs;
	/* the last run of a timed loop starts before runtime ends and may run past it */
	sr->runtime_s = once ? (double)secs : 2.0 * (double)secs + 60;
	struct bb_strv *c = &sr->client_argv;
	if (bb_strv_add(c, "/bin/sh") || bb_strv_add(c, "-c") || bb_strv_add(c, script) ||
	    bb_strv_add(c, "hackbench") || bb_strv_add(c, nr) ||
	    bb_strv_add(c, bb_kvs_get_or(p, "mode", "process")) ||
	    bb_strv_add(c, bb_kvs_get_or(p, "ipc", "socket")) ||
	    bb_strv_add(c, bb_kvs_get_or(p, "fds", "20")) ||
	    bb_strv_add(c, bb_kvs_get_or(p, "datasize", "100")) ||
	    bb_strv_add(c, bb_kvs_get_or(p, "loops", "-")) || bb_suite_argv_addf(c, "%ld", secs) ||
	    bb_strv_add(c, once ? "once" : "time"))
		return -ENOMEM;
	snprintf(sr->client_count, sizeof sr->client_count, "1");
	if (bb_strv_add(&sr->files, "/usr/bin/hackbench"))
		return -ENOMEM;
	return 0;
}

/* the `# - key` lines of LKP's programs/hackbench/run */
static const char *const loose[] = {
    "runtime",  "nr_threads", "nr_threads_by_instance", "fds", "mode", "ipc", "iterations", "loops",
    "datasize", NULL};
static const struct bb_suite_default defaults[] = {
    {"mode", "process"},
    {"ipc", "socket"},
    {NULL, NULL},
};
static const struct bb_suite_file files[] = {
    {"/usr/bin/hackbench", "usr/bin/hackbench", 0},
    {NULL, NULL, 0},
};
static const char *const primary[] = {"hackbench.throughput", NULL};

const struct bb_suite bb_suite_hackbench = {
    .name = "hackbench",
    .summary = "the scheduler under groups of tasks passing messages over pipes or sockets",
    .runtime_key = "runtime",
    .default_runtime = "600s",
    .keys = keys,
    .nkeys = sizeof keys / sizeof keys[0],
    .loose = loose,
    .defaults = defaults,
    .build = build,
    .files = files,
    .primary = primary,
};
