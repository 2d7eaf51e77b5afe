/*
 * Job files: libyaml's document API, then a walk driven by a table of keys (where a key may
 * appear, what parameter it sets, how its value is checked). The walk flattens each document
 * into parameters as LKP does (netperf's `test` is the parameter `test`), so a later document
 * overrides its header parameter by parameter.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cpulist.h"
#include "host/editdist.h"
#include "host/fileio.h"
#include "host/job/cluster.h"
#include "host/job/cmdline.h"
#include "host/job/job.h"
#include "host/job/units.h"
#include "parse_monitor.h"
#include "parse_perf.h"
#include "host/job/jobinclude.h"
#include "host/job/monitor_options.h"
#include "host/job/rootfs.h"
#include "host/job/suites.h"
#include "plan.h"
#include "sha256.h"
#include "grow.h"

enum ctx { C_TOP, C_SERVER, C_CLIENT, C_NETPERF, C_STRESSNG, C_CGROUP, C_AFFINITY, C_NIC, C_NONE };

/* Where a key is, as messages say it: "unknown key 'x' at the top level". */
static const char *const ctx_names[] = {
    [C_TOP] = "at the top level",        [C_SERVER] = "in 'if role server:'",
    [C_CLIENT] = "in 'if role client:'", [C_NETPERF] = "in 'netperf:'",
    [C_STRESSNG] = "in 'stress-ng:'",    [C_CGROUP] = "in 'cgroup:'",
    [C_AFFINITY] = "in 'affinity:'",     [C_NIC] = "in 'nic:'",
    [C_NONE] = "",
};

enum kind {
	K_SECTION,   /* a mapping of keys of another context */
	K_SUITE,     /* netperf | stress-ng */
	K_IGNORE,    /* LKP metadata kept for compatibility (category) */
	K_COUNT,     /* N or P% */
	K_DURATION,  /* > 0, s/m/h/d/w/y */
	K_GRACE,     /* >= 0, s/m/h/d/w/y */
	K_POSINT,    /* >= 1 */
	K_CLUSTER,   /* cs-localhost */
	K_IP,        /* ipv4 | ipv6 */
	K_NPTEST,    /* a netperf test */
	K_SIZE,      /* N[KMGkmg] */
	K_ARGS,      /* netperf options, split on blanks */
	K_STRESSOR,  /* a stress-ng stressor */
	K_GOV,       /* a cpufreq governor */
	K_CMDLINE,   /* kernel command line words */
	K_CGROUP,    /* v1 | v2 | none, or a mapping (C_CGROUP) */
	K_CGMODE,    /* v1 | v2 | none */
	K_CTRLS,     /* controller names: a list or a space-separated string, one value */
	K_LIMITS,    /* mapping FILE: value */
	K_SYSCTL,    /* mapping KEY: value */
	K_CPULIST,   /* a CPU list */
	K_SERVER,    /* netserver: no options */
	K_NIC,       /* a net.nic.* value, checked by the plan's own parser (lib/plan.c) */
	K_NICWAIT,   /* a duration of 0 to 600 s, made whole seconds */
	K_MODULES,   /* kernel module names, space-separated */
	K_ORDER,     /* interleaved | random | blocked: the iterations' order within a boot */
	K_SEED,      /* 0..4294967295: the seed of order: random */
	K_WARMUP,    /* 0..10 (or 0x..10x): warm-up iterations, kept apart */
	K_MONITORED, /* 0..10: each run's monitored iterations, kept apart (0: in every one) */
	K_CGROUP2,   /* LKP's cgroup2 setup: knobs FILE: value */
	K_NETBUF,    /* LKP's net-buffer setup (also its old name setup-net-buffer) */
	K_SNGCLASS,  /* a stress-ng class */
	K_WORD,      /* one word for a stress-ng option (method, mode, ...) */
	K_NOTE,      /* an LKP option benchboot records without acting on it */
	K_MONSECS,   /* a monitor's time option > 0 s (interval, duration: monitor_options.h) */
	K_MONDELAY,  /* a monitor's delay >= 0 s */
	K_MONTEXT,   /* a monitor's text option, one line */
};

/* The options LKP's programs take at any level of a job (the `# - key` lines of
 * programs/netperf/run and programs/stress-ng/run): they may sit at the top level, beside
 * runtime. Keys of the program's block in keys[] below. */
static const char *const netperf_opts[] = {"runtime",   "nr_threads",         "ip",
                                           "test",      "send_size",          "socket_buffer_size",
                                           "delay",     "iterations",         NULL};
static const char *const stressng_opts[] = {"testtime", "class", "nr_threads", "test",
                                            "method",   "mode",  "type",       "sched",
                                            "advise",   "hdd_opts", NULL};

enum { F_AXIS = 1 };

struct keydef {
	enum ctx ctx;
	const char *key;
	const char *param; /* NULL: the key itself */
	enum kind kind;
	unsigned flags;
	enum bb_level level;
	enum ctx sub;      /* K_SECTION, K_CGROUP */
	const char *suite; /* only in jobs of this suite */
};

