/* Suite definitions: a run's parameters -> servers, clients, modules, files (see suites.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/job.h"
#include "host/job/suites.h"

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

const char *bb_param_get(const struct bb_param *params, size_t n, const char *name, const char *def)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(params[i].name, name))
			return params[i].value;
	return def;
}

const char *bb_suite_default_runtime(const char *suite)
{
	return strcmp(suite, "stress-ng") ? "300s" : "60s";
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
static int common(const char *suite, const struct bb_param *p, size_t n, struct bb_suite_run *sr,
                  double *runtime, char *err, size_t errlen)
{
	double grace;
	const char *rt = bb_param_get(p, n, "runtime", bb_suite_default_runtime(suite));
	const char *to = bb_param_get(p, n, "timeout", "30s");
	sr->suite = suite;
	sr->iterations = atoi(bb_param_get(p, n, "iterations", "1"));
	if (bb_parse_duration(rt, runtime) || *runtime <= 0) {
		snprintf(err, errlen, "runtime: '%s' is not a positive duration", rt);
		return -EINVAL;
	}
	if (bb_parse_duration(to, &grace)) {
		snprintf(err, errlen, "timeout: '%s' is not a duration", to);
		return -EINVAL;
	}
	sr->grace_s = grace;
	for (size_t i = 0; i < n; i++)
		if (!strncmp(p[i].name, "sysctl.", 7) &&
		    argv_addf(&sr->sysctls, "%s=%s", p[i].name + 7, p[i].value))
			return -ENOMEM;
	const char *cpus = bb_param_get(p, n, "affinity.server", NULL);
	if (cpus && !(sr->server_cpus = strdup(cpus)))
		return -ENOMEM;
	cpus = bb_param_get(p, n, "affinity.client", NULL);
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

static int netperf_run(const struct bb_param *p, size_t n, struct bb_suite_run *sr, char *err,
                       size_t errlen)
{
	double runtime;
	int rc = common("netperf", p, n, sr, &runtime, err, errlen);
	if (rc)
		return rc;
	const char *test = bb_param_get(p, n, "test", "TCP_STREAM");
	const struct bb_netperf_test *t = bb_netperf_test_find(test);
	if (!t) {
		snprintf(err, errlen, "test: unknown netperf test '%s'", test);
		return -EINVAL;
	}
	int v6 = !strcmp(bb_param_get(p, n, "ip", "ipv4"), "ipv6");
	const char *gopts = bb_param_get(p, n, "global_options", "");
	const char *topts = bb_param_get(p, n, "test_options", "");
	const char *send = bb_param_get(p, n, "send_size", NULL);
	const char *sock = bb_param_get(p, n, "socket_buffer_size", NULL);
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
	         bb_param_get(p, n, "nr_threads", "1"));
	if (t->sctp && bb_strv_add(&sr->modules, "sctp"))
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

static int stressng_run(const struct bb_param *p, size_t n, struct bb_suite_run *sr, char *err,
                        size_t errlen)
{
	double runtime;
	long count;
	int pct;
	int rc = common("stress-ng", p, n, sr, &runtime, err, errlen);
	if (rc)
		return rc;
	const char *test = bb_param_get(p, n, "test", NULL);
	const char *nr = bb_param_get(p, n, "nr_threads", "1");
	if (!test) {
		snprintf(err, errlen, "stress-ng: no stressor ('test')");
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
	struct bb_strv *c = &sr->client_argv;
	/* stress-ng logs to stderr; --log-file copies the log (metrics included) to stdout,
	 * which the init parses */
	if (bb_strv_add(c, "/usr/bin/stress-ng") || bb_strv_add(c, "--timeout") ||
	    argv_addf(c, "%ld", secs) || bb_strv_add(c, "--times") || bb_strv_add(c, "--verify") ||
	    bb_strv_add(c, "--metrics") || bb_strv_add(c, "--no-rand-seed") ||
	    bb_strv_add(c, "--log-file") || bb_strv_add(c, "/proc/self/fd/1") ||
	    argv_addf(c, "--%s", test) || bb_strv_add(c, instances))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(p[i].name, "stress-ng.", 10))
			continue;
		const char *opt = p[i].name + 10;
		const struct bb_sng_opt *o = bb_sng_opt_find(opt);
		if (o && !o->arg) {
			if (!strcmp(p[i].value, "true") && argv_addf(c, "--%s", opt))
				return -ENOMEM;
			continue;
		}
		if (argv_addf(c, "--%s", opt) || bb_strv_add(c, p[i].value))
			return -ENOMEM;
	}
	for (size_t i = 0; i < sizeof sng_modules / sizeof sng_modules[0]; i++)
		if (!strcmp(test, sng_modules[i].stressor) &&
		    bb_strv_add(&sr->modules, sng_modules[i].module))
			return -ENOMEM;
	if (bb_strv_add(&sr->files, "/usr/bin/stress-ng"))
		return -ENOMEM;
	return 0;
}

int bb_suite_run(const char *suite, const struct bb_param *params, size_t nparams,
                 struct bb_suite_run *sr, char *err, size_t errlen)
{
	int rc;
	memset(sr, 0, sizeof *sr);
	if (!strcmp(suite, "netperf"))
		rc = netperf_run(params, nparams, sr, err, errlen);
	else if (!strcmp(suite, "stress-ng"))
		rc = stressng_run(params, nparams, sr, err, errlen);
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
