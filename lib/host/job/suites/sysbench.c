/*
 * sysbench-cpu, sysbench-memory, sysbench-threads and sysbench-mutex, as LKP's
 * programs/sysbench-{cpu,memory,threads,mutex}/run run them: one sysbench 1.0 command line
 * each, `sysbench --threads=N --time=RUNTIME TEST OPTIONS run` (sysbench-threads: its options
 * before `threads run`), N nr_threads (P% of the online CPUs, resolved in the guest as LKP's
 * params/nr_threads does: floor(P x CPUs / 100); 0 drops the run), RUNTIME in seconds (LKP's
 * default 600). sysbench-memory runs nr_processes (N or P%) such sysbench at once, as LKP's
 * run does; its NUMA binding (cpu_node_bind, mem_node_bind) is recorded only: benchboot's
 * machines are one node. One file for the four: they share their command line, their
 * nr_threads and their parser (init/parse_sysbench.c, LKP's programs/sysbench/parse). The
 * program is Debian testing's sysbench 1.0.20 (LKP builds it from git).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites/suite.h"

/* nr_threads P% into sysbench's --threads in the guest: $1 P%, the rest sysbench's words */
static const char script[] =
    "n=$(nproc); t=$((n * ${1%\\%} / 100)); "
    "if [ \"$t\" -lt 1 ]; then echo \"sysbench: nr_threads $1 of $n CPUs is 0 threads: the run "
    "is dropped, as LKP drops such a job\" >&2; exit 1; fi; "
    "shift; exec /usr/bin/sysbench --threads=$t \"$@\"";

/* What a key of a block takes: one of words, or a whole number min..max, or a size. */
struct value {
	const char *key;
	const char *words;  /* blank-separated, or NULL */
	long min, max;      /* a whole number when words is NULL and max > 0 */
	const char *option; /* sysbench's, for messages */
};

static const struct value values[] = {
    {"cpu_max_prime", NULL, 1, 2147483647L, "--cpu-max-prime"},
    {"thread_yields", NULL, 0, 2147483647L, "--thread-yields"},
    {"thread_locks", NULL, 1, 2147483647L, "--thread-locks"},
    {"mutex_num", NULL, 1, 2147483647L, "--mutex-num"},
    {"mutex_locks", NULL, 1, 2147483647L, "--mutex-locks"},
    {"mutex_loops", NULL, 0, 2147483647L, "--mutex-loops"},
    {"mem_blk_size", NULL, 0, 0, "--memory-block-size"},
    {"mem_total_size", NULL, 0, 0, "--memory-total-size"},
    {"mem_scope", "global local", 0, 0, "--memory-scope"},
    {"mem_hugetlb", "on off true false", 0, 0, "--memory-hugetlb"},
    {"mem_operation", "read write none", 0, 0, "--memory-oper"},
    {"mem_access_mode", "seq rnd", 0, 0, "--memory-access-mode"},
    {"rand_type", "uniform gaussian special pareto", 0, 0, "--rand-type"},
    {"rand_pareto_h", NULL, 0, 0, "--rand-pareto-h"},
};

/* A size as sysbench reads one: a whole number with an optional K, M, G or T (x 1024^n). */
static int size_value(const char *s, unsigned long long *bytes)
{
	static const char units[] = "KMGT";
	size_t n = strspn(s, "0123456789");
	const char *at = s[n] ? strchr(units, s[n] & ~0x20) : NULL;
	if (!n || n > 15 || (s[n] && (s[n + 1] || !at)))
		return -1;
	*bytes = strtoull(s, NULL, 10);
	for (long k = at ? at - units + 1 : 0; k > 0; k--)
		*bytes <<= 10;
	return 0;
}