static const struct keydef keys[] = {
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

/* stress-ng options benchboot sets itself. */
static const char *const sng_reserved[] = {
    "timeout",      "times",   "verify",   "metrics", "metrics-brief",
    "no-rand-seed", "yaml",    "log-file", "job",     "help",
    "version",      "dry-run", NULL};

static const char *const governors[] = {"performance", "powersave", "ondemand", "conservative",
                                        "schedutil",   "userspace", NULL};
static const char *const controllers[] = {
    "cpu",   "cpuset",  "memory",  "io",      "pids",    "hugetlb",  "rdma",       "misc",
    "blkio", "cpuacct", "devices", "freezer", "net_cls", "net_prio", "perf_event", NULL};

struct walker {
	const char *file;
	const struct bb_srcmap *map; /* where each line of the expanded text came from */
	const char *suite;           /* the job's suite, known before the walk */
	struct bb_job *job;          /* for warnings */
	yaml_document_t *yd;
	struct bb_jdoc *doc;
	const char *top; /* the top-level key being walked */
	int prog;        /* inside a program's block */
	int lkp_v1;      /* `cgroup:` had LKP's v1 knobs */
	char *err;
	size_t errlen;
};

/* The file and 1-based line of a 0-based line of the expanded text. */
static const char *src_of(const struct walker *w, size_t line0, int *line)
{
	if (w->map && line0 < w->map->nlines) {
		*line = w->map->line[line0];
		return w->map->files.v[w->map->file[line0]];
	}
	*line = (int)line0 + 1;
	return w->file;
}

static int vformat(const struct walker *w, yaml_mark_t m, char *buf, size_t len, const char *fmt,
                   va_list ap)
{
	int line;
	const char *file = src_of(w, m.line, &line);
	int n = snprintf(buf, len, "%s:%d:%zu: ", file, line, m.column + 1);
	if (n < 0 || (size_t)n >= len)
		return -EINVAL;
	vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	return 0;
}

static int jfail(struct walker *w, yaml_mark_t m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int jfail(struct walker *w, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vformat(w, m, w->err, w->errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A warning: the job still runs. 0 or -ENOMEM. */
static int jwarn(struct walker *w, yaml_mark_t m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int jwarn(struct walker *w, yaml_mark_t m, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vformat(w, m, buf, sizeof buf, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < w->job->warnings.n; i++)
		if (!strcmp(w->job->warnings.v[i], buf))
			return 0; /* the same line seen again (document 0 in every job) */
	return bb_strv_add(&w->job->warnings, buf);
}

/* Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbours ("tset" is one edit from "test"), case-insensitive. */
/* Close enough to suggest: at most 2 edits, and at most a third of the word. */
static int near(const char *typo, const char *cand, unsigned *best)
{
	unsigned d = edit_distance(typo, cand);
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

static int is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	const char *s = (const char *)n->data.scalar.value;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

static const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* Marks keep the expanded text's line (for ordering) and say the file; messages map the
 * line back with mark_line(). */
static struct bb_mark mark_of(yaml_mark_t m)
{
	return (struct bb_mark){(int)m.line + 1, (int)m.column + 1};
}

static yaml_mark_t ymark(struct bb_mark m)
{
	return (yaml_mark_t){0, m.line > 0 ? (size_t)m.line - 1 : 0, m.col > 0 ? (size_t)m.col - 1 : 0};
}

static struct bb_jparam *doc_find(struct bb_jdoc *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->p[i].name, name))
			return &d->p[i];
	return NULL;
}

const struct bb_jparam *bb_jdoc_get(const struct bb_jdoc *d, const char *name)
{
	return doc_find((struct bb_jdoc *)d, name);
}

static void param_free(struct bb_jparam *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].s);
	free(p->v);
	free(p->name);
	free(p->top);
}

static void doc_free(struct bb_jdoc *d)
{
	for (size_t i = 0; i < d->n; i++)
		param_free(&d->p[i]);
	free(d->p);
	d->p = NULL;
	d->n = d->cap = 0;
	bb_strv_free(&d->tops);
}

/* Room for one more parameter in d: the new slot (d->p[d->n]), zeroed, or NULL. The caller
 * fills it and counts it (d->n++) when it is whole. */
static struct bb_jparam *doc_slot(struct bb_jdoc *d)
{
	if (bb_grow(&d->p, &d->cap, d->n + 1, sizeof(*d->p)))
		return NULL;
	memset(&d->p[d->n], 0, sizeof(d->p[d->n]));
	return &d->p[d->n];
}

/* Add a parameter taking ownership of v; a second definition in one document is an error. */
static int add_param(struct walker *w, yaml_mark_t km, const char *key, const char *name,
                     struct bb_jvalue *v, size_t n, int axis, enum bb_level level)
{
	struct bb_jparam *old = doc_find(w->doc, name);
	int rc = 0, oline;
	if (old)
		src_of(w, (size_t)old->mark.line - 1, &oline);
	if (old && !strcmp(name, "suite") && n == 1 && !strcmp(old->v[0].s, v[0].s))
		goto out_free; /* suite: netperf + testcase: netperf, as LKP jobs have */
	if (old && !strcmp(name, "suite")) {
		rc = jfail(w, km, "%s: '%s' differs from '%s' at line %d col %d", key, v[0].s,
		           old->v[0].s, oline, old->mark.col);
		goto out_free;
	}
	/* an option at the top level and in its program's block: the block's wins, as in
	 * LKP (the program runs with its block's values in its environment) */
	if (old && old->prog != w->prog) {
		if (old->prog)
			goto out_free;
		param_free(old);
		*old = w->doc->p[--w->doc->n];
		old = NULL;
	}
	if (old) {
		rc = jfail(w, km, "%s: sets '%s', already set at line %d col %d", key, name, oline,
		           old->mark.col);
		goto out_free;
	}
	struct bb_jparam *p = doc_slot(w->doc);
	if (!p) {
		rc = -ENOMEM;
		goto out_free;
	}
	if (!(p->name = strdup(name))) {
		rc = -ENOMEM;
		goto out_free;
	}
	if (!(p->top = strdup(w->top ? w->top : name))) {
		free(p->name);
		rc = -ENOMEM;
		goto out_free;
	}
	w->doc->n++;
	p->v = v;
	p->n = n;
	p->axis = axis;
	p->level = level;
	p->mark = mark_of(km);
	p->prog = w->prog;
	return 0;
out_free:
	for (size_t i = 0; i < n; i++)
		free(v[i].s);
	free(v);
	return rc;
}

static int one_of(const char *s, const char *const *list)
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
		if (near(s, *list, &d))
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
			return jfail(w, m, "%s: '%s' is not a duration of 0 to 600 s (e.g. 10s)", key,
			             s);
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
				return jfail(w, m,
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
		if (near(s, bb_netperf_tests[i].name, &best))
			sug = bb_netperf_tests[i].name;
	if (sug)
		return jfail(w, m, "%s: unknown netperf test '%s' (did you mean '%s'?)", key, s, sug);
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
		if (bb_sng_opts[i].stressor && near(s, bb_sng_opts[i].name, &best))
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
		if (!one_of(tok, controllers)) {
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

/* Check one scalar value of a key; may normalise it (in place of *v). */
static int check_value(struct walker *w, const struct keydef *k, const char *key,
                       struct bb_jvalue *v, yaml_mark_t m)
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
		if (!one_of(s, bb_sng_classes)) {
			sug = nearest_in(s, bb_sng_classes);
			return jfail(w, m, "%s: unknown stress-ng class '%s'%s%s%s", key, s,
			             sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "");
		}
		return 0;
	case K_WORD:
		if (!*s || strchr(s, '\n') || s[0] == '-')
			return jfail(w, m, "%s: '%s' is not a usable option value", key, s);
		return 0;
	case K_ORDER:
		if (strcmp(s, "interleaved") && strcmp(s, "random") && strcmp(s, "blocked"))
			return jfail(w, m, "%s: '%s' is not interleaved, random or blocked", key, s);
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
			return jfail(w, m,
			             "%s: '%s' is more than netperf takes (at most 2147483647 bytes, "
			             "2047M: it reads a C int)",
			             key, s);
		return 0;
	case K_ARGS:
		return check_args(w, key, s, m);
	case K_STRESSOR:
		return check_stressor(w, key, s, m);
	case K_GOV:
		if (!one_of(s, governors)) {
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
			return jfail(w, m, "%s: '%s' is not a CPU list (e.g. 0, 1-3, 0,2, last, 1-last)", key, s);
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

/* Values of a key: one scalar, or a list (an axis, when the key allows it). */
static int take_values(struct walker *w, const struct keydef *k, const char *key, yaml_node_t *val,
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
				len += strlen(scalar(e)) + 1;
			}
			if (!(v = calloc(1, sizeof *v)) || !(v->s = calloc(1, len))) {
				free(v);
				return -ENOMEM;
			}
			for (size_t i = 0; i < count; i++) {
				if (i)
					strcat(v->s, " ");
				strcat(v->s, scalar(yaml_document_get_node(w->yd, it[i])));
			}
			v->mark = mark_of(val->start_mark);
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
			if (!(v[i].s = strdup(scalar(e)))) {
				rc = -ENOMEM;
				goto out_free;
			}
			n++;
			v[i].mark = mark_of(e->start_mark);
			if (is_null(e)) {
				rc = jfail(w, e->start_mark, "%s: empty value in the list", key);
				goto out_free;
			}
			if ((rc = check_value(w, k, key, &v[i], e->start_mark)))
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
	if (is_null(val)) {
		const char *t = scalar(val);
		if (t && *t) /* null, Null, NULL, ~: YAML's no value, as LKP's Ruby reads it too */
			return jfail(w, val->start_mark,
			             "%s: missing value ('%s' is YAML's null; the word itself: "
			             "\"%s\")",
			             key, t, t);
		return jfail(w, val->start_mark, "%s: missing value", key);
	}
	if (!(v = calloc(1, sizeof *v)) || !(v->s = strdup(scalar(val)))) {
		free(v);
		return -ENOMEM;
	}
	n = 1;
	v->mark = mark_of(val->start_mark);
	if ((rc = check_value(w, k, key, v, val->start_mark)))
		goto out_free;
	*out = v;
	*nout = 1;
	return 0;
out_free:
	for (size_t i = 0; i < n; i++)
		free(v[i].s);
	free(v);
	return rc;
}

static int walk_map(struct walker *w, enum ctx ctx, yaml_node_t *map);

/* Keys of a mapping must be unique scalars. */
static int check_pair_key(struct walker *w, yaml_node_t *map, yaml_node_pair_t *pair,
                          yaml_node_t **key)
{
	*key = yaml_document_get_node(w->yd, pair->key);
	if ((*key)->type != YAML_SCALAR_NODE)
		return jfail(w, (*key)->start_mark, "a key must be a plain word");
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < pair; p++) {
		yaml_node_t *o = yaml_document_get_node(w->yd, p->key);
		if (o->type == YAML_SCALAR_NODE && !strcmp(scalar(o), scalar(*key)))
			return jfail(w, (*key)->start_mark,
			             "%s: duplicate key (first at line %zu "
			             "col %zu)",
			             scalar(*key), o->start_mark.line + 1,
			             o->start_mark.column + 1);
	}
	return 0;
}

/* `sysctl:` and `cgroup: limits:`: any well-formed name, a value or a list (axis). */
static int walk_free_map(struct walker *w, const struct keydef *k, const char *prefix,
                         yaml_node_t *map)
{
	int rc;
	if (is_null(map))
		return 0;
	if (map->type != YAML_MAPPING_NODE)
		return jfail(w, map->start_mark, "%s: expected a mapping of %s", k->key,
		             k->kind == K_SYSCTL
		                 ? "sysctl keys to values (net.core.somaxconn: 4096)"
		                 : "cgroup files to values (memory.high: 1G)");
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *key, *val = yaml_document_get_node(w->yd, pair->value);
		if ((rc = check_pair_key(w, map, pair, &key)))
			return rc;
		const char *name = scalar(key);
		size_t len = strlen(name);
		/* LKP's sysctl setup names sysctls sc_NAME (resolved by the init) */
		int sc = k->kind == K_SYSCTL && !strncmp(name, "sc_", 3) && len > 3;
		int ok = len > 0 && len < 100 && isalpha((unsigned char)name[0]) &&
		         (strchr(name, '.') || sc);
		for (size_t i = 0; ok && i < len; i++)
			ok = isalnum((unsigned char)name[i]) || strchr("._-", name[i]);
		if (!ok) {
			if (k->kind == K_SYSCTL)
				return jfail(w, key->start_mark,
				             "sysctl: '%s' is not a sysctl name "
				             "(dotted, as `sysctl -a` prints it: "
				             "net.sctp.prsctp_enable)",
				             name);
			return jfail(w, key->start_mark,
			             "cgroup.limits: '%s' is not a cgroup "
			             "file name (e.g. memory.high)",
			             name);
		}
		char pname[160], label[160];
		snprintf(pname, sizeof pname, "%s.%s", prefix, name);
		snprintf(label, sizeof label, "%s.%s",
		         k->kind == K_SYSCTL ? "sysctl" : "cgroup.limits", name);
		struct keydef vk = *k;
		vk.kind = K_IGNORE;
		struct bb_jvalue *v;
		size_t n;
		int axis;
		if ((rc = take_values(w, &vk, label, val, &v, &n, &axis)))
			return rc;
		for (size_t i = 0; i < n; i++)
			if (strchr(v[i].s, '\n')) {
				yaml_mark_t vm = val->start_mark;
				for (size_t j = 0; j < n; j++)
					free(v[j].s);
				free(v);
				return jfail(w, vm, "%s: a value is one line", label);
			}
		if ((rc = add_param(w, key->start_mark, label, pname, v, n, axis, k->level)))
			return rc;
	}
	return 0;
}

/* A stress-ng option: `vm-bytes: 1G`, `vm-keep: true`. */
static int walk_sng_option(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	const char *name = scalar(key);
	const struct bb_sng_opt *o = bb_sng_opt_find(name);
	char label[128];
	snprintf(label, sizeof label, "stress-ng.%s", name);
	if (one_of(name, sng_reserved))
		return jfail(w, key->start_mark,
		             "%s: set by benchboot (it runs stress-ng --timeout "
		             "T --times --verify --metrics --no-rand-seed; use testtime for T)",
		             label);
	if (!o) {
		unsigned best = 1000;
		const char *sug = NULL;
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (keys[i].ctx == C_STRESSNG && near(name, keys[i].key, &best))
				sug = keys[i].key;
		for (size_t i = 0; i < bb_sng_nopts; i++)
			if (near(name, bb_sng_opts[i].name, &best))
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
	struct keydef k = {C_STRESSNG, name, NULL, K_IGNORE, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL};
	struct bb_jvalue *v;
	size_t n;
	int axis, rc;
	if (!o->arg) {
		if (!is_null(val) &&
		    (val->type != YAML_SCALAR_NODE ||
		     (strcmp(scalar(val), "true") && strcmp(scalar(val), "false"))))
			return jfail(w, val->start_mark,
			             "%s: a flag takes no value (write '%s:' or "
			             "'%s: true')",
			             label, name, name);
		if (!(v = calloc(1, sizeof *v)) ||
		    !(v->s = strdup(is_null(val) ? "true" : scalar(val)))) {
			free(v);
			return -ENOMEM;
		}
		v->mark = mark_of(val->start_mark);
		return add_param(w, key->start_mark, label, label, v, 1, 0, BB_LEVEL_RUN);
	}
	if ((rc = take_values(w, &k, label, val, &v, &n, &axis)))
		return rc;
	for (size_t i = 0; i < n; i++)
		if (!v[i].s[0] || strchr(v[i].s, '\n') || v[i].s[0] == '-') {
			yaml_mark_t vm = {0, (size_t)v[i].mark.line - 1, (size_t)v[i].mark.col - 1};
			rc = jfail(w, vm, "%s: '%s' is not a usable option value", label, v[i].s);
			for (size_t j = 0; j < n; j++)
				free(v[j].s);
			free(v);
			return rc;
		}
	return add_param(w, key->start_mark, label, label, v, n, axis, BB_LEVEL_RUN);
}

static int unknown_key(struct walker *w, enum ctx ctx, yaml_node_t *key)
{
	const char *name = scalar(key);
	const char *sug = NULL;
	unsigned best = 1000;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (keys[i].ctx == ctx && near(name, keys[i].key, &best))
			sug = keys[i].key;
	if (sug)
		return jfail(w, key->start_mark, "unknown key '%s' %s (did you mean '%s'?)", name,
		             ctx_names[ctx], sug);
	/* a key of other sections: say where it belongs */
	char where[256] = "";
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(keys[i].key, name) && keys[i].ctx != ctx) {
			size_t l = strlen(where);
			snprintf(where + l, sizeof where - l, "%s%s", l ? " or " : "",
			         ctx_names[keys[i].ctx]);
		}
	if (*where)
		return jfail(w, key->start_mark, "unknown key '%s' %s (it belongs %s)", name,
		             ctx_names[ctx], where);
	if (ctx == C_TOP) {
		const struct bb_sng_opt *o = bb_sng_opt_find(name);
		if (o)
			return jfail(w, key->start_mark,
			             "unknown key '%s' at the top level (stress-ng "
			             "options go in 'stress-ng:')",
			             name);
	}
	return jfail(w, key->start_mark, "unknown key '%s' %s", name, ctx_names[ctx]);
}

static int add_one(struct walker *w, yaml_mark_t km, const char *key, const char *name,
                   const char *value, yaml_mark_t vm, enum bb_level level)
{
	struct bb_jvalue *v = calloc(1, sizeof *v);
	if (!v || !(v->s = strdup(value))) {
		free(v);
		return -ENOMEM;
	}
	v->mark = (struct bb_mark){(int)vm.line + 1, (int)vm.column + 1};
	return add_param(w, km, key, name, v, 1, 0, level);
}

static int add_note(struct walker *w, yaml_node_t *key, yaml_node_t *val);

/*
 * A knob of LKP's cgroup setups (`cgroup2:` knobs, or `cgroup:` with v1 knobs such as
 * memory.limit_in_bytes): the job cgroup's file FILE gets the value; a knob without a value
 * is left alone, as LKP's setup skips it. Knobs without a dot (cg_count, cg_bind, group) are
 * recorded only. The controllers come from the knobs (check_doc).
 */
static int lkp_cgroup_knob(struct walker *w, const char *where, yaml_node_t *key,
                           yaml_node_t *val)
{
	const char *name = scalar(key);
	char pname[160], label[160];
	if (!strchr(name, '.'))
		return add_note(w, key, val);
	if (is_null(val))
		return 0;
	if (val->type != YAML_SCALAR_NODE || strchr(scalar(val), '\n'))
		return jfail(w, val->start_mark, "%s.%s: expected one value", where, name);
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return jfail(w, key->start_mark,
			             "%s: '%s' is not a cgroup file name (e.g. memory.high)", where,
			             name);
	snprintf(pname, sizeof pname, "cgroup.limit.%s", name);
	snprintf(label, sizeof label, "%s.%s", where, name);
	return add_one(w, key->start_mark, label, pname, scalar(val), val->start_mark,
	               BB_LEVEL_BOOT);
}

/* `cgroup2:` (LKP's jobs/cgroup2.yaml): cgroup v2 for the boot, the job in one cgroup with
 * these knobs. */
static int walk_cgroup2(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	int rc;
	if (!is_null(val) && val->type != YAML_MAPPING_NODE)
		return jfail(w, val->start_mark,
		             "cgroup2: expected a mapping of cgroup files to values "
		             "(memory.high: 90%%)");
	if ((rc = add_one(w, key->start_mark, "cgroup2", "cgroup.mode", "v2", key->start_mark,
	                  BB_LEVEL_BOOT)))
		return rc;
	if (is_null(val))
		return 0;
	for (yaml_node_pair_t *pair = val->data.mapping.pairs.start;
	     pair < val->data.mapping.pairs.top; pair++) {
		yaml_node_t *k;
		if ((rc = check_pair_key(w, val, pair, &k)) ||
		    (rc = lkp_cgroup_knob(w, "cgroup2", k,
		                          yaml_document_get_node(w->yd, pair->value))))
			return rc;
	}
	return 0;
}

/* A YAML value as one line: scalars as they are, [a, b], {k: v}. */
static void node_line(struct walker *w, yaml_node_t *n, char *buf, size_t len, size_t *off)
{
#define PUT(...)                                                                                   \
	do {                                                                                       \
		if (*off < len)                                                                    \
			*off += (size_t)snprintf(buf + *off, len - *off, __VA_ARGS__);            \
	} while (0)
	if (n->type == YAML_SCALAR_NODE) {
		for (const char *p = scalar(n); *p; p++)
			PUT("%c", *p == '\n' || *p == '\r' ? ' ' : *p);
	} else if (n->type == YAML_SEQUENCE_NODE) {
		PUT("[");
		for (yaml_node_item_t *it = n->data.sequence.items.start;
		     it < n->data.sequence.items.top; it++) {
			if (it > n->data.sequence.items.start)
				PUT(", ");
			node_line(w, yaml_document_get_node(w->yd, *it), buf, len, off);
		}
		PUT("]");
	} else if (n->type == YAML_MAPPING_NODE) {
		PUT("{");
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
		     p < n->data.mapping.pairs.top; p++) {
			if (p > n->data.mapping.pairs.start)
				PUT(", ");
			node_line(w, yaml_document_get_node(w->yd, p->key), buf, len, off);
			PUT(": ");
			node_line(w, yaml_document_get_node(w->yd, p->value), buf, len, off);
		}
		PUT("}");
	}
#undef PUT
	if (*off >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

/* An LKP key recorded, not acted on: parameter "lkp.KEY" with the value on one line. */
static int add_note(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	char name[160], text[512];
	size_t off = 0;
	snprintf(name, sizeof name, "lkp.%s", scalar(key));
	for (char *p = name + 4; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			*p = '_';
	text[0] = 0;
	if (!is_null(val))
		node_line(w, val, text, sizeof text, &off);
	struct bb_jvalue *v = calloc(1, sizeof *v);
	if (!v || !(v->s = strdup(text))) {
		free(v);
		return -ENOMEM;
	}
	v->mark = mark_of(val->start_mark);
	return add_param(w, key->start_mark, scalar(key), name, v, 1, 0, BB_LEVEL_NOTE);
}

/*
 * Two LKP keys that shape the boot: `rootfs: [a, b]` is an axis, as in LKP (rootfs is one
 * of its expanded dimensions), each value a boot of its own through its environment
 * (rootfs.h); `bootloader_append:` (a list of words, or words) is recorded as a note and its
 * words kept (parameter "cmdline.bootloader_append") for the kernel command line.
 */
static int lkp_boot_key(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	const char *name = scalar(key);
	struct keydef k = {C_TOP, name, NULL, K_NOTE, F_AXIS, BB_LEVEL_NOTE, C_NONE, NULL};
	struct bb_jvalue *v;
	size_t n;
	int axis, rc;
	if (!strcmp(name, "rootfs")) {
		if ((rc = take_values(w, &k, name, val, &v, &n, &axis)))
			return rc;
		return add_param(w, key->start_mark, name, "lkp.rootfs", v, n, axis, BB_LEVEL_NOTE);
	}
	if ((rc = add_note(w, key, val)))
		return rc;
	struct strwords {
		char *s;
		size_t len, cap;
	} words = {0};
	int seq = val->type == YAML_SEQUENCE_NODE;
	yaml_node_item_t *it = seq ? val->data.sequence.items.start : NULL;
	size_t count = seq ? (size_t)(val->data.sequence.items.top - it) : 1;
	for (size_t i = 0; i < count; i++) {
		yaml_node_t *e = seq ? yaml_document_get_node(w->yd, it[i]) : val;
		if (e->type != YAML_SCALAR_NODE || is_null(e))
			continue;
		size_t l = strlen(scalar(e));
		if (bb_grow(&words.s, &words.cap, words.len + l + 2, 1)) {
			free(words.s);
			return -ENOMEM;
		}
		if (words.len)
			words.s[words.len++] = ' ';
		for (const char *p = scalar(e); *p; p++)
			words.s[words.len++] = *p == '\n' || *p == '\t' ? ' ' : *p;
		words.s[words.len] = 0;
	}
	if (!words.len) {
		free(words.s);
		return 0;
	}
	struct bb_jvalue *jv = calloc(1, sizeof *jv);
	if (!jv) {
		free(words.s);
		return -ENOMEM;
	}
	jv->s = words.s;
	jv->mark = mark_of(val->start_mark);
	return add_param(w, key->start_mark, name, "cmdline.bootloader_append", jv, 1, 0,
	                 BB_LEVEL_INFO);
}

static const char *const *prog_opts(const char *suite)
{
	return !suite ? NULL : !strcmp(suite, "netperf") ? netperf_opts : stressng_opts;
}

/*
 * One of LKP's monitors as a top-level key: `vmstat:`, or with its options (`vmstat:
 * {interval: 2}`, as in a 0-day job.yaml). The key is recorded (lkp.NAME: what turns the
 * monitor on, host/job/monitors.h); an option benchboot reads becomes the boot parameter
 * monitor.NAME.OPTION (the plan's key), a list of values an axis; an option of LKP's that
 * benchboot does not act on stays in the record; an unknown option of a monitor whose options
 * benchboot knows is a warning (LKP ignores it).
 */
static int monitor_key(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	const char *mon = scalar(key);
	int rc;
	if (val->type == YAML_MAPPING_NODE && bb_monitor_has_options(mon))
		for (yaml_node_pair_t *pair = val->data.mapping.pairs.start;
		     pair < val->data.mapping.pairs.top; pair++) {
			yaml_node_t *ok, *ov = yaml_document_get_node(w->yd, pair->value);
			if ((rc = check_pair_key(w, val, pair, &ok)))
				return rc;
			const char *opt = scalar(ok);
			enum bb_monopt use = bb_monitor_option(mon, opt);
			char name[200], all[400];
			if (use == BB_MONOPT_UNKNOWN) {
				const char *sug = bb_monitor_option_nearest(mon, opt);
				bb_monitor_option_names(mon, all, sizeof all);
				rc = jwarn(
				    w, ok->start_mark,
				    "%s: unknown option '%s'%s%s%s; LKP's %s takes %s: ignored, "
				    "as LKP ignores it",
				    mon, opt, sug ? " (did you mean '" : "", sug ? sug : "",
				    sug ? "'?)" : "", mon, *all ? all : "no options");
				if (rc)
					return rc;
				continue;
			}
			if (use == BB_MONOPT_RECORDED)
				continue;
			snprintf(name, sizeof name, "monitor.%s.%s", mon, opt);
			enum kind kind = use == BB_MONOPT_SECONDS ? K_MONSECS
			                 : use == BB_MONOPT_DELAY ? K_MONDELAY
			                                          : K_MONTEXT;
			struct keydef k = {C_NONE, name,          NULL,   kind,
			                   F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL};
			struct bb_jvalue *v;
			size_t n;
			int axis;
			snprintf(all, sizeof all, "%s.%s", mon, opt);
			if ((rc = take_values(w, &k, all, ov, &v, &n, &axis)))
				return rc;
			if (!bb_monitor_known(mon)) { /* checked; its monitor does not run here */
				for (size_t i = 0; i < n; i++)
					free(v[i].s);
				free(v);
				continue;
			}
			if ((rc = add_param(w, ok->start_mark, all, name, v, n, axis,
			                    BB_LEVEL_BOOT)))
				return rc;
		}
	return add_note(w, key, val);
}

/* LKP's minus key `NAME-:` for one of its monitors: NAME taken out of the job (the default
 * set of category: benchmark included), recorded as lkp.NAME-. */
static int minus_monitor_key(const char *name)
{
	char base[128];
	size_t l = strlen(name);
	if (l < 2 || l >= sizeof base || name[l - 1] != '-')
		return 0;
	memcpy(base, name, l - 1);
	base[l - 1] = 0;
	return bb_monitor_is_lkp(base);
}

/*
 * A key outside a program's block that benchboot has no entry for: an LKP key it knows is
 * recorded; anything else LKP would pass to no program, so it is ignored with a warning.
 */
static int other_key(struct walker *w, enum ctx ctx, yaml_node_t *key, yaml_node_t *val)
{
	const char *name = scalar(key);
	if (!strcmp(name, "<<"))
		return jfail(w, key->start_mark,
		             "<<: an include inside an included file (LKP expands includes one "
		             "level deep; include that file from the job itself)");
	if (!strcmp(name, "bootloader_append") || (!strcmp(name, "rootfs") &&
	                                           val->type == YAML_SEQUENCE_NODE))
		return lkp_boot_key(w, key, val);
	if (ctx == C_TOP && bb_monitor_is_lkp(name))
		return monitor_key(w, key, val);
	if (ctx == C_TOP && minus_monitor_key(name))
		return add_note(w, key, val);
	if (bb_lkp_key_kind(name))
		return add_note(w, key, val);
	const char *sug = NULL;
	unsigned best = 1000;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (keys[i].ctx == ctx && near(name, keys[i].key, &best))
			sug = keys[i].key;
	const char *const *po = prog_opts(w->suite);
	for (; po && *po; po++)
		if (near(name, *po, &best))
			sug = *po;
	/* a benchboot key in the wrong place, or a stress-ng option outside its block */
	char hint[256] = "";
	for (size_t i = 0; i < sizeof keys / sizeof keys[0] && !sug; i++)
		if (!strcmp(keys[i].key, name) && keys[i].ctx != ctx) {
			size_t l = strlen(hint);
			snprintf(hint + l, sizeof hint - l, "%s%s", l ? " or " : " (it belongs ",
			         ctx_names[keys[i].ctx]);
		}
	if (*hint)
		strncat(hint, ")", sizeof hint - strlen(hint) - 1);
	else if (!sug && bb_sng_opt_find(name))
		snprintf(hint, sizeof hint, " (stress-ng options go in 'stress-ng:')");
	return jwarn(w, key->start_mark,
	             "unknown key '%s' %s%s%s%s%s: no program benchboot runs reads it; ignored, "
	             "as LKP ignores it",
	             name, ctx_names[ctx], hint, sug ? " (did you mean '" : "", sug ? sug : "",
	             sug ? "'?)" : "");
}

/* LKP reads `runtime` for netperf and `testtime` for stress-ng (default 1 s): the other one
 * is recorded, with a warning, and does not set the duration. */
static int other_duration(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	const char *name = scalar(key);
	int rc = jwarn(w, key->start_mark,
	               "%s: LKP's %s reads '%s', not '%s': recorded, not used", name, w->suite,
	               strcmp(w->suite, "netperf") ? "testtime" : "runtime", name);
	return rc ? rc : add_note(w, key, val);
}

static int walk_map(struct walker *w, enum ctx ctx, yaml_node_t *map)
{
	int rc;
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *key, *val = yaml_document_get_node(w->yd, pair->value);
		if ((rc = check_pair_key(w, map, pair, &key)))
			return rc;
		const char *name = scalar(key);
		const struct keydef *k = NULL;
		/* LKP's comment keys: a `#! FILE` or `# ...` line after an empty line is the key
		 * :"#! FILE" in LKP (lib/job.rb load), written `:#! FILE:` when a job is dumped
		 * without turning them back into comments */
		if ((ctx == C_TOP || ctx == C_SERVER || ctx == C_CLIENT) && !strncmp(name, ":#", 2))
			continue;
		if (ctx == C_TOP) {
			if (bb_strv_add(&w->doc->tops, name))
				return -ENOMEM;
			w->top = w->doc->tops.v[w->doc->tops.n - 1];
		}
		int loose = ctx == C_TOP || ctx == C_SERVER || ctx == C_CLIENT;
		if (loose && w->suite &&
		    ((!strcmp(w->suite, "netperf") && !strcmp(name, "testtime")) ||
		     (!strcmp(w->suite, "stress-ng") && !strcmp(name, "runtime")))) {
			if ((rc = other_duration(w, key, val)))
				return rc;
			continue;
		}
		for (size_t i = 0; i < sizeof keys / sizeof keys[0] && !k; i++)
			if (keys[i].ctx == ctx && !strcmp(keys[i].key, name))
				k = &keys[i];
		/* a program option outside its block, as LKP allows (`send_size:` beside
		 * `runtime:`) */
		if (!k && loose && one_of(name, prog_opts(w->suite) ? prog_opts(w->suite)
		                                                    : (const char *const[]){NULL})) {
			enum ctx pc = strcmp(w->suite, "netperf") ? C_STRESSNG : C_NETPERF;
			for (size_t i = 0; i < sizeof keys / sizeof keys[0] && !k; i++)
				if (keys[i].ctx == pc && !strcmp(keys[i].key, name))
					k = &keys[i];
		}
		if (!k) {
			if (ctx == C_STRESSNG) {
				if ((rc = walk_sng_option(w, key, val)))
					return rc;
				continue;
			}
			/* LKP's cgroup setup (v1): knobs in `cgroup:` */
			if (ctx == C_CGROUP && (strchr(name, '.') || !strcmp(name, "cg_count") ||
			                        !strcmp(name, "cg_bind") || !strcmp(name, "group"))) {
				if ((rc = lkp_cgroup_knob(w, "cgroup", key, val)))
					return rc;
				w->lkp_v1 = 1;
				continue;
			}
			if (loose) {
				if ((rc = other_key(w, ctx, key, val)))
					return rc;
				continue;
			}
			return unknown_key(w, ctx, key);
		}
		const char *pname = k->param ? k->param : k->key;
		struct bb_jvalue *v;
		size_t n;
		int axis;
		if (k->kind == K_SECTION && (k->sub == C_NETPERF || k->sub == C_STRESSNG))
			w->doc->has_program = 1;
		switch (k->kind) {
		case K_SECTION:
			if (is_null(val))
				break;
			if (val->type != YAML_MAPPING_NODE)
				return jfail(w, val->start_mark,
				             "%s: expected a mapping of keys (see "
				             "docs/jobs.md)",
				             name);
			{
				int prog = k->sub == C_NETPERF || k->sub == C_STRESSNG;
				int was = w->prog;
				w->prog |= prog;
				rc = walk_map(w, k->sub, val);
				w->prog = was;
				if (rc)
					return rc;
			}
			break;
		case K_SYSCTL:
			if ((rc = walk_free_map(w, k, "sysctl", val)))
				return rc;
			break;
		case K_LIMITS:
			if ((rc = walk_free_map(w, k, "cgroup.limit", val)))
				return rc;
			break;
		case K_SERVER:
			if (!is_null(val) &&
			    !(val->type == YAML_MAPPING_NODE &&
			      val->data.mapping.pairs.start == val->data.mapping.pairs.top))
				return jfail(w, val->start_mark,
				             "%s: takes no options (benchboot "
				             "runs netserver -4 -D, or -6 with ip: ipv6)",
				             name);
			if (!(v = calloc(1, sizeof *v)) || !(v->s = strdup(""))) {
				free(v);
				return -ENOMEM;
			}
			v->mark = mark_of(val->start_mark);
			if ((rc = add_param(w, key->start_mark, name, "netserver", v, 1, 0,
			                    BB_LEVEL_RUN)))
				return rc;
			break;
		case K_CGROUP2:
			if ((rc = walk_cgroup2(w, key, val)))
				return rc;
			break;
		case K_NETBUF:
			if ((rc = add_one(w, key->start_mark, name, "net-buffer", "1",
			                  val->start_mark, BB_LEVEL_RUN)))
				return rc;
			break;
		case K_CGROUP:
			if (val->type == YAML_MAPPING_NODE) {
				w->lkp_v1 = 0;
				if ((rc = walk_map(w, C_CGROUP, val)))
					return rc;
				/* only LKP knobs, no mode: LKP's cgroup setup is v1 */
				if (w->lkp_v1 && !doc_find(w->doc, "cgroup.mode") &&
				    (rc = add_one(w, key->start_mark, "cgroup", "cgroup.mode", "v1",
				                  key->start_mark, BB_LEVEL_BOOT)))
					return rc;
				break;
			}
			/* `cgroup: v2` or `cgroup: [v1, v2]` */
			__attribute__((fallthrough));
		default:
			if ((rc = take_values(w, k, name, val, &v, &n, &axis)))
				return rc;
			if (k->kind == K_IGNORE) {
				for (size_t i = 0; i < n; i++)
					free(v[i].s);
				free(v);
				break;
			}
			if ((rc = add_param(w, key->start_mark, name, pname, v, n, axis, k->level)))
				return rc;
			break;
		}
	}
	return 0;
}

/* Keys that only make sense in one suite, checked once the suite is known. */
static int check_suite_keys(struct walker *w, yaml_node_t *map, enum ctx ctx, const char *suite)
{
	int rc;
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *key = yaml_document_get_node(w->yd, pair->key);
		yaml_node_t *val = yaml_document_get_node(w->yd, pair->value);
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			const struct keydef *k = &keys[i];
			if (k->ctx != ctx || strcmp(k->key, scalar(key)))
				continue;
			if (k->suite && strcmp(k->suite, suite))
				return jfail(w, key->start_mark, "%s: not part of suite %s", k->key,
				             suite);
			if (k->kind == K_SECTION && val->type == YAML_MAPPING_NODE &&
			    (rc = check_suite_keys(w, val, k->sub, suite)))
				return rc;
		}
	}
	return 0;
}

/* The suite of the file: the first `suite:` or `testcase:` of any document. */
static const char *find_suite(yaml_document_t *yds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *root = yaml_document_get_root_node(&yds[i]);
		if (!root || root->type != YAML_MAPPING_NODE)
			continue;
		for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
		     p < root->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(&yds[i], p->key);
			yaml_node_t *v = yaml_document_get_node(&yds[i], p->value);
			if (k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE &&
			    (!strcmp(scalar(k), "suite") || !strcmp(scalar(k), "testcase")))
				return scalar(v);
		}
	}
	return NULL;
}

