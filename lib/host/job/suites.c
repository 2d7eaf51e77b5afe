/* Suite definitions: a run's parameters -> servers, clients, modules, files (see suites.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites.h"
#include "host/job/units.h"

const struct bb_netperf_test bb_netperf_tests[] = {
    {"TCP_STREAM", 0, 0},       {"TCP_MAERTS", 0, 0}, {"TCP_SENDFILE", 0, 0}, {"TCP_RR", 1, 0},
    {"TCP_CRR", 1, 0},          {"UDP_STREAM", 0, 0}, {"UDP_RR", 1, 0},       {"SCTP_STREAM", 0, 1},
    {"SCTP_STREAM_MANY", 0, 1}, {"SCTP_RR", 1, 1},    {"SCTP_RR_MANY", 1, 1},
};
const size_t bb_netperf_ntests = sizeof bb_netperf_tests / sizeof bb_netperf_tests[0];

#define NETSERVER_PORT "12865"

const struct bb_netperf_test *bb_netperf_test_find(const char *name)
{
	for (size_t i = 0; i < bb_netperf_ntests; i++)
		if (!strcmp(bb_netperf_tests[i].name, name))
			return &bb_netperf_tests[i];
	return NULL;
}

const struct bb_sng_opt *bb_sng_opt_find(const char *name)
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

const char *bb_suite_default_runtime(const char *suite)
{
	return strcmp(suite, "stress-ng") ? "300s" : "1s";
}

static int argv_addf(struct bb_strv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int argv_addf(struct bb_strv *a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return bb_strv_add(a, buf);
}

/* Append the blank-separated words of s. */
static int argv_split(struct bb_strv *a, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, " \t");
		if (n) {
			char *w = strndup(s, n);
			int rc = w ? bb_strv_add(a, w) : -ENOMEM;
			free(w);
			if (rc)
				return rc;
		}
		s += n;
		s += strspn(s, " \t");
	}
	return 0;
}

static int argv_has(const struct bb_strv *a, const char *s)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i], s))
			return 1;
	return 0;
}

void bb_suite_run_free(struct bb_suite_run *sr)
{
	bb_strv_free(&sr->modules);
	bb_strv_free(&sr->sysctls);
	bb_strv_free(&sr->server_argv);
	bb_strv_free(&sr->client_argv);
	bb_strv_free(&sr->files);
	free(sr->server_cpus);
	free(sr->client_cpus);
	memset(sr, 0, sizeof *sr);
}

/* Parameters every suite shares: iterations, runtime, grace, sysctls, affinity. */
static int common(const char *suite, const struct bb_kvs *p, struct bb_suite_run *sr,
                  double *runtime, char *err, size_t errlen)
{
	double grace;
	const char *rt = bb_kvs_get_or(p, "runtime", bb_suite_default_runtime(suite));
	const char *to = bb_kvs_get_or(p, "timeout", "30s");
	sr->suite = suite;
	sr->iterations = atoi(bb_kvs_get_or(p, "iterations", "1"));
	if (bb_parse_duration(rt, runtime) || *runtime <= 0) {
		snprintf(err, errlen, "runtime: '%s' is not a positive duration", rt);
		return -EINVAL;
	}
	if (bb_parse_duration(to, &grace)) {
		snprintf(err, errlen, "timeout: '%s' is not a duration", to);
		return -EINVAL;
	}
	sr->grace_s = grace;
	for (size_t i = 0; i < p->n; i++)
		if (!strncmp(p->v[i].key, "sysctl.", 7) &&
		    argv_addf(&sr->sysctls, "%s=%s", p->v[i].key + 7, p->v[i].value))
			return -ENOMEM;
	/* LKP's net-buffer setup: socket buffers of MemTotal / nr_threads / 16 bytes, sctp
	 * loaded, its buffers up to that size; the init computes the size (@netbuf:N@) */
	if (bb_kvs_get(p, "net-buffer")) {
		static const char *const keys[] = {"net.core.wmem_max",     "net.core.rmem_max",
		                                   "net.core.wmem_default", "net.core.rmem_default",
		                                   "net.sctp.sctp_rmem",    "net.sctp.sctp_wmem"};
		const char *nr = bb_kvs_get_or(p, "nr_threads", "1");
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (argv_addf(&sr->sysctls, "%s=%s@netbuf:%s@", keys[i],
			              strstr(keys[i], "sctp") ? "4096 349500 " : "", nr))
				return -ENOMEM;
		if (bb_strv_add(&sr->modules, "sctp"))
			return -ENOMEM;
	}
	const char *cpus = bb_kvs_get(p, "affinity.server");
	if (cpus && !(sr->server_cpus = strdup(cpus)))
		return -ENOMEM;
	cpus = bb_kvs_get(p, "affinity.client");
	if (cpus && !(sr->client_cpus = strdup(cpus)))
		return -ENOMEM;
	return 0;
}

