/*
 * The keys of a job file: where each may appear (its context), what parameter it sets, how its
 * value is checked (enum kind), and the checks of the values; the nearest key or word for a
 * message's "did you mean". The walk of the YAML (yamlwalk.c) looks keys up here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "host/editdist.h"
#include "host/job/cluster.h"
#include "host/job/job_internal.h"
#include "host/job/stressng_opts.h"
#include "host/job/suites.h"
#include "host/job/units.h"
#include "plan/plan.h"

/* Where a key is, as messages say it: "unknown key 'x' at the top level". */
const char *const job_ctx_names[] = {
    [C_TOP] = "at the top level",
    [C_SERVER] = "in 'if role server:'",
    [C_CLIENT] = "in 'if role client:'",
    [C_NETPERF] = "in 'netperf:'",
    [C_STRESSNG] = "in 'stress-ng:'",
    [C_CGROUP] = "in 'cgroup:'",
    [C_AFFINITY] = "in 'affinity:'",
    [C_NIC] = "in 'nic:'",
    [C_NONE] = "",
};

/* The options LKP's programs take at any level of a job (the `# - key` lines of
 * programs/netperf/run and programs/stress-ng/run): they may sit at the top level, beside
 * runtime. Keys of the program's block in job_keys[] below. */
static const char *const netperf_opts[] = {"runtime", "nr_threads", "ip",
                                           "test",    "send_size",  "socket_buffer_size",
                                           "delay",   "iterations", NULL};
static const char *const stressng_opts[] = {"testtime", "class",    "nr_threads", "test",
                                            "method",   "mode",     "type",       "sched",
                                            "advise",   "hdd_opts", NULL};

const struct keydef job_keys[] = {
    {C_TOP, "suite", NULL, K_SUITE, 0, BB_LEVEL_JOB, C_NONE, NULL},
    {C_TOP, "testcase", "suite", K_SUITE, 0, BB_LEVEL_JOB, C_NONE, NULL},
    {C_TOP, "cluster", NULL, K_CLUSTER, 0, BB_LEVEL_JOB, C_NONE, NULL},
    {C_TOP, "nr_threads", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_TOP, "runtime", NULL, K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_TOP, "testtime", "runtime", K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_TOP, "iterations", NULL, K_POSINT, 0, BB_LEVEL_RUN, C_NONE, NULL},
    {C_TOP, "timeout", NULL, K_GRACE, 0, BB_LEVEL_RUN, C_NONE, NULL},
    {C_TOP, "ip", NULL, K_IP, F_AXIS, BB_LEVEL_RUN, C_NONE, "netperf"},
    {C_TOP, "if role server", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_SERVER, NULL},
    {C_TOP, "if role client", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_CLIENT, NULL},
    {C_TOP, "netserver", NULL, K_SERVER, 0, BB_LEVEL_RUN, C_NONE, "netperf"},
    {C_TOP, "netperf", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_NETPERF, "netperf"},
    {C_TOP, "stress-ng", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_STRESSNG, "stress-ng"},
    {C_TOP, "cpufreq_governor", NULL, K_GOV, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_TOP, "kernel_cmdline", NULL, K_CMDLINE, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_TOP, "cgroup", "cgroup.mode", K_CGROUP, F_AXIS, BB_LEVEL_BOOT, C_CGROUP, NULL},
    {C_TOP, "sysctl", NULL, K_SYSCTL, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_TOP, "cgroup2", "cgroup.mode", K_CGROUP2, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_TOP, "net-buffer", "net-buffer", K_NETBUF, 0, BB_LEVEL_RUN, C_NONE, NULL},
    {C_TOP, "setup-net-buffer", "net-buffer", K_NETBUF, 0, BB_LEVEL_RUN, C_NONE, NULL},
    {C_TOP, "affinity", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_AFFINITY, NULL},
    {C_TOP, "nic", NULL, K_SECTION, 0, BB_LEVEL_BOOT, C_NIC, NULL},
    {C_TOP, "order", NULL, K_ORDER, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_TOP, "seed", "order.seed", K_SEED, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_TOP, "warmup", NULL, K_WARMUP, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_TOP, "monitored", NULL, K_MONITORED, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_TOP, "monitored_runtime", NULL, K_DURATION, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_SERVER, "netserver", NULL, K_SERVER, 0, BB_LEVEL_RUN, C_NONE, "netperf"},
    {C_SERVER, "affinity", "affinity.server", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_CLIENT, "netperf", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_NETPERF, "netperf"},
    {C_CLIENT, "stress-ng", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_STRESSNG, "stress-ng"},
    {C_CLIENT, "affinity", "affinity.client", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_NETPERF, "test", NULL, K_NPTEST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_NETPERF, "send_size", NULL, K_SIZE, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_NETPERF, "socket_buffer_size", NULL, K_SIZE, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_NETPERF, "ip", NULL, K_IP, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_NETPERF, "runtime", NULL, K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_NETPERF, "nr_threads", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_NETPERF, "iterations", NULL, K_POSINT, 0, BB_LEVEL_RUN, C_NONE, NULL},
    {C_NETPERF, "delay", "lkp.delay", K_NOTE, 0, BB_LEVEL_NOTE, C_NONE, NULL},
    {C_NETPERF, "global_options", NULL, K_ARGS, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_NETPERF, "test_options", NULL, K_ARGS, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_STRESSNG, "test", NULL, K_STRESSOR, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_STRESSNG, "nr_threads", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_STRESSNG, "testtime", "runtime", K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_STRESSNG, "class", NULL, K_SNGCLASS, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_STRESSNG, "method", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_STRESSNG, "mode", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_STRESSNG, "type", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_STRESSNG, "sched", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_STRESSNG, "advise", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_STRESSNG, "hdd_opts", NULL, K_WORD, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_CGROUP, "mode", "cgroup.mode", K_CGMODE, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_CGROUP, "controllers", "cgroup.controllers", K_CTRLS, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_CGROUP, "limits", "cgroup.limit", K_LIMITS, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_AFFINITY, "server", "affinity.server", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_AFFINITY, "client", "affinity.client", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL},
    {C_NIC, "name", "nic.name", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_NIC, "address", "nic.address", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_NIC, "gateway", "nic.gateway", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_NIC, "mtu", "nic.mtu", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_NIC, "wait", "nic.wait", K_NICWAIT, 0, BB_LEVEL_BOOT, C_NONE, NULL},
    {C_NIC, "module", "nic.module", K_MODULES, 0, BB_LEVEL_BOOT, C_NONE, NULL},
};

