/* Matrix expansion, boot grouping and run ids (see matrix.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "host/errbuf.h"
#include "host/job/monitors.h"
#include "host/job/expr.h"
#include "host/job/matrix.h"
#include "host/job/rootfs.h"
#include "host/job/units.h"
#include "plan/plan.h"

#define RUNID_MAX 200

static void run_free(struct bb_run *r)
{
	free(r->id);
	bb_kvs_free(&r->params);
}

void bb_matrix_free(struct bb_matrix *m)
{
	for (size_t b = 0; b < m->nboots; b++) {
		for (size_t r = 0; r < m->boots[b].nruns; r++)
			run_free(&m->boots[b].runs[r]);
		free(m->boots[b].runs);
		bb_kvs_free(&m->boots[b].params);
	}
	free(m->boots);
	memset(m, 0, sizeof *m);
}

/* Place a run in the boot group with these boot params. Both lists are taken (moved into
 * the matrix or freed), also on failure. */
static int place(struct bb_matrix *m, struct bb_kvs *bp, struct bb_run *run)
{
	struct bb_boot *b = NULL;
	for (size_t i = 0; i < m->nboots && !b; i++)
		if (bb_kvs_equal(&m->boots[i].params, bp))
			b = &m->boots[i];
	if (!b) {
		if (bb_grow(&m->boots, &m->boots_cap, m->nboots + 1, sizeof *m->boots))
			goto out_free;
		b = &m->boots[m->nboots++];
		memset(b, 0, sizeof *b);
		b->params = *bp;
	} else {
		bb_kvs_free(bp);
	}
	memset(bp, 0, sizeof *bp);
	if (bb_grow(&b->runs, &b->runs_cap, b->nruns + 1, sizeof *b->runs))
		goto out_free;
	b->runs[b->nruns++] = *run;
	m->nruns++;
	return 0;
out_free:
	bb_kvs_free(bp);
	run_free(run);
	return -ENOMEM;
}

/* The cgroup mode a kernel command line asks systemd for: v2, v1, or none. */
static const char *hierarchy(const char *cmdline)
{
	static const char word[] = "systemd.unified_cgroup_hierarchy=";
	const char *mode = "none";
	for (const char *p = cmdline; (p = strstr(p, word)); p += sizeof word - 1)
		if (p == cmdline || p[-1] == ' ') {
			const char *v = p + sizeof word - 1;
			size_t n = strcspn(v, " ");
			if ((n == 1 && *v == '1') || (n == 4 && !strncmp(v, "true", 4)) ||
			    (n == 3 && !strncmp(v, "yes", 3)))
				mode = "v2";
			else if ((n == 1 && *v == '0') || (n == 5 && !strncmp(v, "false", 5)) ||
			         (n == 2 && !strncmp(v, "no", 2)))
				mode = "v1";
		}
	return mode;
}

/*
 * The cgroup setup of a boot whose job sets none: the hierarchy the kernel command line
 * asks systemd for, else none; with a rootfs of the table, that rootfs's systemd layout
 * (its hierarchy, or the one the command line asks for; its controllers; the service
 * cgroup the job ran in).
 */
static int rootfs_layout(struct bb_kvs *bp, const char *rootfs)
{
	const char *asked = hierarchy(bb_kvs_get_or(bp, "kernel_cmdline", ""));
	const struct bb_rootfs_env *e = rootfs ? bb_rootfs_find(rootfs) : NULL;
	int rc;
	if (!e)
		return bb_kvs_add(bp, "cgroup.mode", asked);
	const char *mode = !strcmp(asked, "v2")   ? "v2"
	                   : !strcmp(asked, "v1") ? e->mode_v1
	                                          : e->mode;
	if ((rc = bb_kvs_add(bp, "cgroup.mode", mode)) ||
	    (rc = bb_kvs_add(bp, "cgroup.controllers", e->controllers)) ||
	    (rc = bb_kvs_add(bp, "cgroup.path", e->path)))
		return rc;
	return 0;
}

/* A name of an expression: a key of the run, then of the boot; LKP's SUITE.KEY is the
 * suite's key (fsmark.filesize). NULL: absent (nil). */
