/* The primary stat's %change and interval for `run --until`; see primary.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/compare/compare.h"
#include "host/compare/primary.h"
#include "host/job/suites.h"

int bb_primary_rank(const char *name)
{
	return bb_suite_primary_rank(name);
}

/* The primary stat of a matched run: the one asked for, or the suite's own. */
static const struct bb_stat_cmp *primary_stat(const struct bb_run_cmp *rc, const char *want)
{
	const struct bb_stat_cmp *best = NULL;
	int best_rank = -1;
	for (size_t k = 0; k < rc->nstats; k++) {
		int rank = want ? (strcmp(rc->stats[k].name, want) ? -1 : 0)
		                : bb_primary_rank(rc->stats[k].name);
		if (rank >= 0 && (!best || rank < best_rank)) {
			best = &rc->stats[k];
			best_rank = rank;
		}
	}
	return best;
}

/* The two values of the key: as given, or the folder's two (the other one, when one is
 * given). */
static int side_values(const struct bb_results *res, const struct bb_primary_query *q,
                       const char *v[2], char *err, size_t errlen)
{
	const char **vals;
	size_t n, missing, others = 0;
	const char *other = NULL;
	v[0] = q->value_a;
	v[1] = q->value_b;
	if (v[0] && v[1])
		return 0;
	if (bb_key_values(res, q->key, &vals, &n, &missing))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	const char *given = v[0] ? v[0] : v[1];
	for (size_t i = 0; i < n; i++)
		if (!given || strcmp(vals[i], given)) {
			other = other ? other : vals[i];
			others++;
		}
	int r = 0;
	if (given && others == 1)
		v[v[0] ? 1 : 0] = other;
	else if (!given && n == 2)
		v[0] = vals[0], v[1] = vals[1];
	else if (others > (given ? 1u : 2u))
		r = bb_errbuf_fail(err, errlen, -EINVAL,
		                   "%s: '%s' has %zu values; say which two are the sides",
		                   res->path, q->key, n);
	else
		r = bb_errbuf_fail(err, errlen, -ENODATA,
		                   "%s: %zu value%s of '%s' so far; a side has no run yet",
		                   res->path, n, n == 1 ? "" : "s", q->key);
	free(vals);
	return r;
}

static int sides_select(const struct bb_results *res, const char *key, const char *const v[2],
                        struct bb_side side[2], char *err, size_t errlen)
{
	for (int s = 0; s < 2; s++) {
		struct bb_kvs cond = {0};
		int r = bb_kvs_set(&cond, key, v[s]) || bb_side_add(&side[s], res, &cond);
		bb_kvs_free(&cond);
		if (r || !(side[s].label = strdup(v[s])))
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		if (!side[s].nruns)
			return bb_errbuf_fail(err, errlen, -ENODATA, "%s: no run with %s=%s yet",
			                      res->path, key, v[s]);
	}
	return 0;
}

static int primary_add(struct bb_primary *p, const struct bb_run_cmp *rc,
                       const struct bb_stat_cmp *s, const char *const v[2])
{
	memset(p, 0, sizeof(*p));
	p->run = bb_kvs_format_words(&rc->params);
	p->stat = strdup(s->name);
	p->value_a = strdup(v[0]);
	p->value_b = strdup(v[1]);
	p->boots_a = rc->boots_a;
	p->boots_b = rc->boots_b;
	p->change_defined = s->change_defined;
	p->change = s->change;
	p->iv = s->iv;
	return p->run && p->stat && p->value_a && p->value_b ? 0 : -ENOMEM;
}

int bb_primary_changes(const char *dir, const struct bb_primary_query *q, struct bb_primary **out,
                       size_t *nout, char *err, size_t errlen)
{
	struct bb_results res;
	struct bb_side side[2];
	struct bb_comparison cmp;
	const char *v[2];
	int r, have_cmp = 0;
	*out = NULL;
	*nout = 0;
	memset(side, 0, sizeof(side));
	if (!q->key)
		return bb_errbuf_fail(err, errlen, -EINVAL, "no key to tell the sides apart");
	if ((r = bb_results_load(dir, &res, err, errlen)))
		return r;
	if ((r = side_values(&res, q, v, err, errlen)) ||
	    (r = sides_select(&res, q->key, v, side, err, errlen)))
		goto out;
	if (bb_compare(&side[0], &side[1], &q->key, 1, &cmp, err, errlen)) {
		r = -EINVAL;
		goto out;
	}
	have_cmp = 1;
	if (q->confidence > 0 && q->confidence != cmp.confidence) {
		/* the comparison's own level is 95%; another level recomputes the intervals */
		for (size_t i = 0; i < cmp.nruns; i++)
			for (size_t k = 0; k < cmp.runs[i].nstats; k++) {
				struct bb_stat_cmp *s = &cmp.runs[i].stats[k];
				if (bb_change_interval(s->a, s->boot_a, s->na, s->b, s->boot_b,
				                       s->nb, s->a_first, q->confidence, &s->iv)) {
					r = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
					goto out;
				}
			}
	}
	if (!(*out = calloc(cmp.nruns + 1, sizeof(**out)))) {
		r = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < cmp.nruns; i++) {
		const struct bb_stat_cmp *s = primary_stat(&cmp.runs[i], q->stat);
		if (!s)
			continue;
		if (primary_add(&(*out)[(*nout)++], &cmp.runs[i], s, v)) {
			r = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
			goto out;
		}
	}
	r = *nout ? 0
	          : bb_errbuf_fail(err, errlen, -EINVAL, "%s: no matched run has the stat %s", dir,
	                           q->stat ? q->stat
	                                   : "netperf.Throughput_Mbps, netperf.Throughput_tps or "
	                                     "*.ops_per_sec");
out:
	if (r) {
		bb_primary_free(*out, *nout);
		*out = NULL;
		*nout = 0;
	}
	if (have_cmp)
		bb_comparison_free(&cmp);
	bb_side_free(&side[0]);
	bb_side_free(&side[1]);
	bb_results_free(&res);
	return r;
}

void bb_primary_free(struct bb_primary *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++) {
		free(p[i].run);
		free(p[i].stat);
		free(p[i].value_a);
		free(p[i].value_b);
	}
	free(p);
}

enum bb_settled bb_primary_settled(const struct bb_primary *p, double target)
{
	const struct bb_interval *iv = &p->iv;
	if (iv->basis != BB_IV_BOOTS || !iv->bounded)
		return BB_UNSETTLED;
	if (iv->lo > target || iv->hi < -target)
		return BB_SETTLED_CHANGED;
	if (iv->hi - iv->change <= target && iv->change - iv->lo <= target)
		return BB_SETTLED_NARROW;
	return BB_UNSETTLED;
}