/*
 * How many measurements netperf makes with its confidence options, as netsh.c decides:
 * -i MAX[,MIN] (no comma: MIN = MAX; MAX >= MIN; both clamped to 3..30), and -I without -i
 * makes them 3 and 10. Default 1 and 1.
 */
static void netperf_iterations(const char *opts, int *min, int *max)
{
	const char *s = opts;
	*min = *max = 1;
	while (s && *s) {
		size_t n = strcspn(s, " \t");
		const char *arg = NULL;
		char opt = 0;
		if (n >= 2 && s[0] == '-' && (s[1] == 'i' || s[1] == 'I')) {
			opt = s[1];
			arg = n > 2 ? s + 2 : s + n + strspn(s + n, " \t");
		}
		if (opt == 'i') {
			int a = atoi(arg);
			const char *comma = strchr(arg, ',');
			size_t alen = strcspn(arg, " \t");
			int b = comma && (size_t)(comma - arg) < alen ? atoi(comma + 1) : a;
			*max = a;
			*min = b;
			if (*max < *min)
				*max = *min;
			*max = *max < 3 ? 3 : *max > 30 ? 30 : *max;
			*min = *min < 3 ? 3 : *min > 30 ? 30 : *min;
		} else if (opt == 'I') {
			if (*min == 1)
				*min = 3;
			if (*max == 1)
				*max = 10;
		}
		s += n;
		s += strspn(s, " \t");
	}
}

int bb_netperf_without_confidence(const char *opts, char *out, size_t len)
{
	size_t o = 0;
	int dropped = 0;
	*out = 0;
	for (const char *s = opts + strspn(opts, " \t"); *s; s += strspn(s, " \t")) {
		size_t n = strcspn(s, " \t");
		if (n >= 2 && s[0] == '-' && (s[1] == 'i' || s[1] == 'I')) {
			dropped = 1;
			s += n;
			if (n == 2) /* the value is the next word */
				s += strspn(s, " \t"), s += strcspn(s, " \t");
			continue;
		}
		if (o + n + 2 > len)
			return -ENAMETOOLONG;
		o += (size_t)snprintf(out + o, len - o, "%s%.*s", o ? " " : "", (int)n, s);
		s += n;
	}
	return dropped;
}

static int netperf_run(const struct bb_kvs *p, struct bb_suite_run *sr, char *err, size_t errlen)
{
	double runtime;
	int rc = common("netperf", p, sr, &runtime, err, errlen);
	if (rc)
		return rc;
	const char *test = bb_kvs_get_or(p, "test", "TCP_STREAM");
	const struct bb_netperf_test *t = bb_netperf_test_find(test);
	if (!t) {
		snprintf(err, errlen, "test: unknown netperf test '%s'", test);
		return -EINVAL;
	}
	int v6 = !strcmp(bb_kvs_get_or(p, "ip", "ipv4"), "ipv6");
	const char *gopts = bb_kvs_get_or(p, "global_options", "");
	const char *topts = bb_kvs_get_or(p, "test_options", "");
	const char *send = bb_kvs_get(p, "send_size");
	const char *sock = bb_kvs_get(p, "socket_buffer_size");
	long secs = lround(runtime);
	if (secs < 1)
		secs = 1;
	int imin, imax;
	netperf_iterations(gopts, &imin, &imax);
	sr->nominal_s = (double)secs * imin;
	sr->runtime_s = (double)secs * imax;

	if (bb_strv_add(&sr->server_argv, "/usr/bin/netserver") ||
	    bb_strv_add(&sr->server_argv, v6 ? "-6" : "-4") || bb_strv_add(&sr->server_argv, "-D"))
		return -ENOMEM;
	snprintf(sr->server_ready, sizeof sr->server_ready, "tcp:%s:%s", v6 ? "::1" : "127.0.0.1",
	         NETSERVER_PORT);
	struct bb_strv *c = &sr->client_argv;
	if (bb_strv_add(c, "/usr/bin/netperf") || bb_strv_add(c, v6 ? "-6" : "-4") ||
	    bb_strv_add(c, "-H") || bb_strv_add(c, v6 ? "::1" : "127.0.0.1") ||
	    bb_strv_add(c, "-t") || bb_strv_add(c, test) || bb_strv_add(c, "-c") ||
	    bb_strv_add(c, "-C") || bb_strv_add(c, "-l") || argv_addf(c, "%ld", secs) ||
	    argv_split(c, gopts))
		return -ENOMEM;
	if (send || sock || *topts) {
		if (bb_strv_add(c, "--"))
			return -ENOMEM;
		if (send && (bb_strv_add(c, "-m") || bb_strv_add(c, send)))
			return -ENOMEM;
		if (sock && (bb_strv_add(c, "-s") || bb_strv_add(c, sock) || bb_strv_add(c, "-S") ||
		             bb_strv_add(c, sock)))
			return -ENOMEM;
		if (argv_split(c, topts))
			return -ENOMEM;
	}
	snprintf(sr->client_count, sizeof sr->client_count, "%s",
	         bb_kvs_get_or(p, "nr_threads", "1"));
	if (t->sctp && !argv_has(&sr->modules, "sctp") && bb_strv_add(&sr->modules, "sctp"))
		return -ENOMEM;
	if (bb_strv_add(&sr->files, "/usr/bin/netperf") ||
	    bb_strv_add(&sr->files, "/usr/bin/netserver"))
		return -ENOMEM;
	return 0;
}