static int check_value(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	const struct value *v = values;
	while (strcmp(v->key, key))
		v++;
	if (v->words) {
		if (bb_suite_word_in(s, v->words))
			return 0;
		return jfail(w, m, "%s: '%s' is not one of %s (sysbench %s)", key, s, v->words,
		             v->option);
	}
	if (v->max) {
		char what[64];
		snprintf(what, sizeof what, "(sysbench %s)", v->option);
		return bb_suite_check_whole(w, key, s, m, v->min, v->max, NULL, what);
	}
	if (!strcmp(key, "rand_pareto_h")) {
		char *e;
		double h = strtod(s, &e);
		if (*s >= '0' && *s <= '9' && !*e && h > 0 && h < 1)
			return 0;
		return jfail(w, m, "%s: '%s' is not a number between 0 and 1 (sysbench %s)", key, s,
		             v->option);
	}
	unsigned long long bytes;
	if (size_value(s, &bytes) || (!strcmp(key, "mem_blk_size") && (!bytes || bytes % 8)))
		return jfail(w, m,
		             "%s: '%s' is not a size for sysbench %s (bytes, or with K/M/G/T: "
		             "1K, 100G%s)",
		             key, s, v->option,
		             !strcmp(key, "mem_blk_size") ? "; a multiple of 8 bytes" : "");
	return 0;
}

#define VALUE(name)                                                                                \
	{                                                                                          \
		C_BLOCK, name, NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_value      \
	}
#define COMMON_KEYS                                                                                \
	{C_BLOCK, "nr_threads", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},          \
	    {C_BLOCK, "runtime", NULL, K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},      \
	{                                                                                          \
		C_BLOCK, "iterations", NULL, K_POSINT, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL         \
	}

/* An option of a test: its key, sysbench's option, LKP's default (NULL: only when given). */
struct option {
	const char *key, *option, *dflt;
};

/* One of the four: its sysbench test, its options in LKP's order. */
struct test {
	const char *name;
	int options_first; /* LKP's sysbench-threads: the options before `threads run` */
	const struct option *options;
};

static int build_test(const struct test *t, const struct bb_kvs *p, long secs,
                      struct bb_suite_run *sr, char *err, size_t errlen)
{
	long count;
	int pct;
	const char *nr = bb_suite_nr_threads(p, &count, &pct, err, errlen);
	if (!nr)
		return -EINVAL;
	sr->nominal_s = sr->runtime_s = (double)secs;
	struct bb_strv *c = &sr->client_argv;
	int rc = pct ? bb_strv_add(c, "/bin/sh") || bb_strv_add(c, "-c") ||
	                   bb_strv_add(c, script) || bb_strv_add(c, "sysbench") ||
	                   bb_strv_add(c, nr)
	             : bb_strv_add(c, "/usr/bin/sysbench") ||
	                   bb_suite_argv_addf(c, "--threads=%ld", count);
	if (rc || bb_suite_argv_addf(c, "--time=%ld", secs) ||
	    (!t->options_first && bb_strv_add(c, t->name)))
		return -ENOMEM;
	for (const struct option *o = t->options; o->key; o++) {
		const char *v = bb_kvs_get_or(p, o->key, o->dflt);
		if (v && bb_suite_argv_addf(c, "%s=%s", o->option, v))
			return -ENOMEM;
	}
	if ((t->options_first && bb_strv_add(c, t->name)) || bb_strv_add(c, "run"))
		return -ENOMEM;
	snprintf(sr->client_count, sizeof sr->client_count, "%s",
	         bb_kvs_get_or(p, "nr_processes", "1"));
	return bb_strv_add(&sr->files, "/usr/bin/sysbench");
}

static const struct bb_suite_file files[] = {
    {"/usr/bin/sysbench", "usr/bin/sysbench", 0},
    {NULL, NULL, 0},
};