/* Parse all documents, find the suite, walk each into a parameter list. */
static int load_docs(struct walker *w, const char *text, size_t len, struct bb_jdoc **docs,
                     size_t *ndocs, char **suite)
{
	yaml_parser_t parser;
	yaml_document_t *yds = NULL;
	size_t nyds = 0, yds_cap = 0;
	int rc = 0;
	*docs = NULL;
	*ndocs = 0;
	*suite = NULL;
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	for (;;) {
		if (bb_grow(&yds, &yds_cap, nyds + 1, sizeof(*yds))) {
			rc = -ENOMEM;
			break;
		}
		if (!yaml_parser_load(&parser, &yds[nyds])) {
			jfail(w, parser.problem_mark, "YAML syntax error: %s%s%s",
			      parser.problem ? parser.problem : "unknown", parser.context ? " " : "",
			      parser.context ? parser.context : "");
			rc = -EINVAL;
			break;
		}
		if (!yaml_document_get_root_node(&yds[nyds])) {
			yaml_document_delete(&yds[nyds]);
			if (!nyds) {
				snprintf(w->err, w->errlen, "%s: empty job file", w->file);
				rc = -EINVAL;
			}
			break;
		}
		nyds++;
	}
	const char *s = rc ? NULL : find_suite(yds, nyds);
	if (!rc && s && strcmp(s, "netperf") && strcmp(s, "stress-ng"))
		s = NULL; /* the walk reports it */
	w->suite = s;
	if (!rc && !(*docs = calloc(nyds ? nyds : 1, sizeof **docs)))
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < nyds; i++) {
		yaml_node_t *root = yaml_document_get_root_node(&yds[i]);
		w->yd = &yds[i];
		w->doc = &(*docs)[(*ndocs)++];
		w->doc->index = (int)i;
		w->doc->mark = mark_of(root->start_mark);
		w->top = NULL;
		w->prog = 0;
		if (root->type != YAML_MAPPING_NODE)
			rc = jfail(w, root->start_mark,
			           "a job document is a mapping of keys (suite: netperf, ...)");
		else
			rc = walk_map(w, C_TOP, root);
	}
	/* one suite per file */
	for (size_t i = 0; !rc && i < *ndocs; i++) {
		w->yd = &yds[i];
		w->doc = &(*docs)[i];
		const struct bb_jparam *sp = bb_jdoc_get(w->doc, "suite");
		if (!sp)
			continue;
		if (*suite && strcmp(*suite, sp->v[0].s))
			rc = jfail(w, ymark(sp->mark),
			           "suite: '%s' here, '%s' before: one job file runs one suite",
			           sp->v[0].s, *suite);
		else if (!*suite && !(*suite = strdup(sp->v[0].s)))
			rc = -ENOMEM;
	}
	if (!rc && !*suite) {
		/* a mistyped `suite:` (sutie:) is named where it is, with the key it wants */
		yaml_node_t *root = yaml_document_get_root_node(&yds[0]), *near = NULL;
		for (yaml_node_pair_t *pair = root && root->type == YAML_MAPPING_NODE
		                                  ? root->data.mapping.pairs.start
		                                  : NULL;
		     pair && pair < root->data.mapping.pairs.top && !near; pair++) {
			yaml_node_t *k = yaml_document_get_node(&yds[0], pair->key);
			if (k && k->type == YAML_SCALAR_NODE && edit_distance(scalar(k), "suite") <= 2)
				near = k;
		}
		if (near)
			rc = jfail(w, near->start_mark,
			           "unknown key '%s' (did you mean 'suite'?), and the job has no "
			           "'suite' (netperf or stress-ng)",
			           scalar(near));
		else
			rc = jfail(w, root ? root->start_mark : yds[0].start_mark,
			           "missing key 'suite' (netperf or stress-ng)");
	}
	for (size_t i = 0; !rc && i < *ndocs; i++) {
		w->yd = &yds[i];
		w->doc = &(*docs)[i];
		rc = check_suite_keys(w, yaml_document_get_root_node(w->yd), C_TOP, *suite);
	}
	for (size_t i = 0; i < nyds; i++)
		yaml_document_delete(&yds[i]);
	free(yds);
	yaml_parser_delete(&parser);
	return rc;
}