/* Stressors that need a kernel module the kernel may have built as one. */
static const struct {
	const char *stressor, *module;
} sng_modules[] = {
    {"sctp", "sctp"},
    {"dccp", "dccp"},
};

/* What LKP's programs/stress-ng/run sets up for given stressors (setup_test): sysctls and
 * options. */
static const struct {
	const char *tests; /* space-separated */
	const char *sysctl;
} sng_sysctls[] = {
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
} sng_test_opts[] = {
    {"sockpair bigheap brk loadavg memthrash mmaphuge mmapcow mmapmany pageswap secretmem",
     "--oom-avoid"},
    {"bad-ioctl sysinval cpu-online mlockmany oom-pipe bind-mount watchdog smi", "--pathological"},
};

static int word_in(const char *w, const char *list)
{
	size_t n = strlen(w);
	for (const char *p = list; *p;) {
		size_t k = strcspn(p, " ");
		if (k == n && !strncmp(p, w, n))
			return 1;
		p += k;
		p += strspn(p, " ");
	}
	return 0;
}

/* A sysctl of the run unless the job sets that key itself. */
static int add_sysctl(struct bb_suite_run *sr, const char *kv)
{
	size_t klen = strcspn(kv, "=");
	for (size_t i = 0; i < sr->sysctls.n; i++)
		if (!strncmp(sr->sysctls.v[i], kv, klen + 1))
			return 0;
	return bb_strv_add(&sr->sysctls, kv);
}

/*
 * stress-ng as LKP's programs/stress-ng/run runs it: --timeout TESTTIME --times --verify
 * --metrics --no-rand-seed, the stressor's own setup options, --TEST-method M (or all, when
 * the stressor's method list has `all`), --TEST-mode, --TEST-type, --madvise-advise,
 * --hdd-opts, --TEST-sched (or --workload-sched), then --TEST N; a class without a test:
 * --sequential N --class C. benchboot adds --log-file /proc/self/fd/1 (the metrics on
 * stdout) and the job's raw stress-ng options.
 */
