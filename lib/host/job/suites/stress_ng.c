/*
 * stress-ng, as LKP's programs/stress-ng/run runs it: one client `stress-ng --timeout T
 * --times --verify --metrics --no-rand-seed --log-file /proc/self/fd/1 --STRESSOR N
 * [--OPTION VALUE...]` (the log copy puts the metrics on stdout); nr_threads N gives N
 * instances, 100% gives 0 (stress-ng: one per online CPU), another P% gives P% clients of 1
 * instance. Debian testing's stress-ng (config/inputs.lock: LKP's jobs name stressors of
 * stress-ng's git master); its options are generated (generated/stressng_opts.c). Parser:
 * init/parse_stressng.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/stressng_opts.h"
#include "host/job/suites/suite.h"
#include "host/job/units.h"

/* A stress-ng long option or stressor of the pinned version, or NULL. */
static const struct bb_sng_opt *sng_opt_find(const char *name)
{
	size_t lo = 0, hi = bb_sng_nopts;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, bb_sng_opts[mid].name);
		if (!c)
			return &bb_sng_opts[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* LKP's jobs name stressors of stress-ng's git master: a stressor the image's stress-ng lacks
 * is a warning, and fails only its run (stress-ng refuses the option). */
static int check_stressor(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	const struct bb_sng_opt *o = sng_opt_find(s);
	const char *sug = NULL;
	unsigned best = 1000;
	if (o && o->stressor)
		return 0;
	for (size_t i = 0; i < bb_sng_nopts; i++)
		if (bb_sng_opts[i].stressor && job_near(s, bb_sng_opts[i].name, &best))
			sug = bb_sng_opts[i].name;
	return jwarn(w, m,
	             "%s: stress-ng %s (the image's) has no stressor '%s': that run will "
	             "fail%s%s%s",
	             key, bb_sng_version, s, sug ? " (did you mean '" : "", sug ? sug : "",
	             sug ? "'?)" : "");
}

static int check_class(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (job_one_of(s, bb_sng_classes))
		return 0;
	const char *sug = job_nearest_in(s, bb_sng_classes);
	return jfail(w, m, "%s: unknown stress-ng class '%s'%s%s%s", key, s,
	             sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "");
}

static const struct keydef keys[] = {
    {C_BLOCK, "test", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_stressor},
    {C_BLOCK, "nr_threads", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "testtime", "runtime", K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "class", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_class},
    {C_BLOCK, "method", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "mode", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "type", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "sched", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "advise", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "hdd_opts", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
};

/* stress-ng options benchboot sets itself. */
static const char *const reserved[] = {
    "timeout",      "times",   "verify",   "metrics", "metrics-brief",
    "no-rand-seed", "yaml",    "log-file", "job",     "help",
    "version",      "dry-run", NULL};

/* A stress-ng option in `stress-ng:`: `vm-bytes: 1G`, `vm-keep: true`. */
static int option(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	const char *name = job_scalar(key);
	const struct bb_sng_opt *o = sng_opt_find(name);
	char label[128];
	snprintf(label, sizeof label, "stress-ng.%s", name);
	if (job_one_of(name, reserved))
		return jfail(w, key->start_mark,
		             "%s: set by benchboot (it runs stress-ng --timeout "
		             "T --times --verify --metrics --no-rand-seed; use testtime for T)",
		             label);
	if (!o) {
		unsigned best = 1000;
		const char *sug = NULL;
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (job_near(name, keys[i].key, &best))
				sug = keys[i].key;
		for (size_t i = 0; i < bb_sng_nopts; i++)
			if (job_near(name, bb_sng_opts[i].name, &best))
				sug = bb_sng_opts[i].name;
		return jfail(w, key->start_mark,
		             "unknown key '%s' in 'stress-ng:': neither a "
		             "benchboot key nor a stress-ng %s option%s%s%s",
		             name, bb_sng_version, sug ? " (did you mean '" : "", sug ? sug : "",
		             sug ? "'?)" : "");
	}
	if (o->stressor)
		return jfail(w, key->start_mark,
		             "%s: '%s' is a stressor: name it in 'test' (one "
		             "stressor per run; a list in 'test' is an axis)",
		             label, name);
	struct keydef k = {C_BLOCK, name, NULL, K_IGNORE, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL};
	struct bb_jvalue *v;
	size_t n;
	int axis, rc;
	if (!o->arg) {
		if (!job_is_null(val) &&
		    (val->type != YAML_SCALAR_NODE ||
		     (strcmp(job_scalar(val), "true") && strcmp(job_scalar(val), "false"))))
			return jfail(w, val->start_mark,
			             "%s: a flag takes no value (write '%s:' or "
			             "'%s: true')",
			             label, name, name);
		if (!(v = calloc(1, sizeof *v)) ||
		    !(v->s = strdup(job_is_null(val) ? "true" : job_scalar(val)))) {
			free(v);
			return -ENOMEM;
		}
		v->mark = job_mark_of(val->start_mark);
		return job_add_param(w, key->start_mark, label, label, v, 1, 0, BB_LEVEL_RUN);
	}
	if ((rc = job_take_values(w, &k, label, val, &v, &n, &axis)))
		return rc;
	for (size_t i = 0; i < n; i++)
		if (!v[i].s[0] || strchr(v[i].s, '\n') || v[i].s[0] == '-') {
			yaml_mark_t vm = {0, (size_t)v[i].mark.line - 1, (size_t)v[i].mark.col - 1};
			rc = jfail(w, vm, "%s: '%s' is not a usable option value", label, v[i].s);
			job_values_free(v, n);
			return rc;
		}
	return job_add_param(w, key->start_mark, label, label, v, n, axis, BB_LEVEL_RUN);
}

static int owns_option(const char *name)
{
	return sng_opt_find(name) != NULL;
}

static int check_doc(struct walker *w, const struct bb_jdoc *d)
{
	if (bb_jdoc_get(d, "test") || bb_jdoc_get(d, "class"))
		return 0;
	return jfail(w, job_ymark(d->mark),
	             "missing key 'test' in 'stress-ng:' (the stressor, "
	             "e.g. cpu or icmp-flood) or 'class'");
}

/* Stressors that need a kernel module the kernel may have built as one. */
static const struct {
	const char *stressor, *module;
} modules[] = {
    {"sctp", "sctp"},
    {"dccp", "dccp"},
};

/* What LKP's programs/stress-ng/run sets up for given stressors (setup_test): sysctls and
 * options. */
static const struct {
	const char *tests; /* space-separated */
	const char *sysctl;
} test_sysctls[] = {
    {"mq", "fs.mqueue.queues_max=2048"},
    {"mq", "fs.mqueue.msg_max=2048"},
    {"aio aiol", "fs.aio-max-nr=1048576"},
    {"inotify dnotify", "fs.inotify.max_user_instances=8192"},
    {"inotify dnotify", "fs.inotify.max_user_watches=524288"},
    {"epoll sock sockmany udp udp-flood sockpair", "net.core.somaxconn=4096"},
};
static const struct {
	const char *tests;
	const char *option;
} test_opts[] = {
    {"sockpair bigheap brk loadavg memthrash mmaphuge mmapcow mmapmany pageswap secretmem",
     "--oom-avoid"},
    {"bad-ioctl sysinval cpu-online mlockmany oom-pipe bind-mount watchdog smi", "--pathological"},
};

/* --TEST-method M (or all, when the stressor's method list has `all`), --TEST-mode,
 * --TEST-type, --madvise-advise, --hdd-opts, --TEST-sched (or --workload-sched), then
 * --TEST N, as LKP's setup_test orders them. */
static int stressor_words(const struct bb_kvs *p, const char *test, const char *instances,
                          struct bb_strv *c)
{
	const struct bb_sng_opt *so = sng_opt_find(test);
	const char *method = bb_kvs_get(p, "method");
	const char *mode = bb_kvs_get(p, "mode");
	const char *type = bb_kvs_get(p, "type");
	const char *advise = bb_kvs_get(p, "advise");
	const char *hdd = bb_kvs_get(p, "hdd_opts");
	const char *sched = bb_kvs_get(p, "sched");
	char opt[128];
	for (size_t i = 0; i < sizeof test_opts / sizeof test_opts[0]; i++)
		if (bb_suite_word_in(test, test_opts[i].tests) &&
		    bb_strv_add(c, test_opts[i].option))
			return -ENOMEM;
	if (!method && so && so->method_all)
		method = "all";
	if (method && (bb_suite_argv_addf(c, "--%s-method", test) || bb_strv_add(c, method)))
		return -ENOMEM;
	if (mode && (bb_suite_argv_addf(c, "--%s-mode", test) || bb_strv_add(c, mode)))
		return -ENOMEM;
	if (type && (bb_suite_argv_addf(c, "--%s-type", test) || bb_strv_add(c, type)))
		return -ENOMEM;
	if (advise && (bb_strv_add(c, "--madvise-advise") || bb_strv_add(c, advise)))
		return -ENOMEM;
	if (hdd && (bb_strv_add(c, "--hdd-opts") || bb_strv_add(c, hdd)))
		return -ENOMEM;
	if (sched) {
		snprintf(opt, sizeof opt, "%s-sched", test);
		const struct bb_sng_opt *o = sng_opt_find(opt);
		if (bb_suite_argv_addf(c, "--%s", o ? opt : "workload-sched") ||
		    bb_strv_add(c, sched))
			return -ENOMEM;
	}
	if (bb_suite_argv_addf(c, "--%s", test) || bb_strv_add(c, instances))
		return -ENOMEM;
	return 0;
}

/*
 * stress-ng as LKP's programs/stress-ng/run runs it: --timeout TESTTIME --times --verify
 * --metrics --no-rand-seed, the stressor's own setup options and words (stressor_words); a
 * class without a test: --sequential N --class C. benchboot adds --log-file /proc/self/fd/1
 * (the metrics on stdout) and the job's raw stress-ng options.
 */
static int build(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	long count;
	int pct;
	const char *test = bb_kvs_get(p, "test");
	const char *cls = bb_kvs_get(p, "class");
	const char *nr = bb_kvs_get_or(p, "nr_threads", "1");
	if (!test && !cls) {
		snprintf(err, errlen, "stress-ng: no stressor ('test') and no 'class'");
		return -EINVAL;
	}
	if (bb_parse_count(nr, &count, &pct)) {
		snprintf(err, errlen, "nr_threads: '%s' is not a count or a percentage", nr);
		return -EINVAL;
	}
	sr->nominal_s = sr->runtime_s = (double)secs;
	sr->timed = 1;
	/* stress-ng takes a count, not a percentage: 100% is its 0 (one per online CPU);
	 * another P% becomes P% clients of one instance each (their stats add up). */
	const char *instances = "1";
	char buf[24];
	if (!pct) {
		snprintf(buf, sizeof buf, "%ld", count);
		instances = buf;
		snprintf(sr->client_count, sizeof sr->client_count, "1");
	} else if (count == 100) {
		instances = "0";
		snprintf(sr->client_count, sizeof sr->client_count, "1");
	} else {
		snprintf(sr->client_count, sizeof sr->client_count, "%ld%%", count);
	}
	/* LKP: kernel.sched_autogroup_enabled=0 always, then the stressor's own sysctls */
	if (bb_suite_add_sysctl(sr, "kernel.sched_autogroup_enabled=0"))
		return -ENOMEM;
	for (size_t i = 0; test && i < sizeof test_sysctls / sizeof test_sysctls[0]; i++)
		if (bb_suite_word_in(test, test_sysctls[i].tests) &&
		    bb_suite_add_sysctl(sr, test_sysctls[i].sysctl))
			return -ENOMEM;
	if (test && !strcmp(test, "ping-sock")) {
		/* LKP: "0 NR_THREADS"; a percentage is resolved only on the machine, so every
		 * group id may open ping sockets then */
		char kv[80];
		snprintf(kv, sizeof kv, "net.ipv4.ping_group_range=0 %s", pct ? "2147483647" : buf);
		if (bb_suite_add_sysctl(sr, kv))
			return -ENOMEM;
	}
	struct bb_strv *c = &sr->client_argv;
	if (bb_strv_add(c, "/usr/bin/stress-ng") || bb_strv_add(c, "--timeout") ||
	    bb_suite_argv_addf(c, "%ld", secs) || bb_strv_add(c, "--times") ||
	    bb_strv_add(c, "--verify") || bb_strv_add(c, "--metrics") ||
	    bb_strv_add(c, "--no-rand-seed") || bb_strv_add(c, "--log-file") ||
	    bb_strv_add(c, "/proc/self/fd/1"))
		return -ENOMEM;
	if (!test) {
		/* LKP's setup_class: spawn and exec cannot run as root */
		int minimize = !strcmp(cls, "memory") || !strcmp(cls, "os");
		if (bb_strv_add(c, "--sequential") || bb_strv_add(c, instances) ||
		    bb_strv_add(c, "--class") || bb_strv_add(c, cls) ||
		    (minimize && bb_strv_add(c, "--minimize")) || bb_strv_add(c, "--exclude") ||
		    bb_strv_add(c, strcmp(cls, "memory") ? "spawn,exec" : "spawn,exec,stack"))
			return -ENOMEM;
	} else if (stressor_words(p, test, instances, c)) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->n; i++) {
		if (strncmp(p->v[i].key, "stress-ng.", 10))
			continue;
		const char *opt = p->v[i].key + 10;
		const struct bb_sng_opt *o = sng_opt_find(opt);
		if (o && !o->arg) {
			if (!strcmp(p->v[i].value, "true") && bb_suite_argv_addf(c, "--%s", opt))
				return -ENOMEM;
			continue;
		}
		if (bb_suite_argv_addf(c, "--%s", opt) || bb_strv_add(c, p->v[i].value))
			return -ENOMEM;
	}
	for (size_t i = 0; test && i < sizeof modules / sizeof modules[0]; i++)
		if (!strcmp(test, modules[i].stressor) &&
		    bb_suite_add_unique(&sr->modules, modules[i].module))
			return -ENOMEM;
	if (bb_strv_add(&sr->files, "/usr/bin/stress-ng"))
		return -ENOMEM;
	return 0;
}

static const char *const loose[] = {"testtime", "class", "nr_threads", "test",     "method", "mode",
                                    "type",     "sched", "advise",     "hdd_opts", NULL};
/* which stress-ng ran (LKP's jobs name stressors of newer ones) */
static const struct bb_suite_default defaults[] = {
    {"stress-ng_version", bb_sng_version},
    {NULL, NULL},
};
static const struct bb_suite_file files[] = {
    {"/usr/bin/stress-ng", "usr/bin/stress-ng", 0},
    {NULL, NULL, 0},
};
static const char *const primary[] = {"*.ops_per_sec", NULL};

const struct bb_suite bb_suite_stress_ng = {
    .name = "stress-ng",
    .summary = "stressors of the kernel's subsystems, ops per second",
    .runtime_key = "testtime",
    .default_runtime = "1s",
    .keys = keys,
    .nkeys = sizeof keys / sizeof keys[0],
    .loose = loose,
    .block_other = option,
    .owns_option = owns_option,
    .check_doc = check_doc,
    .defaults = defaults,
    .build = build,
    .files = files,
    .primary = primary,
};
