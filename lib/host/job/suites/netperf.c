/*
 * netperf, as LKP's programs/netperf/run runs it: server `netserver -4 -D` (ready when
 * tcp:127.0.0.1:12865 accepts), nr_threads clients `netperf -4 -H 127.0.0.1 -t TEST -c -C -l
 * RUNTIME [global options] -- [-m SEND_SIZE] [-s N -S N] [test options]`, all at once. SCTP
 * tests need the sctp module. Built from Debian 13's source with SCTP (make netperf; Debian
 * 12's netperf has none). Parser: init/parse_netperf.c (LKP's programs/netperf/parse).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites/suite.h"

#define NETSERVER_PORT "12865"

static const struct {
	const char *name;
	int rr;   /* request/response: throughput in transactions/s */
	int sctp; /* needs the sctp module */
} tests[] = {
    {"TCP_STREAM", 0, 0},       {"TCP_MAERTS", 0, 0}, {"TCP_SENDFILE", 0, 0}, {"TCP_RR", 1, 0},
    {"TCP_CRR", 1, 0},          {"UDP_STREAM", 0, 0}, {"UDP_RR", 1, 0},       {"SCTP_STREAM", 0, 1},
    {"SCTP_STREAM_MANY", 0, 1}, {"SCTP_RR", 1, 1},    {"SCTP_RR_MANY", 1, 1},
};
#define NTESTS (sizeof tests / sizeof tests[0])

static int test_index(const char *name)
{
	for (size_t i = 0; i < NTESTS; i++)
		if (!strcmp(tests[i].name, name))
			return (int)i;
	return -1;
}

static int check_test(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	const char *sug = NULL;
	unsigned best = 1000;
	if (test_index(s) >= 0)
		return 0;
	for (size_t i = 0; i < NTESTS; i++)
		if (job_near(s, tests[i].name, &best))
			sug = tests[i].name;
	if (sug)
		return jfail(w, m, "%s: unknown netperf test '%s' (did you mean '%s'?)", key, s,
		             sug);
	return jfail(w, m,
	             "%s: unknown netperf test '%s' (known: TCP_STREAM, TCP_MAERTS, "
	             "TCP_SENDFILE, TCP_RR, TCP_CRR, UDP_STREAM, UDP_RR, SCTP_STREAM, "
	             "SCTP_STREAM_MANY, SCTP_RR, SCTP_RR_MANY)",
	             key, s);
}

/* netperf reads its sizes into a C int (its convert()): at most 2147483647 bytes, K, M and G
 * counted as powers of 1024. Checked after K_SIZE's own check (digits, then K, M or G). */
static int check_size(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	unsigned long long v = 0;
	const char *p = s;
	int fits = 1;
	for (; *p >= '0' && *p <= '9' && fits; p++)
		fits = (v = v * 10 + (unsigned long long)(*p - '0')) <= 2147483647ULL;
	int shift = !*p ? 0 : strchr("Kk", *p) ? 10 : strchr("Mm", *p) ? 20 : 30;
	if (fits && v <= 2147483647ULL >> shift)
		return 0;
	return jfail(w, m,
	             "%s: '%s' is more than netperf takes (at most 2147483647 bytes, "
	             "2047M: it reads a C int)",
	             key, s);
}

/* A netperf option string: blanks separate words; benchboot's own options are refused. */
static int check_args(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	static const struct {
		const char *opt, *why;
	} own[] = {
	    {"-H", "benchboot runs netserver on 127.0.0.1 (::1 with ip: ipv6)"},
	    {"-t", "set 'test'"},
	    {"-l", "set 'runtime'"},
	    {"-4", "set 'ip: ipv4'"},
	    {"-6", "set 'ip: ipv6'"},
	    {"-c", "benchboot always measures CPU (-c -C)"},
	    {"-C", "benchboot always measures CPU (-c -C)"},
	    {"-m", "set 'send_size'"},
	    {"-s", "set 'socket_buffer_size'"},
	    {"-S", "set 'socket_buffer_size'"},
	    {"-P", "benchboot's parser reads the headers"},
	    {"-v", "benchboot's parser reads verbosity 1"},
	    {"-f", "benchboot reports Mbit/s"},
	};
	char word[64];
	while (*s) {
		size_t n = strcspn(s, " \t");
		if (n && n < sizeof word) {
			memcpy(word, s, n);
			word[n] = 0;
			if (!strcmp(word, "--"))
				return jfail(w, m,
				             "%s: '--' is not needed: global_options go before it, "
				             "test_options after it",
				             key);
			for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
				if (!strcmp(word, own[i].opt))
					return jfail(w, m, "%s: '%s' is set by benchboot (%s)", key,
					             word, own[i].why);
		}
		s += n;
		s += strspn(s, " \t");
	}
	return 0;
}

/*
 * How many measurements netperf makes with its confidence options, as netsh.c decides:
 * -i MAX[,MIN] (no comma: MIN = MAX; MAX >= MIN; both clamped to 3..30), and -I without -i
 * makes them 3 and 10. Default 1 and 1.
 */
static void confidence_iterations(const char *opts, int *min, int *max)
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

/* netperf's global options OPTS without its confidence options (-i MAX[,MIN], -I LEVEL[,WIDTH]),
 * as a monitored iteration runs them (one measurement: docs/jobs.md "Monitors") into OUT: 1
 * when some were dropped, 0 when there were none, -ENAMETOOLONG when OUT is too small. */
