/* A job's trends across the kernels of the store; see trend.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare/primary.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/store/changepoint.h"
#include "host/store/trend.h"

/* The points of the kernels order names, in its order (each kernel's boots in theirs); the
 * others freed. 0 or -ENOMEM. */
static int order_points(struct bb_store_point *p, size_t *n, const struct bb_strv *order)
{
	struct bb_store_point *tmp = malloc((*n ? *n : 1) * sizeof *tmp);
	size_t m = 0;
	if (!tmp)
		return -ENOMEM;
	for (size_t k = 0; k < order->n; k++)
		for (size_t i = 0; i < *n; i++)
			if (p[i].kernel && !strcmp(p[i].kernel, order->v[k])) {
				tmp[m++] = p[i];
				p[i].kernel = NULL; /* taken */
			}
	for (size_t i = 0; i < *n; i++)
		if (p[i].kernel) {
			free(p[i].kernel);
			free(p[i].boot_id);
		}
	memcpy(p, tmp, m * sizeof *tmp);
	*n = m;
	free(tmp);
	return 0;
}

/* The kernels of a series: per point its kernel's index; per kernel its first point. */
static size_t kernels_of(const struct bb_store_point *p, size_t n, size_t *group, size_t *first)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && p[i].kernel_id != p[i - 1].kernel_id)
			k++;
		if (!i || p[i].kernel_id != p[i - 1].kernel_id)
			first[k] = i;
		group[i] = k;
	}
	first[n ? k + 1 : 0] = n;
	return n ? k + 1 : 0;
}

/* Each change point against the segments around it (up to the next change points). */
static int change_intervals(struct bb_trend_series *s, const double *v)
{
	size_t *ids = malloc((s->n + 1) * sizeof *ids);
	int rc = 0;
	if (!ids)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		ids[i] = i;
	for (size_t c = 0; !rc && c < s->ncps; c++) {
		struct bb_trend_change *cp = &s->cps[c];
		size_t at = cp->at, a = c ? s->cps[c - 1].at : 0,
		       b = c + 1 < s->ncps ? s->cps[c + 1].at : s->n;
		cp->boots_before = at - a;
		cp->boots_after = b - at;
		rc = bb_change_interval(v + a, ids + a, at - a, v + at, ids + at, b - at, NULL,
		                        0.95, &cp->iv);
	}
	free(ids);
	return rc;
}

/* The series of one run's stat and its change points. 0, or -errno with err. */
static int series_load(struct bb_store *st, const struct bb_trend_query *q, const char *run,
                       const char *stat, struct bb_trend_series *out, char *err, size_t errlen)
{
	struct bb_trend_series *s = out;
	memset(s, 0, sizeof *s);
	s->run = run;
	s->stat = stat;
	int rc = bb_store_series(st, q->job, run, stat, &s->p, &s->n, err, errlen);
	if (rc)
		return rc;
	if (q->order && (rc = order_points(s->p, &s->n, q->order)))
		return bb_errbuf_fail(err, errlen, rc, "out of memory");
	size_t n = s->n;
	struct bb_changepoint cps[BB_TREND_MAX_CHANGES];
	double *v = calloc(n + 1, sizeof *v);
	s->group = calloc(n + 1, sizeof *s->group);
	s->first = calloc(n + 2, sizeof *s->first);
	s->means = calloc(n + 1, sizeof *s->means);
	if (!v || !s->group || !s->first || !s->means)
		rc = -ENOMEM;
	if (!rc) {
		s->nk = kernels_of(s->p, n, s->group, s->first);
		s->lo = INFINITY;
		s->hi = -INFINITY;
		for (size_t i = 0; i < n; i++) {
			v[i] = s->p[i].value;
			s->lo = fmin(s->lo, v[i]);
			s->hi = fmax(s->hi, v[i]);
		}
		for (size_t k = 0; k < s->nk; k++) {
			struct bb_sample m;
			bb_sample_compute(v + s->first[k], s->first[k + 1] - s->first[k], &m);
			s->means[k] = m.mean;
		}
		rc = bb_changepoints(v, s->group, n, q->min_kernels, q->max_p, cps,
		                     BB_TREND_MAX_CHANGES, &s->ncps);
	}
	for (size_t c = 0; !rc && c < s->ncps; c++) {
		s->cps[c].at = cps[c].at;
		s->cps[c].p = cps[c].p;
	}
	if (!rc)
		rc = change_intervals(s, v);
	free(v);
	return rc == -ENOMEM ? bb_errbuf_fail(err, errlen, rc, "out of memory") : rc;
}