struct expr_scope {
	const struct bb_job *job;
	const struct bb_kvs *rp, *bp;
};

static const char *expr_lookup(const char *name, void *ctx)
{
	const struct expr_scope *sc = ctx;
	size_t n = strlen(sc->job->suite);
	if (!strncmp(name, sc->job->suite, n) && name[n] == '.')
		name += n + 1;
	const char *v = bb_kvs_get(sc->rp, name);
	return v ? v : bb_kvs_get(sc->bp, name);
}

/* LKP's {{ }} values of one combination evaluated in place (expr.h); *drop when one is nil
 * (LKP drops that job). 0, -EINVAL with err, -ENOMEM. */
static int eval_exprs(const struct bb_job *job, struct bb_kvs *bp, struct bb_kvs *rp, int *drop,
                      char *err, size_t errlen)
{
	struct expr_scope sc = {job, rp, bp};
	struct bb_kvs *both[] = {rp, bp};
	*drop = 0;
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < both[k]->n && !*drop; i++) {
			char *v, e[400];
			if (!bb_expr_in(both[k]->v[i].value))
				continue;
			int rc =
			    bb_expr_eval(both[k]->v[i].value, expr_lookup, &sc, &v, e, sizeof e);
			if (rc) {
				snprintf(err, errlen, "%s: %s: {{ }}: %s", job->file,
				         both[k]->v[i].key, e);
				return rc;
			}
			if (!v)
				*drop = 1;
			else
				free(both[k]->v[i].value), both[k]->v[i].value = v;
		}
	return 0;
}

/* Expand one document: an odometer over its axes, the last axis turning fastest. */
static int expand_doc(struct bb_matrix *m, const struct bb_job *job, const struct bb_jdoc *d,
                      char *err, size_t errlen)
{
	size_t *pos = calloc(d->n ? d->n : 1, sizeof *pos);
	int rc = 0;
	if (!pos)
		return -ENOMEM;
	for (;;) {
		struct bb_kvs bp = {0};
		struct bb_run run = {.doc = d->index};
		struct bb_kvs *rp = &run.params;
		for (size_t i = 0; i < d->n && !rc; i++) {
			const struct bb_jparam *p = &d->p[i];
			if (p->v[pos[i]].unset)
				continue; /* `key: [a, ]`: absent from this combination */
			if (p->level == BB_LEVEL_BOOT)
				rc = bb_kvs_add(&bp, p->name, p->v[pos[i]].s);
			else if (p->level == BB_LEVEL_RUN || p->level == BB_LEVEL_NOTE)
				rc = bb_kvs_add(rp, p->name, p->v[pos[i]].s);
		}
		/* defaults, recorded with the run so results say what ran; LKP's jobs choose
		 * the cgroup version with systemd.unified_cgroup_hierarchy=0|1; without a
		 * cgroup setup of the job's own, its rootfs's systemd layout (rootfs.h) */
		if (!rc && !bb_kvs_get(&bp, "cgroup.mode"))
			rc = rootfs_layout(&bp, bb_kvs_get(rp, "lkp.rootfs"));
		/* a rootfs is a boot's, as in LKP: two of them are two boots even when the job's
		 * own cgroup setup leaves them nothing else to differ in */
		if (!rc && bb_kvs_get(rp, "lkp.rootfs"))
			rc = bb_kvs_add(&bp, "lkp.rootfs", bb_kvs_get(rp, "lkp.rootfs"));
		int drop = 0;
		if (!rc)
			rc = eval_exprs(job, &bp, rp, &drop, err, errlen);
		if (!rc && !bb_kvs_get(rp, "nr_threads"))
			rc = bb_kvs_add(rp, "nr_threads", "1");
		if (!rc && !bb_kvs_get(rp, "runtime"))
			rc = bb_kvs_add(rp, "runtime", bb_suite_default_runtime(job->suite));
		if (!rc)
			rc = bb_suite_defaults(job->suite, rp);
		if (rc) {
			bb_kvs_free(&bp);
			run_free(&run);
			break;
		}
		if (drop) {
			bb_kvs_free(&bp);
			run_free(&run);
		} else if ((rc = place(m, &bp, &run))) {
			break;
		}
		/* next combination; done when every counter wrapped */
		size_t i = d->n;
		int more = 0;
		while (i > 0 && !more) {
			i--;
			if (++pos[i] < d->p[i].n)
				more = 1;
			else
				pos[i] = 0;
		}
		if (!more)
			break;
	}
	free(pos);
	return rc;
}