static int has_top(const struct bb_jdoc *d, const char *top)
{
	for (size_t i = 0; i < d->tops.n; i++)
		if (!strcmp(d->tops.v[i], top))
			return 1;
	return 0;
}

static int copy_param(struct bb_jdoc *to, const struct bb_jparam *from)
{
	struct bb_jparam *p = doc_slot(to);
	if (!p)
		return -ENOMEM;
	*p = *from;
	p->v = calloc(from->n, sizeof *p->v);
	p->name = strdup(from->name);
	p->top = strdup(from->top);
	p->n = 0;
	if (!p->v || !p->name || !p->top) {
		free(p->v);
		free(p->name);
		free(p->top);
		return -ENOMEM;
	}
	to->n++;
	for (size_t k = 0; k < from->n; k++) {
		if (!(p->v[k].s = strdup(from->v[k].s)))
			return -ENOMEM;
		p->v[k].mark = from->v[k].mark;
		p->n++;
	}
	return 0;
}

/*
 * Job i of a multi-document file, as LKP's each_jobs makes it: document 0 with document i's
 * top-level keys replacing document 0's whole values (Hash#merge! at the top level).
 */
static int merge_doc0(const struct bb_jdoc *doc0, const struct bb_jdoc *di, struct bb_jdoc *out)
{
	int rc = 0;
	memset(out, 0, sizeof *out);
	out->index = di->index;
	out->mark = di->mark;
	out->has_program = di->has_program || doc0->has_program;
	for (size_t i = 0; i < doc0->n && !rc; i++)
		if (!has_top(di, doc0->p[i].top))
			rc = copy_param(out, &doc0->p[i]);
	for (size_t i = 0; i < di->n && !rc; i++) {
		/* document 0's top-level option and document i's program block setting it:
		 * the block's wins, as within one document (and the other way round) */
		struct bb_jparam *old = doc_find(out, di->p[i].name);
		if (old && old->prog && !di->p[i].prog)
			continue;
		if (old) {
			param_free(old);
			*old = out->p[--out->n];
		}
		rc = copy_param(out, &di->p[i]);
	}
	for (size_t i = 0; i < doc0->tops.n && !rc; i++)
		if (!has_top(di, doc0->tops.v[i]))
			rc = bb_strv_add(&out->tops, doc0->tops.v[i]);
	for (size_t i = 0; i < di->tops.n && !rc; i++)
		rc = bb_strv_add(&out->tops, di->tops.v[i]);
	return rc;
}