static int netperf_without_confidence(const char *opts, char *out, size_t len)
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

/* A monitored iteration makes one measurement: the confidence options dropped (docs/jobs.md
 * "Monitors"). */
static int monitored(const struct bb_kvs *p, struct bb_kvs *twin, char *err, size_t errlen)
{
	const char *gopts = bb_kvs_get(p, "global_options");
	char nconf[512];
	int dropped = gopts ? netperf_without_confidence(gopts, nconf, sizeof nconf) : 0;
	if (dropped < 0) {
		snprintf(err, errlen, "global_options: too long");
		return -EINVAL;
	}
	return dropped ? bb_kvs_set(twin, "global_options", nconf) : 0;
}

static int build(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	const char *test = bb_kvs_get_or(p, "test", "TCP_STREAM");
	int t = test_index(test);
	if (t < 0) {
		snprintf(err, errlen, "test: unknown netperf test '%s'", test);
		return -EINVAL;
	}
	int v6 = !strcmp(bb_kvs_get_or(p, "ip", "ipv4"), "ipv6");
	const char *gopts = bb_kvs_get_or(p, "global_options", "");
	const char *topts = bb_kvs_get_or(p, "test_options", "");
	const char *send = bb_kvs_get(p, "send_size");
	const char *sock = bb_kvs_get(p, "socket_buffer_size");
	int imin, imax;
	confidence_iterations(gopts, &imin, &imax);
	sr->nominal_s = (double)secs * imin;
	sr->timed = 1;
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
	    bb_strv_add(c, "-C") || bb_strv_add(c, "-l") || bb_suite_argv_addf(c, "%ld", secs) ||
	    bb_suite_argv_split(c, gopts))
		return -ENOMEM;
	if (send || sock || *topts) {
		if (bb_strv_add(c, "--"))
			return -ENOMEM;
		if (send && (bb_strv_add(c, "-m") || bb_strv_add(c, send)))
			return -ENOMEM;
		if (sock && (bb_strv_add(c, "-s") || bb_strv_add(c, sock) || bb_strv_add(c, "-S") ||
		             bb_strv_add(c, sock)))
			return -ENOMEM;
		if (bb_suite_argv_split(c, topts))
			return -ENOMEM;
	}
	snprintf(sr->client_count, sizeof sr->client_count, "%s",
	         bb_kvs_get_or(p, "nr_threads", "1"));
	if (tests[t].sctp && bb_suite_add_unique(&sr->modules, "sctp"))
		return -ENOMEM;
	if (bb_strv_add(&sr->files, "/usr/bin/netperf") ||
	    bb_strv_add(&sr->files, "/usr/bin/netserver"))
		return -ENOMEM;
	return 0;
}

static const struct keydef keys[] = {
    {C_TOP, "ip", NULL, K_IP, F_AXIS, BB_LEVEL_RUN, C_NONE, "netperf", NULL},
    {C_TOP, "netserver", NULL, K_SERVER, 0, BB_LEVEL_RUN, C_NONE, "netperf", NULL},
    {C_SERVER, "netserver", NULL, K_SERVER, 0, BB_LEVEL_RUN, C_NONE, "netperf", NULL},
    {C_BLOCK, "test", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_test},
    {C_BLOCK, "send_size", NULL, K_SIZE, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_size},
    {C_BLOCK, "socket_buffer_size", NULL, K_SIZE, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_size},
    {C_BLOCK, "ip", NULL, K_IP, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "runtime", NULL, K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "nr_threads", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "iterations", NULL, K_POSINT, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "delay", "lkp.delay", K_NOTE, 0, BB_LEVEL_NOTE, C_NONE, NULL, NULL},
    {C_BLOCK, "global_options", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_args},
    {C_BLOCK, "test_options", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_args},
};

/* the `# - key` lines of LKP's programs/netperf/run */
static const char *const loose[] = {"runtime", "nr_threads", "ip",
                                    "test",    "send_size",  "socket_buffer_size",
                                    "delay",   "iterations", NULL};
static const struct bb_suite_default defaults[] = {
    {"test", "TCP_STREAM"},
    {"ip", "ipv4"},
    {NULL, NULL},
};
/* netperf needs one non-loopback address: the init's dummy interface */
static const char *const boot_modules[] = {"dummy", NULL};
static const struct bb_suite_file files[] = {
    {"/usr/bin/netperf", "build/netperf/netperf", 1},
    {"/usr/bin/netserver", "build/netperf/netserver", 1},
    {NULL, NULL, 0},
};
static const char *const primary[] = {"netperf.Throughput_Mbps", "netperf.Throughput_tps", NULL};

const struct bb_suite bb_suite_netperf = {
    .name = "netperf",
    .summary = "network throughput and latency over loopback or between two hosts",
    .runtime_key = "runtime",
    .default_runtime = "300s",
    .keys = keys,
    .nkeys = sizeof keys / sizeof keys[0],
    .loose = loose,
    .defaults = defaults,
    .build = build,
    .monitored = monitored,
    .boot_modules = boot_modules,
    .server_addr_opt = "-H",
    .server_cmd = "netserver -4 -D, or -6 with ip: ipv6",
    .files = files,
    .primary = primary,
};