static const char *short_name(const char *name)
{
	if (!strcmp(name, "affinity.server"))
		return "server_cpus";
	if (!strcmp(name, "affinity.client"))
		return "client_cpus";
	if (!strncmp(name, "sysctl.", 7) || !strncmp(name, "stress-ng.", 10) ||
	    !strncmp(name, "cgroup.limit.", 13)) {
		const char *dot = strrchr(name, '.');
		if (!strncmp(name, "stress-ng.", 10))
			return name + 10;
		return dot + 1;
	}
	return name;
}

static void id_append(char *id, size_t cap, size_t *len, const char *s, int sanitize)
{
	for (; *s; s++) {
		char c = *s;
		const char *rep = NULL;
		if (sanitize && c == '%')
			rep = "pct";
		else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		           (c >= '0' && c <= '9') || strchr("._+-", c)))
			c = '_';
		if (rep) {
			for (; *rep; rep++)
				if (*len + 1 < cap)
					id[(*len)++] = *rep;
		} else if (*len + 1 < cap) {
			id[(*len)++] = c;
		}
	}
	id[*len] = 0;
}

/* Names (in first-appearance order) of run parameters not equal in every run. */
static int varying_names(const struct bb_matrix *m, const char ***out, size_t *nout)
{
	const char **names = NULL;
	size_t n = 0, cap = 0;
	for (size_t b = 0; b < m->nboots; b++)
		for (size_t r = 0; r < m->boots[b].nruns; r++) {
			const struct bb_run *run = &m->boots[b].runs[r];
			for (size_t i = 0; i < run->params.n; i++) {
				size_t k;
				for (k = 0; k < n; k++)
					if (!strcmp(names[k], run->params.v[i].key))
						break;
				if (k < n)
					continue;
				if (bb_grow(&names, &cap, n + 1, sizeof *names)) {
					free(names);
					return -ENOMEM;
				}
				names[n++] = run->params.v[i].key;
			}
		}
	/* keep only those that differ somewhere (absent counts as a value of its own) */
	size_t kept = 0;
	const struct bb_run *first = m->nboots ? &m->boots[0].runs[0] : NULL;
	for (size_t k = 0; k < n; k++) {
		const char *v0 = first ? bb_kvs_get(&first->params, names[k]) : NULL;
		int varies = 0;
		for (size_t b = 0; b < m->nboots && !varies; b++)
			for (size_t r = 0; r < m->boots[b].nruns && !varies; r++) {
				const struct bb_run *run = &m->boots[b].runs[r];
				const char *v = bb_kvs_get(&run->params, names[k]);
				varies = (!v != !v0) || (v && strcmp(v, v0));
			}
		/* LKP keys recorded only ("lkp.*") do not name runs */
		if (varies && strcmp(names[k], "test") && strcmp(names[k], "class") &&
		    !bb_suite_is_server_key(names[k]) && strncmp(names[k], "lkp.", 4))
			names[kept++] = names[k];
	}
	*out = names;
	*nout = kept;
	return 0;
}