static void series_free(struct bb_trend_series *s)
{
	free(s->group);
	free(s->first);
	free(s->means);
	bb_store_points_free(s->p, s->n);
	memset(s, 0, sizeof *s);
}

/* The stats of one run to follow: q's stat, all of them, or the primary one. */
static int run_stats(struct bb_store *st, const struct bb_trend_query *q, const char *run,
                     struct bb_strv *out, char *err, size_t errlen)
{
	if (q->stat && strcmp(q->stat, "all"))
		return bb_strv_add(out, q->stat) ? -ENOMEM : 0;
	struct bb_strv all = {0};
	int rc = bb_store_stats(st, q->job, run, &all, err, errlen), best = -1;
	const char *primary = NULL;
	for (size_t i = 0; !rc && i < all.n; i++) {
		int rank = bb_primary_rank(all.v[i]);
		if (q->stat)
			rc = bb_strv_add(out, all.v[i]) ? -ENOMEM : 0;
		else if (rank >= 0 && (best < 0 || rank < best)) {
			best = rank;
			primary = all.v[i];
		}
	}
	if (!rc && primary)
		rc = bb_strv_add(out, primary) ? -ENOMEM : 0;
	bb_strv_free(&all);
	return rc;
}

int bb_trend_walk(struct bb_store *st, const struct bb_trend_query *q, bb_trend_fn *fn, void *ctx,
                  char *err, size_t errlen)
{
	struct bb_strv runs = {0};
	int rc, found = 0;
	if (q->run)
		rc = bb_strv_add(&runs, q->run) ? -ENOMEM : 0;
	else
		rc = bb_store_runs(st, q->job, &runs, err, errlen);
	if (!rc && !runs.n)
		rc = bb_errbuf_fail(err, errlen, -ENOENT,
		                    "the store %s has no boot of the job '%s' (`benchboot store "
		                    "list` names its jobs)",
		                    bb_store_file(st), q->job);
	for (size_t i = 0; !rc && i < runs.n; i++) {
		struct bb_strv stats = {0};
		rc = run_stats(st, q, runs.v[i], &stats, err, errlen);
		for (size_t k = 0; !rc && k < stats.n; k++) {
			struct bb_trend_series s;
			rc = series_load(st, q, runs.v[i], stats.v[k], &s, err, errlen);
			if (!rc)
				rc = fn(&s, runs.v[i], ctx, err, errlen);
			found |= !rc && s.ncps > 0;
			series_free(&s);
		}
		if (!rc && !stats.n)
			rc = fn(NULL, runs.v[i], ctx, err, errlen);
		bb_strv_free(&stats);
	}
	bb_strv_free(&runs);
	if (rc == -ENOMEM)
		bb_errbuf_fail(err, errlen, rc, "out of memory");
	return rc ? rc : found;
}

int bb_trend_order_read(const char *file, struct bb_strv *order, char *err, size_t errlen)
{
	unsigned char *text;
	size_t len;
	int rc = bb_fileio_read_all(file, &text, &len);
	if (rc)
		return bb_errbuf_fail(err, errlen, rc, "--order %s: %s", file, strerror(-rc));
	for (char *line = strtok((char *)text, "\n"); line && !rc; line = strtok(NULL, "\n")) {
		line += strspn(line, " \t");
		size_t l = strcspn(line, "#");
		while (l && (line[l - 1] == ' ' || line[l - 1] == '\t' || line[l - 1] == '\r'))
			l--;
		if (l && bb_strv_addn(order, line, l))
			rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	free(text);
	if (!rc && !order->n)
		rc = bb_errbuf_fail(err, errlen, -EINVAL, "--order %s names no kernel", file);
	return rc;
}