/* sysbench-cpu: `--threads=N --time=T cpu --cpu-max-prime=P run` */
static const struct option cpu_options[] = {
    {"cpu_max_prime", "--cpu-max-prime", "10000"},
    {NULL, NULL, NULL},
};
static const struct test cpu = {"cpu", 0, cpu_options};
static int build_cpu(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                     size_t errlen)
{
	sr->timed = 1;
	return build_test(&cpu, p, secs, sr, err, errlen);
}
static const struct keydef cpu_keys[] = {VALUE("cpu_max_prime"), COMMON_KEYS};
static const char *const cpu_loose[] = {"runtime", "cpu_max_prime", "nr_threads", NULL};
static const struct bb_suite_default cpu_defaults[] = {
    {"cpu_max_prime", "10000"},
    {NULL, NULL},
};
static const char *const cpu_primary[] = {"sysbench-cpu.throughput_events/s",
                                          "sysbench-cpu.workload", NULL};

const struct bb_suite bb_suite_sysbench_cpu = {
    .name = "sysbench-cpu",
    .summary = "prime numbers computed by N threads (sysbench cpu), events per second",
    .runtime_key = "runtime",
    .default_runtime = "600s",
    .keys = cpu_keys,
    .nkeys = sizeof cpu_keys / sizeof cpu_keys[0],
    .loose = cpu_loose,
    .defaults = cpu_defaults,
    .build = build_cpu,
    .files = files,
    .primary = cpu_primary,
};

/* sysbench-memory: `--threads=N --time=T memory --memory-*=... [--rand-*=...] run`, LKP's
 * mem_operation passed as it is given (LKP's run defaults a mem_opt it never reads) */