const size_t job_nkeys = sizeof job_keys / sizeof job_keys[0];

/* stress-ng options benchboot sets itself. */
const char *const job_sng_reserved[] = {
    "timeout",      "times",   "verify",   "metrics", "metrics-brief",
    "no-rand-seed", "yaml",    "log-file", "job",     "help",
    "version",      "dry-run", NULL};

static const char *const governors[] = {"performance", "powersave", "ondemand", "conservative",
                                        "schedutil",   "userspace", NULL};
static const char *const controllers[] = {
    "cpu",   "cpuset",  "memory",  "io",      "pids",    "hugetlb",  "rdma",       "misc",
    "blkio", "cpuacct", "devices", "freezer", "net_cls", "net_prio", "perf_event", NULL};

const char *const *job_prog_opts(const char *suite)
{
	return !suite ? NULL : !strcmp(suite, "netperf") ? netperf_opts : stressng_opts;
}

/* Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbours ("tset" is one edit from "test"), case-insensitive. */
/* Close enough to suggest: at most 2 edits, and at most a third of the word. */
int job_near(const char *typo, const char *cand, unsigned *best)
{
	unsigned d = bb_edit_distance(typo, cand);
	unsigned lim = (unsigned)strlen(cand) / 3;
	if (lim > 3)
		lim = 3;
	if (lim < 1)
		lim = 1;
	if (d <= lim && d < *best) {
		*best = d;
		return 1;
	}
	return 0;
}

int job_one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

static const char *nearest_in(const char *s, const char *const *list)
{
	const char *best = NULL;
	unsigned d = 1000;
	for (; *list; list++)
		if (job_near(s, *list, &d))
			best = *list;
	return best;
}

static int cpulist_ok(const char *s)
{
	struct bb_cpuset set;
	return *s && bb_cpulist_resolve(s, BB_CPULIST_ANY_LAST, &set) == 0;
}

static int size_ok(const char *s)
{
	size_t i = 0;
	while (s[i] >= '0' && s[i] <= '9')
		i++;
	if (!i || (s[0] == '0' && i == 1 && !s[1]))
		return 0;
	if (s[i] && strchr("KMGkmg", s[i]))
		i++;
	return !s[i];
}