static int stressng_run(const struct bb_kvs *p, struct bb_suite_run *sr, char *err, size_t errlen)
{
	double runtime;
	long count;
	int pct;
	int rc = common("stress-ng", p, sr, &runtime, err, errlen);
	if (rc)
		return rc;
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
	long secs = lround(runtime);
	if (secs < 1)
		secs = 1;
	sr->nominal_s = sr->runtime_s = (double)secs;
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
	if (add_sysctl(sr, "kernel.sched_autogroup_enabled=0"))
		return -ENOMEM;
	for (size_t i = 0; test && i < sizeof sng_sysctls / sizeof sng_sysctls[0]; i++)
		if (word_in(test, sng_sysctls[i].tests) && add_sysctl(sr, sng_sysctls[i].sysctl))
			return -ENOMEM;
	if (test && !strcmp(test, "ping-sock")) {
		/* LKP: "0 NR_THREADS"; a percentage is resolved only on the machine, so every
		 * group id may open ping sockets then */
		char kv[80];
		snprintf(kv, sizeof kv, "net.ipv4.ping_group_range=0 %s", pct ? "2147483647" : buf);
		if (add_sysctl(sr, kv))
			return -ENOMEM;
	}
	struct bb_strv *c = &sr->client_argv;
	if (bb_strv_add(c, "/usr/bin/stress-ng") || bb_strv_add(c, "--timeout") ||
	    argv_addf(c, "%ld", secs) || bb_strv_add(c, "--times") || bb_strv_add(c, "--verify") ||
	    bb_strv_add(c, "--metrics") || bb_strv_add(c, "--no-rand-seed") ||
	    bb_strv_add(c, "--log-file") || bb_strv_add(c, "/proc/self/fd/1"))
		return -ENOMEM;
	if (!test) {
		/* LKP's setup_class: spawn and exec cannot run as root */
		int minimize = !strcmp(cls, "memory") || !strcmp(cls, "os");
		if (bb_strv_add(c, "--sequential") || bb_strv_add(c, instances) ||
		    bb_strv_add(c, "--class") || bb_strv_add(c, cls) ||
		    (minimize && bb_strv_add(c, "--minimize")) || bb_strv_add(c, "--exclude") ||
		    bb_strv_add(c, strcmp(cls, "memory") ? "spawn,exec" : "spawn,exec,stack"))
			return -ENOMEM;
	} else {
		const struct bb_sng_opt *so = bb_sng_opt_find(test);
		const char *method = bb_kvs_get(p, "method");
		const char *mode = bb_kvs_get(p, "mode");
		const char *type = bb_kvs_get(p, "type");
		const char *advise = bb_kvs_get(p, "advise");
		const char *hdd = bb_kvs_get(p, "hdd_opts");
		const char *sched = bb_kvs_get(p, "sched");
		char opt[128];
		for (size_t i = 0; i < sizeof sng_test_opts / sizeof sng_test_opts[0]; i++)
			if (word_in(test, sng_test_opts[i].tests) &&
			    bb_strv_add(c, sng_test_opts[i].option))
				return -ENOMEM;
		if (!method && so && so->method_all)
			method = "all";
		if (method && (argv_addf(c, "--%s-method", test) || bb_strv_add(c, method)))
			return -ENOMEM;
		if (mode && (argv_addf(c, "--%s-mode", test) || bb_strv_add(c, mode)))
			return -ENOMEM;
		if (type && (argv_addf(c, "--%s-type", test) || bb_strv_add(c, type)))
			return -ENOMEM;
		if (advise && (bb_strv_add(c, "--madvise-advise") || bb_strv_add(c, advise)))
			return -ENOMEM;
		if (hdd && (bb_strv_add(c, "--hdd-opts") || bb_strv_add(c, hdd)))
			return -ENOMEM;
		if (sched) {
			snprintf(opt, sizeof opt, "%s-sched", test);
			const struct bb_sng_opt *o = bb_sng_opt_find(opt);
			if (argv_addf(c, "--%s", o ? opt : "workload-sched") ||
			    bb_strv_add(c, sched))
				return -ENOMEM;
		}
		if (argv_addf(c, "--%s", test) || bb_strv_add(c, instances))
			return -ENOMEM;
	}
	for (size_t i = 0; i < p->n; i++) {
		if (strncmp(p->v[i].key, "stress-ng.", 10))
			continue;
		const char *opt = p->v[i].key + 10;
		const struct bb_sng_opt *o = bb_sng_opt_find(opt);
		if (o && !o->arg) {
			if (!strcmp(p->v[i].value, "true") && argv_addf(c, "--%s", opt))
				return -ENOMEM;
			continue;
		}
		if (argv_addf(c, "--%s", opt) || bb_strv_add(c, p->v[i].value))
			return -ENOMEM;
	}
	for (size_t i = 0; test && i < sizeof sng_modules / sizeof sng_modules[0]; i++)
		if (!strcmp(test, sng_modules[i].stressor) &&
		    !argv_has(&sr->modules, sng_modules[i].module) &&
		    bb_strv_add(&sr->modules, sng_modules[i].module))
			return -ENOMEM;
	if (bb_strv_add(&sr->files, "/usr/bin/stress-ng"))
		return -ENOMEM;
	return 0;
}

int bb_suite_run(const char *suite, const struct bb_kvs *params, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	int rc;
	memset(sr, 0, sizeof *sr);
	if (!strcmp(suite, "netperf"))
		rc = netperf_run(params, sr, err, errlen);
	else if (!strcmp(suite, "stress-ng"))
		rc = stressng_run(params, sr, err, errlen);
	else {
		snprintf(err, errlen, "unknown suite '%s'", suite);
		rc = -EINVAL;
	}
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc)
		bb_suite_run_free(sr);
	return rc;
}