static int make_ids(struct bb_matrix *m, char *err, size_t errlen)
{
	const char **names;
	size_t n;
	int rc = varying_names(m, &names, &n);
	if (rc)
		return rc;
	for (size_t b = 0; b < m->nboots && !rc; b++) {
		struct bb_boot *boot = &m->boots[b];
		for (size_t r = 0; r < boot->nruns && !rc; r++) {
			struct bb_run *run = &boot->runs[r];
			char id[RUNID_MAX + 64];
			size_t len = 0;
			id[0] = 0;
			id_append(id, sizeof id, &len,
			          bb_kvs_get_or(&run->params, "test",
			                        bb_kvs_get_or(&run->params, "class", m->job->name)),
			          1);
			for (size_t k = 0; k < n; k++) {
				const char *v = bb_kvs_get(&run->params, names[k]);
				const char *sn = short_name(names[k]);
				if (!v)
					continue; /* not a parameter of this run (another document)
					           */
				for (size_t j = 0; j < n; j++)
					if (j != k && !strcmp(short_name(names[j]), sn))
						sn = names[k]; /* two share a short name */
				id_append(id, sizeof id, &len, ".", 0);
				id_append(id, sizeof id, &len, sn, 0);
				id_append(id, sizeof id, &len, "-", 0);
				id_append(id, sizeof id, &len, *v ? v : "none", 1);
			}
			if (len > RUNID_MAX) {
				snprintf(err, errlen,
				         "%s: run id longer than %d bytes: %.60s...: use "
				         "fewer axes",
				         m->job->file, RUNID_MAX, id);
				rc = -EINVAL;
				break;
			}
			for (size_t k = 0; k < r; k++)
				if (!strcmp(boot->runs[k].id, id)) {
					snprintf(err, errlen,
					         "%s: documents %d and %d describe the "
					         "same run '%s' in one boot",
					         m->job->file, boot->runs[k].doc, run->doc, id);
					rc = -EINVAL;
				}
			if (!rc && !(run->id = strdup(id)))
				rc = -ENOMEM;
		}
	}
	free(names);
	return rc;
}

/* The combinations a job's axes make, over its documents, checked before any is made: a job
 * of five 30-value axes would ask for 24 million runs (and gigabytes) before saying anything. */
static int matrix_size_ok(const struct bb_job *job, char *err, size_t errlen)
{
	unsigned long long total = 0;
	for (size_t d = 0; d < job->ndocs; d++) {
		const struct bb_jdoc *doc = &job->docs[d];
		unsigned long long n = 1;
		char axes[512] = "";
		for (size_t i = 0; i < doc->n; i++) {
			if (doc->p[i].n < 2)
				continue;
			if (n <= BB_MATRIX_MAX_RUNS)
				n *= doc->p[i].n;
			size_t l = strlen(axes);
			if (l + 64 < sizeof axes)
				snprintf(axes + l, sizeof axes - l, "%s%zu %s", l ? " x " : "",
				         doc->p[i].n, doc->p[i].name);
		}
		total += n;
		if (total > BB_MATRIX_MAX_RUNS)
			return bb_errbuf_fail(
			    err, errlen, -EINVAL,
			    "%s: the matrix has %s%llu runs (%s): at most %d; split the job, or "
			    "narrow "
			    "an axis with --set",
			    job->file, n > BB_MATRIX_MAX_RUNS ? "more than " : "",
			    n > BB_MATRIX_MAX_RUNS ? (unsigned long long)BB_MATRIX_MAX_RUNS : total,
			    axes, BB_MATRIX_MAX_RUNS);
	}
	return 0;
}

int bb_matrix_expand(const struct bb_job *job, struct bb_matrix *m, char *err, size_t errlen)
{
	int rc = 0;
	memset(m, 0, sizeof *m);
	m->job = job;
	if ((rc = matrix_size_ok(job, err, errlen)))
		return rc;
	for (size_t i = 0; i < job->ndocs && !rc; i++)
		rc = expand_doc(m, job, &job->docs[i], err, errlen);
	if (!rc)
		rc = make_ids(m, err, errlen);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc) {
		bb_matrix_free(m);
		m->job = job;
	}
	return rc;
}

int bb_boot_monitored(const struct bb_boot *boot)
{
	const char *v = bb_kvs_get(&boot->params, "monitored");
	return v ? atoi(v) : BB_MONITORED_DEFAULT;
}