/* Parameters keep the order of the file (by where their key is): axes expand in that order. */
static int cmp_param_pos(const void *a, const void *b)
{
	const struct bb_jparam *x = a, *y = b;
	if (x->mark.line != y->mark.line)
		return x->mark.line - y->mark.line;
	return x->mark.col - y->mark.col;
}

/* Cross-key checks on a merged document. */
/* The controllers of the limits (LKP's cgroup setups name knobs only): "memory pids". */
static int controllers_of_limits(struct bb_jdoc *d)
{
	char list[256] = "";
	struct bb_mark at = {0, 0};
	for (size_t i = 0; i < d->n; i++) {
		const char *f = d->p[i].name;
		if (strncmp(f, "cgroup.limit.", 13) || !strncmp(f + 13, "cgroup.", 7))
			continue;
		f += 13;
		char c[32];
		snprintf(c, sizeof c, "%.*s", (int)strcspn(f, "."), f);
		if (!at.line)
			at = d->p[i].mark;
		int have = 0;
		for (const char *p = list; *p && !have;) {
			size_t n = strcspn(p, " ");
			have = n == strlen(c) && !strncmp(p, c, n);
			p += n + (p[n] == ' ');
		}
		if (!have)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
			         *list ? " " : "", c);
	}
	if (!*list)
		return 0;
	struct bb_jparam *p = doc_slot(d);
	if (!p)
		return -ENOMEM;
	p->v = calloc(1, sizeof *p->v);
	p->name = strdup("cgroup.controllers");
	p->top = strdup("cgroup");
	if (!p->v || !p->name || !p->top || !(p->v[0].s = strdup(list))) {
		if (p->v)
			free(p->v[0].s);
		free(p->v);
		free(p->name);
		free(p->top);
		return -ENOMEM;
	}
	p->n = 1;
	p->level = BB_LEVEL_BOOT;
	p->mark = p->v[0].mark = at;
	d->n++;
	return 0;
}