/* netperf reads its sizes into a C int (its convert()): at most 2147483647 bytes, K, M and G
 * counted as powers of 1024. 1 when the size s (size_ok) fits. */
static int size_fits_int(const char *s)
{
	unsigned long long v = 0;
	for (; *s >= '0' && *s <= '9'; s++)
		if ((v = v * 10 + (unsigned long long)(*s - '0')) > 2147483647ULL)
			return 0;
	int shift = !*s ? 0 : strchr("Kk", *s) ? 10 : strchr("Mm", *s) ? 20 : 30;
	return v <= 2147483647ULL >> shift;
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

/* `nic:` values: the plan parser of the init checks them, so the host and the init agree. */
static int check_nic(struct walker *w, const struct keydef *k, const char *key, struct bb_jvalue *v,
                     yaml_mark_t m)
{
	const char *f = k->param + 4, *s = v->s, *msg;
	char text[1024], perr[512], prefix[64];
	struct bb_plan plan;
	double d;

	if (k->kind == K_NICWAIT) {
		if (bb_parse_duration(s, &d) || d > 600)
			return jfail(w, m, "%s: '%s' is not a duration of 0 to 600 s (e.g. 10s)",
			             key, s);
		long whole = (long)d + (d > (long)d);
		if (snprintf(text, sizeof text, "%ld", whole) < 0 || !(msg = strdup(text)))
			return -ENOMEM;
		free(v->s);
		v->s = (char *)msg;
		return 0;
	}
	if (k->kind == K_MODULES) {
		for (const char *p = s; *p;) {
			size_t n = strcspn(p, " \t");
			int ok = n > 0 && n < 56;
			for (size_t i = 0; ok && i < n; i++)
				ok = isalnum((unsigned char)p[i]) || p[i] == '_' || p[i] == '-';
			if (!ok)
				return jfail(
				    w, m,
				    "%s: '%s' is not a list of module names (e.g. virtio_net, "
				    "or several: virtio_net virtio_pci)",
				    key, s);
			p += n;
			p += strspn(p, " \t");
		}
		if (!*s)
			return jfail(w, m, "%s: missing value", key);
		return 0;
	}
	if (strchr(s, '\n'))
		return jfail(w, m, "%s: a value is one line", key);
	snprintf(text, sizeof text, "benchboot-plan 1\n%snet.nic.%s=%s\n",
	         strcmp(f, "name") ? "net.nic.name=eth0\n" : "", f, s);
	if (!bb_plan_parse(text, strlen(text), &plan, perr, sizeof perr)) {
		bb_plan_free(&plan);
		return 0;
	}
	/* "plan:N: net.nic.FIELD: what" -> "KEY: what" */
	msg = strstr(perr, ": ");
	msg = msg ? msg + 2 : perr;
	snprintf(prefix, sizeof prefix, "net.nic.%s: ", f);
	if (!strncmp(msg, prefix, strlen(prefix)))
		msg += strlen(prefix);
	return jfail(w, m, "%s: %s", key, msg);
}

static int check_netperf_test(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	const char *sug = NULL;
	unsigned best = 1000;
	if (bb_netperf_test_find(s))
		return 0;
	for (size_t i = 0; i < bb_netperf_ntests; i++)
		if (job_near(s, bb_netperf_tests[i].name, &best))
			sug = bb_netperf_tests[i].name;
	if (sug)
		return jfail(w, m, "%s: unknown netperf test '%s' (did you mean '%s'?)", key, s,
		             sug);
	return jfail(w, m,
	             "%s: unknown netperf test '%s' (known: TCP_STREAM, TCP_MAERTS, "
	             "TCP_SENDFILE, TCP_RR, TCP_CRR, UDP_STREAM, UDP_RR, SCTP_STREAM, "
	             "SCTP_STREAM_MANY, SCTP_RR, SCTP_RR_MANY)",
	             key, s);
}

/* LKP's jobs name stressors of stress-ng's git master: a stressor the image's stress-ng lacks
 * is a warning, and fails only its run (stress-ng refuses the option). */
static int check_stressor(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	const struct bb_sng_opt *o = bb_sng_opt_find(s);
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

/* Controllers: "memory,cpu" or "memory cpu", each known, normalised to "memory cpu". */
static int normalise_controllers(struct walker *w, const char *key, struct bb_jvalue *v,
                                 yaml_mark_t m)
{
	char *copy = strdup(v->s), *out = malloc(strlen(v->s) + 1), *tok, *save;
	int rc = 0;
	if (!copy || !out) {
		free(copy);
		free(out);
		return -ENOMEM;
	}
	out[0] = 0;
	for (tok = strtok_r(copy, " ,\t", &save); tok && !rc; tok = strtok_r(NULL, " ,\t", &save)) {
		if (!job_one_of(tok, controllers)) {
			const char *sug = nearest_in(tok, controllers);
			rc = jfail(w, m, "%s: unknown cgroup controller '%s'%s%s%s", key, tok,
			           sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "");
			break;
		}
		if (*out)
			strcat(out, " ");
		strcat(out, tok);
	}
	free(copy);
	if (rc) {
		free(out);
		return rc;
	}
	free(v->s);
	v->s = out;
	return 0;
}

/* `cluster: NAME`: the cluster file, read now (host/job/cluster.h); a two-host cluster is kept
 * with the job. Every document of a job names the same cluster. */
static int check_cluster(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	struct bb_cluster c;
	char msg[2048];
	int rc = bb_cluster_load(s, w->file, &c, msg, sizeof msg);
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		return jfail(w, m, "%s: %s", key, msg);
	if (*w->job->cluster_name && strcmp(w->job->cluster_name, c.name))
		return jfail(w, m, "%s: '%s' here, '%s' before: one cluster per job", key, c.name,
		             w->job->cluster_name);
	snprintf(w->job->cluster_name, sizeof w->job->cluster_name, "%s", c.name);
	if (!c.two_host || w->job->cluster)
		return 0;
	if (!(w->job->cluster = malloc(sizeof c)))
		return -ENOMEM;
	*w->job->cluster = c;
	return 0;
}

/* A count of iterations, N or LKP's Nx (3x), lo..hi; the x is cut off in place. 0 or -1. */
static int times_value(char *s, long lo, long hi)
{
	char *e;
	errno = 0;
	long n = strtol(s, &e, 10);
	if (!(*s >= '0' && *s <= '9') || errno || n < lo || n > hi)
		return -1;
	if (*e == 'x' && !e[1])
		*e = 0;
	return *e ? -1 : 0;
}

/* Check one scalar value of a key; may normalise it (in place of *v). Longer than most
 * functions and kept whole: one case per kind of key (enum kind), each a few lines, so the
 * check of every kind and its message are found in one switch. */
int job_check_value(struct walker *w, const struct keydef *k, const char *key, struct bb_jvalue *v,
                    yaml_mark_t m)
{
	const char *s = v->s;
	double d;
	long n;
	int pct, rc;
	const char *sug;

	switch (k->kind) {
	case K_SUITE:
		if (strcmp(s, "netperf") && strcmp(s, "stress-ng")) {
			sug = nearest_in(s, (const char *const[]){"netperf", "stress-ng", NULL});
			return jfail(w, m,
			             "%s: unknown suite '%s'%s%s%s (benchboot runs netperf and "
			             "stress-ng)",
			             key, s, sug ? " (did you mean '" : "", sug ? sug : "",
			             sug ? "'?)" : "");
		}
		return 0;
	case K_IGNORE:
	case K_NOTE:
		return 0;
	case K_SNGCLASS:
		if (!job_one_of(s, bb_sng_classes)) {
			sug = nearest_in(s, bb_sng_classes);
			return jfail(w, m, "%s: unknown stress-ng class '%s'%s%s%s", key, s,
			             sug ? " (did you mean '" : "", sug ? sug : "",
			             sug ? "'?)" : "");
		}
		return 0;
	case K_WORD:
		if (!*s || strchr(s, '\n') || s[0] == '-')
			return jfail(w, m, "%s: '%s' is not a usable option value", key, s);
		return 0;
	case K_ORDER:
		if (strcmp(s, "interleaved") && strcmp(s, "random") && strcmp(s, "blocked"))
			return jfail(w, m, "%s: '%s' is not interleaved, random or blocked", key,
			             s);
		return 0;
	case K_SEED: {
		char *e;
		errno = 0;
		unsigned long long u = strtoull(s, &e, 10);
		if (!(*s >= '0' && *s <= '9') || *e || errno || u > 4294967295ULL)
			return jfail(w, m, "%s: '%s' is not a whole number 0..4294967295", key, s);
		return 0;
	}
	case K_WARMUP: /* iterations of the first run before the measured ones */
		if (times_value(v->s, 0, 10))
			return jfail(
			    w, m, "%s: '%s' is not a number of warm-up iterations 0..10 (1 or 1x)",
			    key, s);
		return 0;
	case K_MONITORED: /* each run's iterations with the monitors, after the measured ones */
		if (times_value(v->s, 0, 10))
			return jfail(
			    w, m,
			    "%s: '%s' is not a number of monitored iterations 0..10 (0: the "
			    "monitors in every measured iteration)",
			    key, s);
		return 0;
	case K_NIC:
	case K_NICWAIT:
	case K_MODULES:
		return check_nic(w, k, key, v, m);
	case K_COUNT:
		rc = bb_parse_count(s, &n, &pct);
		if (rc == -ERANGE)
			return jfail(w, m, "%s: '%s' must be at least 1", key, s);
		if (rc)
			return jfail(w, m,
			             "%s: '%s' is not a count or a percentage of the online CPUs "
			             "(e.g. 2 or 200%%)",
			             key, s);
		return 0;
	case K_DURATION:
	case K_GRACE:
		if (bb_parse_duration(s, &d) || (k->kind == K_DURATION && d <= 0))
			return jfail(w, m,
			             "%s: '%s' is not a %sduration (seconds, or with s/m/h: "
			             "300, 300s, 5m, 1h)",
			             key, s, k->kind == K_DURATION ? "positive " : "");
		return 0;
	case K_POSINT:
		if (times_value(v->s, 1, 100000))
			return jfail(w, m, "%s: '%s' is not a whole number >= 1 (3 or 3x)", key, s);
		return 0;
	case K_CLUSTER:
		return check_cluster(w, key, s, m);
	case K_IP:
		if (strcmp(s, "ipv4") && strcmp(s, "ipv6"))
			return jfail(w, m, "%s: '%s' is not ipv4 or ipv6", key, s);
		return 0;
	case K_NPTEST:
		return check_netperf_test(w, key, s, m);
	case K_SIZE:
		if (!size_ok(s))
			return jfail(w, m,
			             "%s: '%s' is not a size (bytes, or with K/M/G: 4096, 10K)",
			             key, s);
		if (!size_fits_int(s))
			return jfail(
			    w, m,
			    "%s: '%s' is more than netperf takes (at most 2147483647 bytes, "
			    "2047M: it reads a C int)",
			    key, s);
		return 0;
	case K_ARGS:
		return check_args(w, key, s, m);
	case K_STRESSOR:
		return check_stressor(w, key, s, m);
	case K_GOV:
		if (!job_one_of(s, governors)) {
			sug = nearest_in(s, governors);
			return jfail(w, m, "%s: unknown cpufreq governor '%s'%s%s%s", key, s,
			             sug ? " (did you mean '" : "", sug ? sug : "",
			             sug ? "'?)" : "");
		}
		return 0;
	case K_CMDLINE:
		if (strchr(s, '\n'))
			return jfail(w, m, "%s: a kernel command line is one line", key);
		return 0;
	case K_CGROUP:
	case K_CGMODE:
		if (strcmp(s, "v1") && strcmp(s, "v2") && strcmp(s, "none"))
			return jfail(w, m, "%s: '%s' is not v1, v2 or none", key, s);
		return 0;
	case K_CPULIST:
		if (!cpulist_ok(s))
			return jfail(w, m,
			             "%s: '%s' is not a CPU list (e.g. 0, 1-3, 0,2, last, 1-last)",
			             key, s);
		return 0;
	case K_CTRLS:
		return normalise_controllers(w, key, v, m);
	case K_MONSECS:
	case K_MONDELAY: {
		char *e;
		d = strtod(s, &e);
		if (!(*s >= '0' && *s <= '9') || *e || d > 86400 ||
		    (k->kind == K_MONSECS ? d < 0.01 : d < 0))
			return jfail(w, m, "%s: '%s' is not a number of seconds %s (e.g. 2 or 0.5)",
			             key, s, k->kind == K_MONSECS ? "0.01..86400" : "0..86400");
		return 0;
	}
	case K_MONTEXT:
		if (!*s || strchr(s, '\n'))
			return jfail(w, m, "%s: expected one line of text", key);
		return 0;
	default:
		return 0;
	}
}