int bb_run_monitored_suite(const char *suite, const struct bb_boot *boot, const struct bb_run *run,
                           struct bb_suite_run *sr, char *err, size_t errlen)
{
	double want = BB_MONITORED_RUNTIME_DEFAULT, have;
	const char *v = bb_kvs_get(&boot->params, "monitored_runtime");
	const char *rt = bb_kvs_get_or(&run->params, "runtime", bb_suite_default_runtime(suite));
	if (v && (bb_parse_duration(v, &want) || want <= 0))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "monitored_runtime: '%s' is not a positive duration", v);
	if (bb_parse_duration(rt, &have))
		return 0; /* a bad runtime: bb_suite_run says so */
	/* a run whose length is a count of work, not runtime, has no shorter twin */
	struct bb_suite_run measured;
	int rc = bb_suite_run(suite, &run->params, &measured, err, errlen);
	int timed = measured.timed;
	if (rc)
		return rc;
	bb_suite_run_free(&measured);
	if (!timed)
		return 0;
	/* what else the suite changes (netperf: its confidence options repeat the runtime up to
	 * 30 times, and the monitored twin makes one measurement of them) */
	struct bb_kvs twin = {0}, p = {0};
	rc = bb_suite_monitored(suite, &run->params, &twin, err, errlen);
	if (rc || (want >= have && !twin.n)) {
		bb_kvs_free(&twin);
		return rc == -ENOMEM ? bb_errbuf_fail(err, errlen, rc, "out of memory") : rc;
	}
	char secs[32];
	snprintf(secs, sizeof secs, "%gs", want < have ? want : have);
	for (size_t i = 0; i < run->params.n && !rc; i++)
		rc = bb_kvs_add(&p, run->params.v[i].key, run->params.v[i].value);
	if (!rc)
		rc = bb_kvs_set(&p, "runtime", secs);
	for (size_t i = 0; i < twin.n && !rc; i++)
		rc = bb_kvs_set(&p, twin.v[i].key, twin.v[i].value);
	bb_kvs_free(&twin);
	if (rc) {
		bb_kvs_free(&p);
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	rc = bb_suite_run(suite, &p, sr, err, errlen);
	bb_kvs_free(&p);
	return rc ? rc : 1;
}

int bb_matrix_estimate(const struct bb_matrix *m, double *min_s, double *max_s, char *err,
                       size_t errlen)
{
	*min_s = *max_s = 0;
	int monitors = bb_job_runs_monitors(m->job);
	if (monitors < 0)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t b = 0; b < m->nboots; b++) {
		const struct bb_boot *boot = &m->boots[b];
		/* warm-up iterations (`warmup:`) of the boot's first run: counted at the longest */
		int warmup = atoi(bb_kvs_get_or(&boot->params, "warmup", "0"));
		/* each run's monitored iterations (`monitored:`), when monitors run */
		int monitored = monitors ? bb_boot_monitored(boot) : 0;
		double wmin = 0, wmax = 0;
		*min_s += BB_BOOT_OVERHEAD_S;
		*max_s += BB_BOOT_OVERHEAD_S;
		for (size_t r = 0; r < boot->nruns; r++) {
			const struct bb_run *run = &boot->runs[r];
			struct bb_suite_run sr;
			int rc = bb_suite_run(m->job->suite, &run->params, &sr, err, errlen);
			if (rc)
				return rc;
			*min_s += sr.iterations * (sr.nominal_s + BB_RUN_OVERHEAD_S);
			*max_s += sr.iterations * (sr.runtime_s + BB_RUN_OVERHEAD_S);
			if (monitored) { /* as long as the measured ones, or shorter */
				struct bb_suite_run ms;
				int mr = bb_run_monitored_suite(m->job->suite, boot, run, &ms, err,
				                                errlen);
				if (mr < 0) {
					bb_suite_run_free(&sr);
					return mr;
				}
				const struct bb_suite_run *x = mr ? &ms : &sr;
				*min_s += monitored * (x->nominal_s + BB_RUN_OVERHEAD_S);
				*max_s += monitored * (x->runtime_s + BB_RUN_OVERHEAD_S);
				if (mr)
					bb_suite_run_free(&ms);
			}
			if (sr.nominal_s + BB_RUN_OVERHEAD_S > wmin)
				wmin = sr.nominal_s + BB_RUN_OVERHEAD_S;
			if (sr.runtime_s + BB_RUN_OVERHEAD_S > wmax)
				wmax = sr.runtime_s + BB_RUN_OVERHEAD_S;
			bb_suite_run_free(&sr);
		}
		*min_s += warmup * wmin;
		*max_s += warmup * wmax;
	}
	return 0;
}