/* The words of s that are no plumbing (cmdline.h), appended to out (a blank between). */
static void applied_words(const char *s, char *out, size_t len)
{
	char word[512];
	while (*s) {
		size_t n = strcspn(s, " \t");
		if (n && n < sizeof word) {
			memcpy(word, s, n);
			word[n] = 0;
			if (!bb_cmdline_plumbing(word))
				snprintf(out + strlen(out), len - strlen(out), "%s%s", *out ? " " : "",
				         word);
		}
		s += n;
		s += strspn(s, " \t");
	}
}

/*
 * The boot's kernel command line: the applied words of `kernel_cmdline:` (each value of an
 * axis), then those of `bootloader_append:`, as 0-day's boot loader put both on one line.
 * The words as written stay for check (cmdline.kernel_cmdline, cmdline.bootloader_append).
 */
static int fold_cmdline(struct bb_jdoc *d)
{
	struct bb_jparam *kp = doc_find(d, "kernel_cmdline");
	const struct bb_jparam *ba = bb_jdoc_get(d, "cmdline.bootloader_append");
	char line[4096];
	int rc;
	if (!kp && !ba)
		return 0;
	if (kp) {
		/* one value (every word of every value): no axis of its own */
		line[0] = 0;
		for (size_t i = 0; i < kp->n; i++)
			snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s",
			         *line ? " " : "", kp->v[i].s);
		struct bb_jparam copy = {.name = "cmdline.kernel_cmdline", .top = kp->top,
		                         .v = &(struct bb_jvalue){line, kp->mark}, .n = 1,
		                         .level = BB_LEVEL_INFO, .mark = kp->mark};
		if ((rc = copy_param(d, &copy)))
			return rc;
		/* d->p may have moved: both found again */
		kp = doc_find(d, "kernel_cmdline");
		ba = bb_jdoc_get(d, "cmdline.bootloader_append");
		for (size_t i = 0; i < kp->n; i++) {
			line[0] = 0;
			applied_words(kp->v[i].s, line, sizeof line);
			if (ba)
				applied_words(ba->v[0].s, line, sizeof line);
			char *t = strdup(line);
			if (!t)
				return -ENOMEM;
			free(kp->v[i].s);
			kp->v[i].s = t;
		}
		return 0;
	}
	line[0] = 0;
	applied_words(ba->v[0].s, line, sizeof line);
	if (!*line)
		return 0;
	struct bb_jparam np = {.name = "kernel_cmdline", .top = "bootloader_append",
	                       .v = &(struct bb_jvalue){line, ba->mark}, .n = 1,
	                       .level = BB_LEVEL_BOOT, .mark = ba->mark};
	return copy_param(d, &np);
}