static const struct option memory_options[] = {
    {"mem_blk_size", "--memory-block-size", "1K"},
    {"mem_total_size", "--memory-total-size", "100G"},
    {"mem_scope", "--memory-scope", "global"},
    {"mem_hugetlb", "--memory-hugetlb", "off"},
    {"mem_operation", "--memory-oper", "write"},
    {"mem_access_mode", "--memory-access-mode", "seq"},
    {"rand_type", "--rand-type", NULL},
    {"rand_pareto_h", "--rand-pareto-h", NULL},
    {NULL, NULL, NULL},
};
static const struct test memory = {"memory", 0, memory_options};
static int build_memory(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                        size_t errlen)
{
	/* --time bounds it, as does mem_total_size: whichever comes first */
	sr->timed = 1;
	return build_test(&memory, p, secs, sr, err, errlen);
}
static const struct keydef memory_keys[] = {
    VALUE("mem_blk_size"),
    VALUE("mem_total_size"),
    VALUE("mem_scope"),
    VALUE("mem_hugetlb"),
    VALUE("mem_operation"),
    VALUE("mem_access_mode"),
    VALUE("rand_type"),
    VALUE("rand_pareto_h"),
    {C_BLOCK, "nr_processes", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    /* LKP's numactl binding of each process (lib/numactl.sh): one node here, recorded */
    {C_BLOCK, "cpu_node_bind", "lkp.cpu_node_bind", K_NOTE, 0, BB_LEVEL_NOTE, C_NONE, NULL, NULL},
    {C_BLOCK, "mem_node_bind", "lkp.mem_node_bind", K_NOTE, 0, BB_LEVEL_NOTE, C_NONE, NULL, NULL},
    COMMON_KEYS,
};
static const char *const memory_loose[] = {"runtime",         "nr_processes",
                                           "nr_threads",      "cpu_node_bind",
                                           "mem_node_bind",   "mem_blk_size",
                                           "mem_total_size",  "mem_scope",
                                           "mem_hugetlb",     "mem_operation",
                                           "mem_access_mode", "rand_type",
                                           "rand_pareto_h",   NULL};
static const struct bb_suite_default memory_defaults[] = {
    {"nr_processes", "1"},      {"mem_blk_size", "1K"}, {"mem_total_size", "100G"},
    {"mem_scope", "global"},    {"mem_hugetlb", "off"}, {"mem_operation", "write"},
    {"mem_access_mode", "seq"}, {NULL, NULL},
};
static const char *const memory_primary[] = {"sysbench-memory.throughput_MB/s",
                                             "sysbench-memory.throughput_ops/s", NULL};

const struct bb_suite bb_suite_sysbench_memory = {
    .name = "sysbench-memory",
    .summary = "memory read or written in blocks by N threads (sysbench memory), MiB/s",
    .runtime_key = "runtime",
    .default_runtime = "600s",
    .keys = memory_keys,
    .nkeys = sizeof memory_keys / sizeof memory_keys[0],
    .loose = memory_loose,
    .defaults = memory_defaults,
    .build = build_memory,
    .files = files,
    .primary = memory_primary,
};

/* sysbench-threads: `--threads=N --time=T --thread-yields=Y --thread-locks=L threads run` */
static const struct option threads_options[] = {
    {"thread_yields", "--thread-yields", "1000"},
    {"thread_locks", "--thread-locks", "8"},
    {NULL, NULL, NULL},
};
static const struct test threads = {"threads", 1, threads_options};
static int build_threads(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                         size_t errlen)
{
	sr->timed = 1;
	return build_test(&threads, p, secs, sr, err, errlen);
}
static const struct keydef threads_keys[] = {VALUE("thread_yields"), VALUE("thread_locks"),
                                             COMMON_KEYS};
static const char *const threads_loose[] = {"runtime", "nr_threads", "thread_yields",
                                            "thread_locks", NULL};
static const struct bb_suite_default threads_defaults[] = {
    {"thread_yields", "1000"},
    {"thread_locks", "8"},
    {NULL, NULL},
};
static const char *const threads_primary[] = {"sysbench-threads.throughput_events/s",
                                              "sysbench-threads.workload", NULL};

const struct bb_suite bb_suite_sysbench_threads = {
    .name = "sysbench-threads",
    .summary = "N threads locking mutexes and yielding the CPU (sysbench threads), events/s",
    .runtime_key = "runtime",
    .default_runtime = "600s",
    .keys = threads_keys,
    .nkeys = sizeof threads_keys / sizeof threads_keys[0],
    .loose = threads_loose,
    .defaults = threads_defaults,
    .build = build_threads,
    .files = files,
    .primary = threads_primary,
};

/* sysbench-mutex: `--threads=N --time=T mutex --mutex-num=M --mutex-locks=L --mutex-loops=K
 * run`; each thread does one event of mutex_locks locks, which --time does not cut short:
 * runtime only bounds it */
static const struct option mutex_options[] = {
    {"mutex_num", "--mutex-num", "4096"},
    {"mutex_locks", "--mutex-locks", "50000"},
    {"mutex_loops", "--mutex-loops", "10000"},
    {NULL, NULL, NULL},
};
static const struct test mutex = {"mutex", 0, mutex_options};
static int build_mutex(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                       size_t errlen)
{
	int rc = build_test(&mutex, p, secs, sr, err, errlen);
	sr->nominal_s = 1;
	return rc;
}
static const struct keydef mutex_keys[] = {VALUE("mutex_num"), VALUE("mutex_locks"),
                                           VALUE("mutex_loops"), COMMON_KEYS};
static const char *const mutex_loose[] = {"runtime",     "nr_threads",  "mutex_num",
                                          "mutex_locks", "mutex_loops", NULL};
static const struct bb_suite_default mutex_defaults[] = {
    {"mutex_num", "4096"},
    {"mutex_locks", "50000"},
    {"mutex_loops", "10000"},
    {NULL, NULL},
};
static const char *const mutex_primary[] = {"sysbench-mutex.runtime/thread.avg",
                                            "sysbench-mutex.latency_ms.avg", NULL};

const struct bb_suite bb_suite_sysbench_mutex = {
    .name = "sysbench-mutex",
    .summary = "N threads taking a few of many mutexes (sysbench mutex), its time",
    .runtime_key = "runtime",
    .default_runtime = "600s",
    .keys = mutex_keys,
    .nkeys = sizeof mutex_keys / sizeof mutex_keys[0],
    .loose = mutex_loose,
    .defaults = mutex_defaults,
    .build = build_mutex,
    .files = files,
    .primary = mutex_primary,
};
