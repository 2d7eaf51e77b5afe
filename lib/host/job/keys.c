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
#include "host/job/expr.h"
#include "host/job/job_internal.h"
#include "host/job/lkpnames.h"
#include "host/job/storage.h"
#include "host/job/suites/inventory.h"
#include "host/job/suites/suite.h"
#include "host/job/units.h"
#include "plan/plan.h"

/* Where a key is, as messages say it: "unknown key 'x' at the top level". */
static const char *const ctx_names[] = {
    [C_TOP] = "at the top level",
    [C_SERVER] = "in 'if role server:'",
    [C_CLIENT] = "in 'if role client:'",
    [C_CGROUP] = "in 'cgroup:'",
    [C_AFFINITY] = "in 'affinity:'",
    [C_NIC] = "in 'nic:'",
    [C_NONE] = "",
    [C_BLOCK] = "in the suite's block",
};

/* The job's own keys; each suite's follow them in the table (job_key_table). */
static const struct keydef own_keys[] = {
    {C_TOP, "suite", NULL, K_SUITE, 0, BB_LEVEL_JOB, C_NONE, NULL, NULL},
    {C_TOP, "testcase", "suite", K_SUITE, 0, BB_LEVEL_JOB, C_NONE, NULL, NULL},
    {C_TOP, "cluster", NULL, K_CLUSTER, 0, BB_LEVEL_JOB, C_NONE, NULL, NULL},
    {C_TOP, "nr_threads", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "runtime", NULL, K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "testtime", "runtime", K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "iterations", NULL, K_POSINT, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "timeout", NULL, K_GRACE, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "if role server", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_SERVER, NULL, NULL},
    {C_TOP, "if role client", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_CLIENT, NULL, NULL},
    {C_TOP, "cpufreq_governor", NULL, K_GOV, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "disk", NULL, K_CHECK, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL, bb_check_disk},
    /* a machine's disks (LKP's host file keys): checked with disk (bb_check_storage_doc) */
    {C_TOP, "ssd_partitions", NULL, K_NOTE, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "hdd_partitions", NULL, K_NOTE, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "fs", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_check_fs},
    {C_TOP, "fs2", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_check_fs2},
    {C_TOP, "mkfs", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_check_mkfs},
    {C_TOP, "mount_option", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL,
     bb_check_mount_option},
    {C_TOP, "kernel_cmdline", NULL, K_CMDLINE, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "cgroup", "cgroup.mode", K_CGROUP, F_AXIS, BB_LEVEL_BOOT, C_CGROUP, NULL, NULL},
    {C_TOP, "sysctl", NULL, K_SYSCTL, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "cgroup2", "cgroup.mode", K_CGROUP2, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "net-buffer", "net-buffer", K_NETBUF, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "setup-net-buffer", "net-buffer", K_NETBUF, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "affinity", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_AFFINITY, NULL, NULL},
    {C_TOP, "nic", NULL, K_SECTION, 0, BB_LEVEL_BOOT, C_NIC, NULL, NULL},
    {C_TOP, "order", NULL, K_ORDER, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "seed", "order.seed", K_SEED, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "warmup", NULL, K_WARMUP, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "monitored", NULL, K_MONITORED, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "monitored_runtime", NULL, K_DURATION, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_SERVER, "affinity", "affinity.server", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_CLIENT, "affinity", "affinity.client", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_CGROUP, "mode", "cgroup.mode", K_CGMODE, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_CGROUP, "controllers", "cgroup.controllers", K_CTRLS, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_CGROUP, "limits", "cgroup.limit", K_LIMITS, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_AFFINITY, "server", "affinity.server", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_AFFINITY, "client", "affinity.client", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_NIC, "name", "nic.name", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_NIC, "address", "nic.address", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_NIC, "gateway", "nic.gateway", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_NIC, "mtu", "nic.mtu", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_NIC, "wait", "nic.wait", K_NICWAIT, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_NIC, "module", "nic.module", K_MODULES, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
};

static const char *const governors[] = {"performance", "powersave", "ondemand", "conservative",
                                        "schedutil",   "userspace", NULL};
static const char *const controllers[] = {
    "cpu",   "cpuset",  "memory",  "io",      "pids",    "hugetlb",  "rdma",       "misc",
    "blkio", "cpuacct", "devices", "freezer", "net_cls", "net_prio", "perf_event", NULL};

/* The table: the job's own keys, then each suite's: its block's key in the job and in
 * `if role client:`, its keys (C_BLOCK placed in the suite's context, C_SUITE0 + i). Built
 * once. */
static struct keydef *table;
static size_t table_n;
static char (*suite_ctx_names)[48];

const struct keydef *job_key_table(size_t *n)
{
	size_t nsuites = 0, cap = sizeof own_keys / sizeof own_keys[0];
	while (bb_suites[nsuites]) {
		const struct bb_suite *su = bb_suites[nsuites++];
		cap += 2 + su->nkeys;
		for (size_t b = 0; su->blocks && su->blocks[b]; b++)
			cap += 2;
	}
	if (!table) {
		struct keydef *t = calloc(cap, sizeof *t);
		char(*names)[48] = calloc(nsuites ? nsuites : 1, sizeof *names);
		if (!t || !names) {
			free(t);
			free(names);
			*n = 0;
			return NULL;
		}
		size_t k = 0;
		for (size_t i = 0; i < sizeof own_keys / sizeof own_keys[0]; i++)
			t[k++] = own_keys[i];
		for (size_t s = 0; s < nsuites; s++) {
			const struct bb_suite *su = bb_suites[s];
			enum ctx c = (enum ctx)(C_SUITE0 + s);
			snprintf(names[s], sizeof names[s], "in '%s:'", su->name);
			t[k++] = (struct keydef){C_TOP,        su->name, NULL,     K_SECTION, 0,
			                         BB_LEVEL_RUN, c,        su->name, NULL};
			t[k++] = (struct keydef){C_CLIENT,     su->name, NULL,     K_SECTION, 0,
			                         BB_LEVEL_RUN, c,        su->name, NULL};
			for (size_t b = 0; su->blocks && su->blocks[b]; b++) {
				t[k++] = (struct keydef){C_TOP, su->blocks[b], NULL, K_SECTION,
				                         0,     BB_LEVEL_RUN,  c,    su->name,
				                         NULL};
				t[k++] = (struct keydef){C_CLIENT, su->blocks[b], NULL, K_SECTION,
				                         0,        BB_LEVEL_RUN,  c,    su->name,
				                         NULL};
			}
			for (size_t i = 0; i < su->nkeys; i++) {
				t[k] = su->keys[i];
				if (t[k].ctx == C_BLOCK)
					t[k].ctx = c;
				else if (!t[k].suite)
					t[k].suite = su->name;
				k++;
			}
		}
		table = t;
		table_n = k;
		suite_ctx_names = names;
	}
	*n = table_n;
	return table;
}

const char *job_ctx_name(enum ctx c)
{
	size_t n;
	if (c >= C_SUITE0)
		return job_key_table(&n) ? suite_ctx_names[c - C_SUITE0] : "";
	return ctx_names[c];
}

enum ctx job_suite_ctx(const char *suite)
{
	for (size_t i = 0; suite && bb_suites[i]; i++)
		if (!strcmp(bb_suites[i]->name, suite))
			return (enum ctx)(C_SUITE0 + i);
	return C_NONE;
}

const char *const *job_prog_opts(const char *suite)
{
	const struct bb_suite *s = bb_suite_find(suite);
	return s ? s->loose : NULL;
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
			if (!job_plain_name(p, n, 56))
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
			const char *sug = job_nearest_in(tok, controllers);
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

/* A suite benchboot runs; an LKP suite it does not run is refused with the reason
 * (suites/inventory.c), another name with the nearest suite. */
static int check_suite(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	const char *names[16];
	size_t n = 0;
	if (bb_suite_known(s))
		return 0;
	const struct bb_lkp_suite *l = bb_lkp_suite_find(s);
	if (l && l->state == BB_LKP_PACKAGED)
		return jfail(w, m,
		             "%s: LKP's suite '%s' is not run by benchboot yet: Debian packages it "
		             "(%s), and benchboot runs %s (docs/suites.md)",
		             key, s, l->package ? l->package : "?", bb_suite_names());
	if (l && l->state == BB_LKP_HARDWARE)
		return jfail(
		    w, m,
		    "%s: LKP's suite '%s' needs what benchboot's machines do not have (%s); "
		    "benchboot runs %s (docs/suites.md)",
		    key, s, l->why, bb_suite_names());
	if (l && l->state == BB_LKP_NOT_PACKAGED)
		return jfail(w, m,
		             "%s: LKP's suite '%s' cannot run here: no Debian package provides it "
		             "(%s), and benchboot fetches only through apt; benchboot runs %s "
		             "(docs/suites.md)",
		             key, s, l->why, bb_suite_names());
	for (size_t i = 0; bb_suites[i] && n + 1 < sizeof names / sizeof names[0]; i++)
		names[n++] = bb_suites[i]->name;
	names[n] = NULL;
	const char *sug = job_nearest_in(s, names);
	return jfail(w, m, "%s: unknown suite '%s'%s%s%s (benchboot runs %s)", key, s,
	             sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "",
	             bb_suite_names());
}

/* Check one scalar value of a key by its kind; may normalise it (in place of *v). Longer
 * than most functions and kept whole: one case per kind of key (enum kind), each a few
 * lines, so the check of every kind and its message are found in one switch. */
static int check_kind(struct walker *w, const struct keydef *k, const char *key,
                      struct bb_jvalue *v, yaml_mark_t m)
{
	const char *s = v->s;
	double d;
	long n;
	int pct, rc;
	const char *sug;

	switch (k->kind) {
	case K_SUITE:
		return check_suite(w, key, s, m);
	case K_IGNORE:
	case K_NOTE:
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
		/* LKP's fsmark-stress-journal-*.yaml write "1t"; LKP's scripts compute with the
		 * value in bash, which refuses "1t" */
		if (rc && s[0] && strspn(s, "0123456789") == strlen(s) - 1 &&
		    s[strlen(s) - 1] == 't')
			return jfail(
			    w, m,
			    "%s: '%s' is not a count: LKP's scripts compute with it, where "
			    "bash refuses it ('value too great for base') and the run fails; "
			    "write %.*s",
			    key, s, (int)strlen(s) - 1, s);
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
	case K_SIZE:
		if (!size_ok(s))
			return jfail(w, m,
			             "%s: '%s' is not a size (bytes, or with K/M/G: 4096, 10K)",
			             key, s);
		return 0;
	case K_CHECK:
		return 0; /* the key's own check, below */
	case K_GOV:
		if (!job_one_of(s, governors)) {
			sug = job_nearest_in(s, governors);
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

/* A value with LKP's {{ }} expression: the expression is read now (a construct benchboot does
 * not evaluate is refused here), and every literal it may give is checked as the key's value;
 * it is evaluated for each run of the matrix (matrix.c). */
static int check_expression(struct walker *w, const struct keydef *k, const char *key,
                            const struct bb_jvalue *v, yaml_mark_t m)
{
	struct bb_strv results = {0};
	char err[512];
	int may_vary, rc = bb_expr_check(v->s, &results, &may_vary, err, sizeof err);
	if (rc == -EINVAL)
		rc = jfail(w, m, "%s: {{ }}: %s", key, err);
	if (!(k->flags & F_AXIS) && !rc)
		rc = jfail(w, m, "%s: a {{ }} expression is for the keys of a run or a boot", key);
	for (size_t i = 0; i < results.n && !rc; i++) {
		if (!strcmp(results.v[i], "nil"))
			continue; /* that run is dropped, as LKP drops the job */
		struct bb_jvalue lit = {.s = strdup(results.v[i]), .mark = v->mark};
		if (!lit.s)
			rc = -ENOMEM;
		else if ((rc = check_kind(w, k, key, &lit, m)) == 0 && k->check)
			rc = k->check(w, key, lit.s, m);
		free(lit.s);
	}
	bb_strv_free(&results);
	return rc;
}

int job_check_value(struct walker *w, const struct keydef *k, const char *key, struct bb_jvalue *v,
                    yaml_mark_t m)
{
	if (bb_expr_in(v->s))
		return check_expression(w, k, key, v, m);
	int rc = check_kind(w, k, key, v, m);
	return !rc && k->check ? k->check(w, key, v->s, m) : rc;
}