static int check_doc(struct walker *w, const char *suite, struct bb_jdoc *d)
{
	int rc;
	if ((rc = fold_cmdline(d)))
		return rc;
	/* a rootfs whose environment benchboot does not know, when the job leaves the cgroup
	 * setup to it */
	const struct bb_jparam *rootfs = bb_jdoc_get(d, "lkp.rootfs");
	for (size_t i = 0; rootfs && !bb_jdoc_get(d, "cgroup.mode") && i < rootfs->n; i++)
		if (!bb_rootfs_find(rootfs->v[i].s)) {
			char msg[512];
			bb_rootfs_describe(rootfs->v[i].s, NULL, msg, sizeof msg);
			if ((rc = jwarn(w, ymark(rootfs->v[i].mark), "%s", msg)))
				return rc;
		}
	if (!bb_jdoc_get(d, "cgroup.controllers") && (rc = controllers_of_limits(d)))
		return rc;
	const struct bb_jparam *ctrls = bb_jdoc_get(d, "cgroup.controllers");
	const struct bb_jparam *mode = bb_jdoc_get(d, "cgroup.mode");
	for (size_t i = 0; i < d->n; i++) {
		const struct bb_jparam *p = &d->p[i];
		if (strncmp(p->name, "cgroup.", 7) || !strcmp(p->name, "cgroup.mode"))
			continue;
		if (!mode) {
			return jfail(w, ymark(p->mark), "%s: needs 'cgroup: mode:' (v1 or v2)", p->name);
		}
		for (size_t k = 0; k < mode->n; k++)
			if (!strcmp(mode->v[k].s, "none")) {
				return jfail(w, ymark(p->mark), "%s: cgroup mode none has no "
				         "controllers or limits", p->name);
			}
		if (!strncmp(p->name, "cgroup.limit.", 13)) {
			const char *file_name = p->name + 13;
			size_t clen = strcspn(file_name, ".");
			char ctrl[32];
			snprintf(ctrl, sizeof ctrl, "%.*s", (int)clen, file_name);
			int found = 0;
			if (ctrls) {
				const char *s = ctrls->v[0].s;
				while (*s && !found) {
					size_t n = strcspn(s, " ");
					found = n == strlen(ctrl) && !strncmp(s, ctrl, n);
					s += n;
					s += strspn(s, " ");
				}
			}
			if (!found && strcmp(ctrl, "cgroup")) {
				return jfail(w, ymark(p->mark), "cgroup.limits.%s: needs the %s "
				         "controller in 'controllers'", file_name, ctrl);
			}
		}
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct bb_jparam *p = &d->p[i];
		if (!strncmp(p->name, "nic.", 4) && strcmp(p->name, "nic.module") &&
		    !bb_jdoc_get(d, "nic.name")) {
			return jfail(w, ymark(p->mark), "nic.%s: needs 'name' in 'nic:' (the interface, e.g. eth0, "
			         "or its MAC address)", p->name + 4);
		}
	}
	/* a two-host job's NICs and addresses are the cluster file's */
	static const char *const cluster_nic[] = {"nic.name", "nic.address", "nic.gateway",
	                                          "nic.mtu", "nic.wait"};
	for (size_t i = 0; w->job->cluster && i < sizeof cluster_nic / sizeof *cluster_nic; i++) {
		const struct bb_jparam *p = bb_jdoc_get(d, cluster_nic[i]);
		if (p)
			return jfail(w, ymark(p->mark),
			             "%s: a two-host job's NIC and address are in its cluster file "
			             "(%s: nic, address); 'nic:' takes only module (the driver) here",
			             p->name, w->job->cluster->file);
	}
	if (!strcmp(suite, "stress-ng") && !bb_jdoc_get(d, "test") && !bb_jdoc_get(d, "class")) {
		return jfail(w, ymark(d->mark), "missing key 'test' in 'stress-ng:' (the stressor, "
		         "e.g. cpu or icmp-flood) or 'class'");
	}
	qsort(d->p, d->n, sizeof *d->p, cmp_param_pos);
	return 0;
}

static void set_name(struct bb_job *job, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".yaml"))
		n -= 5;
	else if (n > 4 && !strcmp(base + n - 4, ".yml"))
		n -= 4;
	job->name = strndup(base, n);
}

/* The sections an override may reach into (SECTION.KEY=VALUE); any other dotted key is one
 * key. */
static const char *const set_sections[] = {"netperf", "stress-ng", "cgroup", "cgroup2",
                                           "sysctl",  "nic",       "affinity", NULL};

static void doc_drop(struct bb_jdoc *d, size_t i)
{
	param_free(&d->p[i]);
	d->p[i] = d->p[--d->n];
}

/* One --set KEY=VALUE on every job of the file (bb_job_parse_text_set). */
static int apply_set(struct walker *w, struct bb_job *job, const char *set)
{
	const char *eq = strchr(set, '=');
	char key[128], text[2048], label[256];
	int rc = 0;
	snprintf(label, sizeof label, "--set %s", set);
	size_t kl = eq ? (size_t)(eq - set) : 0;
	int ok = kl > 0 && kl < sizeof key;
	for (size_t i = 0; ok && i < kl; i++)
		ok = isalnum((unsigned char)set[i]) || strchr("._+-", set[i]);
	if (!ok || strchr(set, '\n')) {
		snprintf(w->err, w->errlen,
		         "%s: expected KEY=VALUE (runtime=10s, netperf.send_size=4K, "
		         "nr_threads=[1, 2])",
		         label);
		return -EINVAL;
	}
	memcpy(key, set, kl);
	key[kl] = 0;
	const char *dot = strchr(key, '.');
	int nested = 0;
	for (const char *const *sec = set_sections; dot && *sec && !nested; sec++)
		nested = strlen(*sec) == (size_t)(dot - key) && !strncmp(key, *sec, dot - key);
	if (dot && !nested) { /* a monitor's option: --set vmstat.interval=2 */
		char mon[128];
		snprintf(mon, sizeof mon, "%.*s", (int)(dot - key), key);
		nested = bb_monitor_has_options(mon);
	}
	if (nested)
		snprintf(text, sizeof text, "%.*s:\n  %s: %s\n", (int)(dot - key), key, dot + 1,
		         eq + 1);
	else
		snprintf(text, sizeof text, "%s: %s\n", key, eq + 1);

	struct bb_jdoc ov = {0};
	yaml_parser_t parser;
	yaml_document_t yd;
	struct walker sw = *w;
	sw.file = label;
	sw.map = NULL;
	sw.doc = &ov;
	sw.yd = &yd;
	sw.top = NULL;
	sw.prog = 0;
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	if (!yaml_parser_load(&parser, &yd)) {
		yaml_parser_delete(&parser);
		snprintf(w->err, w->errlen, "%s: not a YAML value: %s", label,
		         parser.problem ? parser.problem : "syntax error");
		return -EINVAL;
	}
	yaml_node_t *root = yaml_document_get_root_node(&yd);
	if (!root || root->type != YAML_MAPPING_NODE)
		rc = jfail(&sw, (yaml_mark_t){0}, "expected KEY=VALUE");
	else
		rc = walk_map(&sw, C_TOP, root);
	yaml_document_delete(&yd);
	yaml_parser_delete(&parser);
	for (size_t d = 0; d < job->ndocs && !rc; d++) {
		struct bb_jdoc *jd = &job->docs[d];
		if (!nested) /* the whole top-level key is replaced, as LKP's Hash merge does */
			for (size_t i = jd->n; i-- > 0;)
				if (!strcmp(jd->p[i].top, key))
					doc_drop(jd, i);
		for (size_t i = 0; i < ov.n && !rc; i++) {
			struct bb_jparam *old = doc_find(jd, ov.p[i].name);
			if (old && old->prog && !ov.p[i].prog) {
				int line;
				src_of(w, (size_t)old->mark.line - 1, &line);
				rc = jwarn(&sw, (yaml_mark_t){0},
				           "%s: the job's '%s' in '%s:' (line %d) wins, as in LKP: "
				           "--set %s.%s=%s replaces it",
				           ov.p[i].name, ov.p[i].name, old->top, line,
				           strcmp(job->suite, "netperf") ? "stress-ng" : "netperf",
				           ov.p[i].name, eq + 1);
				continue;
			}
			struct bb_mark at = old ? old->mark : (struct bb_mark){0, 0};
			if (old)
				doc_drop(jd, (size_t)(old - jd->p));
			if ((rc = copy_param(jd, &ov.p[i])))
				break;
			jd->p[jd->n - 1].mark = at;
		}
		jd->has_program |= ov.has_program;
	}
	doc_free(&ov);
	return rc;
}

