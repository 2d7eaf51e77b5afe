/*
 * perf-bench-futex, as LKP's programs/perf-bench-futex/run runs it: `perf bench futex TEST`
 * with --runtime (hash and lock-pi only), --threads nr_task (a percentage of the online CPUs,
 * resolved in the guest as LKP's params/nr_task does), --shared when `shared` is true (LKP's
 * parse_bool: not empty, not 0..., no..., false..., n...; LKP's job has `shared: [shared, ]`,
 * whose empty value is a run without it), and each test's own option (futexes for hash, nwakes
 * for wake, nwakers for wake-parallel, nrequeue for requeue, multi for lock-pi). The image's
 * perf. Parser: init/parse_perf_bench.c (LKP's parse: ops/s, the times in ms, stddev%).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites/suite.h"

static const char *const tests[] = {"hash", "lock-pi", "requeue", "wake", "wake-parallel", NULL};

/* LKP's run script, one line: $1 nr_task or -, then perf's arguments. */
static const char script[] =
    "n=$(nproc); t=$1; shift; case $t in *%) t=$((n * ${t%\\%} / 100));; esac; "
    "if [ \"$t\" = - ]; then exec /usr/bin/perf bench futex \"$@\"; fi; "
    "if [ \"$t\" -lt 1 ]; then echo \"perf-bench-futex: nr_task of $n CPUs is 0 tasks: the run is "
    "dropped, as LKP drops such a job\" >&2; exit 1; fi; "
    "exec /usr/bin/perf bench futex \"$@\" --threads $t";

static int check_test(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (job_one_of(s, tests))
		return 0;
	const char *near = job_nearest_in(s, tests);
	return jfail(w, m, "%s: '%s' is not hash, lock-pi, requeue, wake or wake-parallel%s%s%s",
	             key, s, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
}

/* LKP's lib/common.sh parse_bool */
static int lkp_true(const char *s)
{
	return s && *s && *s != '0' && strncmp(s, "no", 2) && strncmp(s, "false", 5) && *s != 'n';
}

static int check_count(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	return bb_suite_check_whole(w, key, s, m, 1, 1000000, NULL, NULL);
}

static const struct keydef keys[] = {
    {C_BLOCK, "test", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_test},
    {C_BLOCK, "shared", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "multi", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "futexes", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_count},
    {C_BLOCK, "nwakes", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_count},
    {C_BLOCK, "nwakers", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_count},
    {C_BLOCK, "nrequeue", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_count},
    {C_BLOCK, "nr_task", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
};

static int check_doc(struct walker *w, const struct bb_jdoc *d)
{
	if (bb_jdoc_get(d, "test"))
		return 0;
	return jfail(w, (yaml_mark_t){0},
	             "perf-bench-futex: no test (LKP's run dies without one: hash, lock-pi, "
	             "requeue, wake or wake-parallel)");
}

static int build(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	const char *test = bb_kvs_get(p, "test");
	if (!test || !job_one_of(test, tests)) {
		snprintf(err, errlen, "perf-bench-futex: no test");
		return -EINVAL;
	}
	/* only hash and lock-pi take a runtime; the others do a count of work, which the job's
	 * runtime does not bound in LKP either: their watchdog is LKP's default runtime */
	int timed = !strcmp(test, "hash") || !strcmp(test, "lock-pi");
	sr->timed = timed;
	sr->nominal_s = timed ? (double)secs : 1;
	sr->runtime_s = timed ? (double)secs + 30 : 300;
	struct bb_strv *c = &sr->client_argv;
	if (bb_strv_add(c, "/bin/sh") || bb_strv_add(c, "-c") || bb_strv_add(c, script) ||
	    bb_strv_add(c, "perf-bench-futex") ||
	    bb_strv_add(c, bb_kvs_get_or(p, "nr_task", "-")) || bb_strv_add(c, test) ||
	    (timed && (bb_strv_add(c, "--runtime") || bb_suite_argv_addf(c, "%ld", secs))) ||
	    (lkp_true(bb_kvs_get(p, "shared")) && bb_strv_add(c, "--shared")))
		return -ENOMEM;
	static const struct {
		const char *key, *test, *opt;
	} opts[] = {{"futexes", "hash", "--futexes"},
	            {"nwakes", "wake", "--nwakes"},
	            {"nwakers", "wake-parallel", "--nwakers"},
	            {"nrequeue", "requeue", "--nrequeue"}};
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		const char *v = bb_kvs_get(p, opts[i].key);
		if (v && !strcmp(test, opts[i].test) &&
		    (bb_strv_add(c, opts[i].opt) || bb_strv_add(c, v)))
			return -ENOMEM;
	}
	if (lkp_true(bb_kvs_get(p, "multi")) && !strcmp(test, "lock-pi") &&
	    bb_strv_add(c, "--multi"))
		return -ENOMEM;
	snprintf(sr->client_count, sizeof sr->client_count, "1");
	return bb_strv_add(&sr->files, "/usr/bin/perf");
}

static const char *const loose[] = {"test",    "shared",   "multi",   "futexes", "nwakes",
                                    "nwakers", "nrequeue", "nr_task", NULL};
static const struct bb_suite_file files[] = {
    {"/usr/bin/perf", "usr/bin/perf", 0},
    {NULL, NULL, 0},
};
static const char *const primary[] = {"perf-bench-futex.ops/s", "perf-bench-futex.wokeup_time_ms",
                                      "perf-bench-futex.requeued_time_ms",
                                      "perf-bench-futex.avg_per_thread_latency_ms", NULL};

const struct bb_suite bb_suite_perf_bench_futex = {
    .name = "perf-bench-futex",
    .summary = "futex operations (hash, lock-pi) per second, or wake and requeue times",
    .runtime_key = "runtime",
    .default_runtime = "300s",
    .keys = keys,
    .nkeys = sizeof keys / sizeof keys[0],
    .loose = loose,
    .check_doc = check_doc,
    .build = build,
    .files = files,
    .primary = primary,
};
