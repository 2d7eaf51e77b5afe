/*
 * A key's values: read from the YAML node that gives them (one scalar, or a list that makes an
 * axis) and checked by the key's kind (enum kind), then by the key's own check; LKP's {{ }}
 * expressions are checked literal by literal. The walk (yamlwalk.c) and the suites' own keys
 * (suites/) read values through here; nothing here knows the suites, so they and the walk do
 * not call each other round a ring.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cpulist.h"
#include "host/job/cluster.h"
#include "host/job/expr.h"
#include "host/job/job_internal.h"
#include "host/job/units.h"
#include "plan/plan.h"

int job_is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	const char *s = (const char *)n->data.scalar.value;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

const char *job_scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

void job_values_free(struct bb_jvalue *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].s);
	free(v);
}

/* The words of the governor and cgroup-controller keys. */
static const char *const governors[] = {"performance", "powersave", "ondemand", "conservative",
                                        "schedutil",   "userspace", NULL};
static const char *const controllers[] = {
    "cpu",   "cpuset",  "memory",  "io",      "pids",    "hugetlb",  "rdma",       "misc",
    "blkio", "cpuacct", "devices", "freezer", "net_cls", "net_prio", "perf_event", NULL};

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
	case K_SUITE: /* the key's own check: the suites' table (keys.c) */
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

/* Check one scalar value of a key; may normalise it (in place of *v). 0 or -EINVAL (the
 * message in w->err), -ENOMEM. */
static int check_value(struct walker *w, const struct keydef *k, const char *key,
                       struct bb_jvalue *v, yaml_mark_t m)
{
	if (bb_expr_in(v->s))
		return check_expression(w, k, key, v, m);
	int rc = check_kind(w, k, key, v, m);
	return !rc && k->check ? k->check(w, key, v->s, m) : rc;
}

/* Values of a key: one scalar, or a list (an axis, when the key allows it). */
int job_take_values(struct walker *w, const struct keydef *k, const char *key, yaml_node_t *val,
                    struct bb_jvalue **out, size_t *nout, int *axis)
{
	struct bb_jvalue *v = NULL;
	size_t n = 0;
	int rc;
	*axis = 0;
	if (val->type == YAML_MAPPING_NODE)
		return jfail(w, val->start_mark, "%s: expected a value, not a mapping", key);
	if (val->type == YAML_SEQUENCE_NODE) {
		yaml_node_item_t *it = val->data.sequence.items.start;
		size_t count = (size_t)(val->data.sequence.items.top - it);
		if (k->kind == K_CTRLS) {
			/* a list of controllers is one value, not an axis */
			size_t len = 1;
			for (size_t i = 0; i < count; i++) {
				yaml_node_t *e = yaml_document_get_node(w->yd, it[i]);
				if (e->type != YAML_SCALAR_NODE)
					return jfail(w, e->start_mark,
					             "%s: expected controller names", key);
				len += strlen(job_scalar(e)) + 1;
			}
			if (!(v = calloc(1, sizeof *v)) || !(v->s = calloc(1, len))) {
				free(v);
				return -ENOMEM;
			}
			for (size_t i = 0; i < count; i++) {
				if (i)
					strcat(v->s, " ");
				strcat(v->s, job_scalar(yaml_document_get_node(w->yd, it[i])));
			}
			v->mark = job_mark_of(val->start_mark);
			n = 1;
			if ((rc = check_value(w, k, key, v, val->start_mark)))
				goto out_free;
			*out = v;
			*nout = n;
			return 0;
		}
		if (!(k->flags & F_AXIS))
			return jfail(w, val->start_mark,
			             "%s: takes one value, not a list (a list "
			             "would make it a matrix axis)",
			             key);
		if (!count)
			return jfail(w, val->start_mark, "%s: empty list", key);
		if (!(v = calloc(count, sizeof *v)))
			return -ENOMEM;
		for (size_t i = 0; i < count; i++) {
			yaml_node_t *e = yaml_document_get_node(w->yd, it[i]);
			if (e->type != YAML_SCALAR_NODE) {
				rc = jfail(w, e->start_mark,
				           "%s: a list of lists or mappings is not "
				           "supported",
				           key);
				goto out_free;
			}
			if (!(v[i].s = strdup(job_scalar(e)))) {
				rc = -ENOMEM;
				goto out_free;
			}
			n++;
			v[i].mark = job_mark_of(e->start_mark);
			if (job_is_null(e) && !(k->flags & F_AXIS)) {
				rc = jfail(w, e->start_mark, "%s: empty value in the list", key);
				goto out_free;
			}
			/* an empty value: the key absent from that run, as LKP expands the list */
			v[i].unset = job_is_null(e);
			if (!v[i].unset && (rc = check_value(w, k, key, &v[i], e->start_mark)))
				goto out_free;
			for (size_t j = 0; j < i; j++)
				if (!strcmp(v[j].s, v[i].s)) {
					rc = jfail(w, e->start_mark,
					           "%s: '%s' is twice in the list", key, v[i].s);
					goto out_free;
				}
		}
		*axis = 1;
		*out = v;
		*nout = n;
		return 0;
	}
	if (job_is_null(val)) {
		const char *t = job_scalar(val);
		if (t && *t) /* null, Null, NULL, ~: YAML's no value, as LKP's Ruby reads it too */
			return jfail(w, val->start_mark,
			             "%s: missing value ('%s' is YAML's null; the word itself: "
			             "\"%s\")",
			             key, t, t);
		return jfail(w, val->start_mark, "%s: missing value", key);
	}
	if (!(v = calloc(1, sizeof *v)) || !(v->s = strdup(job_scalar(val)))) {
		free(v);
		return -ENOMEM;
	}
	n = 1;
	v->mark = job_mark_of(val->start_mark);
	if ((rc = check_value(w, k, key, v, val->start_mark)))
		goto out_free;
	*out = v;
	*nout = 1;
	return 0;
out_free:
	job_values_free(v, n);
	return rc;
}