static int parse_text(const char *path, const char *text, size_t len, const struct bb_strv *sets,
                      struct bb_job *job, char *err, size_t errlen);

int bb_job_parse_text(const char *path, const char *text, size_t len, struct bb_job *job, char *err,
                      size_t errlen)
{
	return parse_text(path, text, len, NULL, job, err, errlen);
}

int bb_job_parse_text_set(const char *path, const char *text, size_t len,
                          const struct bb_strv *sets, struct bb_job *job, char *err,
                          size_t errlen)
{
	return parse_text(path, text, len, sets, job, err, errlen);
}

int bb_job_repeat_to(const struct bb_job *job)
{
	int most = 0;
	for (size_t d = 0; d < job->ndocs; d++) {
		const struct bb_jparam *p = bb_jdoc_get(&job->docs[d], "lkp.repeat_to");
		char *e;
		long n = p ? strtol(p->v[0].s, &e, 10) : 0;
		if (p && *e == 0 && n > most && n <= 1000)
			most = (int)n;
	}
	return most;
}

/* How deep a job's flow collections ([ and {) may nest: LKP's jobs use two or three levels;
 * libyaml takes quadratic time on deep nesting (a 400 KB file of [ ran past 20 s). */
#define MAX_FLOW_DEPTH 32

/* The job's text before libyaml sees it: its [ and { (outside quotes and comments) nested no
 * deeper than MAX_FLOW_DEPTH, else an error at the one too deep. */
static int flow_depth_ok(struct walker *w, const char *t, size_t len)
{
	int depth = 0;
	char quote = 0;
	yaml_mark_t m = {0, 0, 0};
	for (size_t i = 0; i < len; i++, m.index++, m.column++) {
		char c = t[i];
		if (c == '\n') {
			m.line++;
			m.column = (size_t)-1;
			quote = 0; /* a quoted scalar over lines: counted no further */
			continue;
		}
		if (quote) {
			if (c == quote)
				quote = 0;
			else if (c == '\\' && quote == '"' && i + 1 < len && t[i + 1] != '\n')
				i++, m.index++, m.column++;
			continue;
		}
		if (c == '#' && (!i || t[i - 1] == ' ' || t[i - 1] == '\t' || t[i - 1] == '\n')) {
			while (i + 1 < len && t[i + 1] != '\n')
				i++, m.index++, m.column++;
			continue;
		}
		if (c == '\'' || c == '"')
			quote = c;
		else if (c == '[' || c == '{') {
			if (++depth > MAX_FLOW_DEPTH)
				return jfail(w, m,
				             "[ and { nested deeper than %d levels: not a job (LKP's "
				             "nest two or three)",
				             MAX_FLOW_DEPTH);
		} else if ((c == ']' || c == '}') && depth > 0)
			depth--;
	}
	return 0;
}

static int parse_text(const char *path, const char *text, size_t len, const struct bb_strv *sets,
                      struct bb_job *job, char *err, size_t errlen)
{
	struct bb_jdoc *docs = NULL;
	size_t ndocs = 0;
	char *suite = NULL, *xtext = NULL;
	size_t xlen;
	struct bb_srcmap map;
	struct walker w = {.file = path, .map = &map, .job = job, .err = err, .errlen = errlen};
	int rc;

	memset(job, 0, sizeof *job);
	rc = bb_job_expand_includes(path, text, len, &xtext, &xlen, &map, err, errlen);
	if (rc)
		return rc;
	rc = flow_depth_ok(&w, xtext, xlen);
	if (!rc)
		rc = load_docs(&w, xtext, xlen, &docs, &ndocs, &suite);
	if (rc)
		goto out;
	job->file = strdup(path);
	set_name(job, path);
	job->suite = suite;
	suite = NULL;
	sha256_hex(xtext, xlen, job->digest);
	job->nfiledocs = ndocs;
	if (!(job->docs = calloc(ndocs, sizeof *job->docs))) {
		rc = -ENOMEM;
		goto out;
	}
	/* LKP: document 0 is a job, then document 0 + document i for every later one. A
	 * document 0 that names no program would run no benchmark in LKP: not a job here. */
	for (size_t i = 0; i < ndocs && !rc; i++) {
		if (i == 0 && ndocs > 1 && !docs[0].has_program) {
			char buf[256];
			snprintf(buf, sizeof buf,
			         "document 0 names no program (%s:): LKP would run it as a job "
			         "with no benchmark; benchboot runs only the documents after it",
			         job->suite);
			if (!(job->skipped = strdup(buf)))
				rc = -ENOMEM;
			continue;
		}
		if (i == 0) {
			rc = merge_doc0(&(struct bb_jdoc){0}, &docs[0], &job->docs[job->ndocs]);
			job->docs[job->ndocs].index = 0;
		} else {
			rc = merge_doc0(&docs[0], &docs[i], &job->docs[job->ndocs]);
		}
		job->ndocs++;
	}
	for (size_t i = 0; sets && i < sets->n && !rc; i++)
		if (!(rc = apply_set(&w, job, sets->v[i])))
			rc = bb_strv_add(&job->sets, sets->v[i]);
	for (size_t i = 0; i < job->ndocs && !rc; i++)
		rc = check_doc(&w, job->suite, &job->docs[i]);
	if (!rc && (!job->file || !job->name))
		rc = -ENOMEM;
	if (!rc) {
		job->files = map.files; /* the job takes them over */
		map.files = (struct bb_strv){0};
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	for (size_t i = 0; i < ndocs; i++)
		doc_free(&docs[i]);
	free(docs);
	free(suite);
	free(xtext);
	bb_srcmap_free(&map);
	if (rc)
		bb_job_free(job);
	return rc;
}

int bb_job_parse_file(const char *path, struct bb_job *job, char *err, size_t errlen)
{
	return bb_job_parse_file_set(path, NULL, job, err, errlen);
}

int bb_job_parse_file_set(const char *path, const struct bb_strv *sets, struct bb_job *job,
                          char *err, size_t errlen)
{
	unsigned char *buf;
	size_t len;
	memset(job, 0, sizeof *job);
	/* the job's name is its file's, and it names the images and the results folder: refused
	 * here, as build would refuse it, before anything is read */
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t bl = strlen(base), nl = bl > 5 && !strcmp(base + bl - 5, ".yaml") ? bl - 5
	                               : bl > 4 && !strcmp(base + bl - 4, ".yml") ? bl - 4
	                                                                         : 0;
	if (!nl) {
		snprintf(err, errlen, "%s: a job file's name ends in .yaml (or .yml): rename it", path);
		return -EINVAL;
	}
	for (size_t i = 0; i < nl; i++)
		if (!isalnum((unsigned char)base[i]) || (unsigned char)base[i] >= 0x80)
			if (!strchr("._+-", base[i])) {
				snprintf(err, errlen,
				         "%s: the job's name '%.*s' (its file's) must be made of "
				         "letters, digits and ._+-: it names the images and the results "
				         "folder; rename the file",
				         path, (int)nl, base);
				return -EINVAL;
			}
	int rc = fileio_read_all(path, &buf, &len);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (len > (1u << 20)) {
		snprintf(err, errlen, "%s: larger than 1 MiB: not a job file", path);
		rc = -EINVAL;
	} else {
		rc = parse_text(path, (char *)buf, len, sets, job, err, errlen);
	}
	free(buf);
	return rc;
}

void bb_job_free(struct bb_job *job)
{
	for (size_t i = 0; i < job->ndocs; i++)
		doc_free(&job->docs[i]);
	bb_strv_free(&job->warnings);
	bb_strv_free(&job->files);
	bb_strv_free(&job->sets);
	free(job->skipped);
	free(job->docs);
	free(job->file);
	free(job->name);
	free(job->suite);
	free(job->cluster);
	memset(job, 0, sizeof *job);
}
