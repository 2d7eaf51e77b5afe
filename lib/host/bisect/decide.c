/* The decision core of `benchboot bisect`; see decide.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/bisect/decide.h"

const char *bb_bisect_verdict_name(enum bb_bisect_verdict v)
{
	static const char *const names[] = {[BB_V_UNDECIDED] = "undecided",
	                                    [BB_V_OLD] = "old",
	                                    [BB_V_NEW] = "new",
	                                    [BB_V_PART] = "part of the change (new)",
	                                    [BB_V_UNTESTABLE] = "untestable",
	                                    [BB_V_CHANGED] = "changed",
	                                    [BB_V_NO_CHANGE] = "no reproducible change",
	                                    [BB_V_CONFIRMED] = "confirmed",
	                                    [BB_V_PARTIAL] = "partial: more than one change",
	                                    [BB_V_NOT_REPRODUCED] = "not reproduced"};
	return v < sizeof(names) / sizeof(*names) && names[v] ? names[v] : "?";
}

/* The values of one side of a comparison, each with its boot. */
struct side {
	double *v;
	size_t *boot;
	size_t n, cap, boots, fails;
};

struct bis {
	const struct bb_bisect_opts *o;
	const struct bb_bisect_source *src;
	struct bb_bisect_result *res;
	struct bb_bisect_plan plan;
	size_t nboot, done;
	char *err;
	size_t errlen;
};

enum rule { RULE_ENDS = BB_RULE_ENDS, RULE_STEP = BB_RULE_STEP, RULE_VERIFY = BB_RULE_VERIFY };

/* One boot's outcome r (0 ran, 1 failed) and values into s, as boot id. */
static int take(struct bis *b, struct side *s, int r, const double *vals, size_t n, size_t id)
{
	b->res->boots++;
	if (r > 0 || !n) {
		b->res->failed_boots++;
		s->fails++;
		return 0;
	}
	if (s->n + n > s->cap) {
		size_t cap = (s->n + n) * 2;
		double *v = realloc(s->v, cap * sizeof(*v));
		if (v)
			s->v = v;
		size_t *bt = realloc(s->boot, cap * sizeof(*bt));
		if (bt)
			s->boot = bt;
		if (!v || !bt)
			return -ENOMEM;
		s->cap = cap;
	}
	for (size_t i = 0; i < n; i++) {
		s->v[s->n] = vals[i];
		s->boot[s->n++] = id;
	}
	s->boots++;
	s->fails = 0; /* twice in a row makes a candidate untestable */
	return 0;
}

static int boot_once(struct bis *b, size_t cand, struct side *s)
{
	double vals[BB_BISECT_MAX_VALUES];
	size_t n = 0;
	int r = b->src->boot(b->src->ctx, cand, vals, BB_BISECT_MAX_VALUES, &n, b->err, b->errlen);
	if (r < 0)
		return r;
	return take(b, s, r, vals, n, b->nboot++);
}

/* ref and cand side by side: both sides' boots under one id. */
static int boot_pair(struct bis *b, size_t ref, size_t cand, struct side s[2])
{
	double va[BB_BISECT_MAX_VALUES], vb[BB_BISECT_MAX_VALUES];
	double *vals[2] = {va, vb};
	size_t n[2] = {0, 0};
	int rc[2] = {1, 1};
	int r = b->src->boot_pair(b->src->ctx, ref, cand, vals, BB_BISECT_MAX_VALUES, n, rc, b->err,
	                          b->errlen);
	if (r < 0)
		return r;
	size_t id = b->nboot++;
	for (int k = 0; k < 2 && !r; k++)
		r = take(b, &s[k], rc[k], vals[k], n[k], id);
	return r;
}

/* The interval in the direction of D (sign dir): [*x_lo, *x_hi]. */
static void directed(const struct bb_interval *iv, double dir, double *x_lo, double *x_hi)
{
	*x_lo = dir > 0 ? iv->lo : -iv->hi;
	*x_hi = dir > 0 ? iv->hi : -iv->lo;
}

static enum bb_bisect_verdict judge(const struct bis *b, enum rule rule,
                                    const struct bb_interval *iv)
{
	if (iv->basis != BB_IV_BOOTS || !iv->bounded)
		return BB_V_UNDECIDED;
	double m = b->o->min_change ? b->o->min_change : 1, d = fabs(b->res->change);
	double dir = b->res->change < 0 ? -1 : 1, lo, hi;
	if (rule == RULE_ENDS)
		return iv->lo > m || iv->hi < -m ? BB_V_CHANGED : BB_V_UNDECIDED;
	directed(iv, dir, &lo, &hi);
	if (rule == RULE_STEP) {
		if (lo > d / 2)
			return BB_V_NEW;
		if (hi < d / 2)
			return BB_V_OLD;
		return lo > 0 && hi < d ? BB_V_PART : BB_V_UNDECIDED;
	}
	if (lo > 0.75 * d)
		return BB_V_CONFIRMED;
	if (hi < 0.75 * d && lo > 0)
		return BB_V_PARTIAL;
	if (hi < 0.25 * d)
		return BB_V_NOT_REPRODUCED;
	return BB_V_UNDECIDED;
}

/*
 * Compare cand with fresh boots of ref, interleaved (ref, cand, ref, cand ...), judged at every
 * look. 0 with st filled (verdict BB_V_UNTESTABLE when cand's boots failed twice; -EIO when
 * ref's did), or the callback's -errno.
 */
static int compare(struct bis *b, size_t ref, size_t cand, enum rule rule,
                   struct bb_bisect_step *st)
{
	struct side s[2] = {{0}};
	int r = 0;
	double conf = 1 - b->res->alpha_look;
	memset(st, 0, sizeof(*st));
	st->rule = (enum bb_bisect_rule)rule;
	st->ref = ref;
	st->cand = cand;
	b->done++;
	b->res->bound = b->done * b->plan.alpha_cmp;
	for (size_t l = 0; l < b->plan.nlooks && st->verdict == BB_V_UNDECIDED; l++) {
		size_t want = (size_t)b->plan.looks[l];
		while (s[0].boots < want || s[1].boots < want) {
			int k = s[0].boots > s[1].boots ? 1 : s[1].boots > s[0].boots ? 0 : 0;
			if (b->src->boot_pair && s[0].boots < want && s[1].boots < want)
				r = boot_pair(b, ref, cand, s);
			else
				r = boot_once(b, k ? cand : ref, &s[k]);
			if (r)
				goto out;
			if (s[1].fails >= 2) {
				st->verdict = BB_V_UNTESTABLE;
				goto done;
			}
			if (s[0].fails >= 4) {
				snprintf(
				    b->err, b->errlen,
				    "candidate %zu, a reference, failed to boot 4 times in a row",
				    ref);
				r = -EIO;
				goto out;
			}
		}
		if ((r = bb_change_interval(s[0].v, s[0].boot, s[0].n, s[1].v, s[1].boot, s[1].n,
		                            NULL, conf, &st->iv)))
			goto out;
		st->verdict = judge(b, rule, &st->iv);
	}
done:
	st->boots_ref = s[0].boots;
	st->boots_cand = s[1].boots;
out:
	for (int k = 0; k < 2; k++) {
		free(s[k].v);
		free(s[k].boot);
	}
	return r;
}

static int record(struct bis *b, struct bb_bisect_step *st, size_t lo, size_t hi)
{
	struct bb_bisect_result *res = b->res;
	struct bb_bisect_step *n = realloc(res->steps, (res->nsteps + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	res->steps = n;
	st->lo = lo;
	st->hi = hi;
	res->steps[res->nsteps++] = *st;
	if (b->o->on_step)
		b->o->on_step(b->o->ctx, st);
	return 0;
}

/* The testable candidate nearest the middle of (lo, hi), or 0 when there is none. */
static size_t pick(const struct bb_bisect_result *res, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;
	for (size_t d = 0; d < hi - lo; d++) {
		if (mid + d < hi && mid + d > lo && !res->untestable[mid + d])
			return mid + d;
		if (d && mid >= lo + d + 1 && !res->untestable[mid - d])
			return mid - d;
	}
	return 0;
}

void bb_bisect_plan(const struct bb_bisect_opts *o, struct bb_bisect_plan *p)
{
	int maxb = o->max_boots ? o->max_boots : 20, first = o->first_look ? o->first_look : 3;
	memset(p, 0, sizeof(*p));
	if (first < 2)
		first = 2;
	if (maxb < first)
		maxb = first;
	for (int n = first; p->nlooks < BB_BISECT_MAX_LOOKS - 1 && n < maxb; n = (n * 8 + 4) / 5)
		p->looks[p->nlooks++] = n;
	p->looks[p->nlooks++] = maxb;
	size_t steps = 0;
	while (o->ncand > 1 && ((size_t)1 << steps) < o->ncand - 1)
		steps++;
	p->planned = 1 + steps + 1 + 2;
	double alpha = o->alpha ? o->alpha : 0.05;
	p->alpha_cmp = alpha / p->planned;
	p->alpha_look = p->alpha_cmp / p->nlooks;
}

static int bad_opts(const struct bb_bisect_opts *o, char *err, size_t errlen)
{
	if (o->ncand < 2 || o->alpha < 0 || o->alpha >= 1 || o->max_boots < 0 ||
	    o->first_look < 0) {
		snprintf(err, errlen, "a bisection needs 2 candidates or more, 0 < alpha < 1");
		return -EINVAL;
	}
	return 0;
}

int bb_bisect_compare(const struct bb_bisect_opts *o, const struct bb_bisect_source *src,
                      enum bb_bisect_rule rule, double change, size_t ref, size_t cand,
                      struct bb_bisect_step *st, size_t *boots, size_t *failed, char *err,
                      size_t errlen)
{
	struct bb_bisect_result res = {.change = change};
	struct bis b = {.o = o, .src = src, .res = &res, .err = err, .errlen = errlen};
	int r = bad_opts(o, err, errlen);
	if (r)
		return r;
	bb_bisect_plan(o, &b.plan);
	res.alpha_look = b.plan.alpha_look;
	r = compare(&b, ref, cand, (enum rule)rule, st);
	*boots = res.boots;
	*failed = res.failed_boots;
	return r;
}

int bb_bisect(const struct bb_bisect_opts *o, const struct bb_bisect_source *src,
              struct bb_bisect_result *res, char *err, size_t errlen)
{
	struct bis b = {.o = o, .src = src, .res = res, .err = err, .errlen = errlen};
	struct bb_bisect_step st;
	int r;
	memset(res, 0, sizeof(*res));
	if ((r = bad_opts(o, err, errlen)))
		return r;
	if (!(res->untestable = calloc(o->ncand, 1)))
		return -ENOMEM;
	bb_bisect_plan(o, &b.plan);
	res->alpha_look = b.plan.alpha_look;
	size_t lo = 0, hi = o->ncand - 1;
	res->lo = lo;
	res->hi = hi;

	if ((r = compare(&b, 0, hi, RULE_ENDS, &st)))
		return r;
	res->ends = st.iv;
	res->change = st.iv.change;
	if ((r = record(&b, &st, lo, hi)))
		return r;
	if (st.verdict == BB_V_UNTESTABLE) {
		res->untestable[hi] = 1;
		res->outcome = BB_B_ENDS_UNTESTABLE;
		return 0;
	}
	if (st.verdict != BB_V_CHANGED) {
		res->steps[res->nsteps - 1].verdict = BB_V_NO_CHANGE;
		res->outcome = BB_B_NO_CHANGE;
		return 0;
	}
	while (hi - lo > 1) {
		size_t m = pick(res, lo, hi);
		if (!m) {
			res->outcome = BB_B_RANGE;
			break;
		}
		if ((r = compare(&b, 0, m, RULE_STEP, &st)))
			return r;
		switch (st.verdict) {
		case BB_V_OLD:
			lo = m;
			break;
		case BB_V_PART:
			res->part_seen = 1; /* fall through */
		case BB_V_NEW:
			hi = m;
			break;
		case BB_V_UNTESTABLE:
			res->untestable[m] = 1;
			break;
		default:
			break;
		}
		if ((r = record(&b, &st, lo, hi)))
			return r;
		if (st.verdict == BB_V_UNDECIDED) {
			res->outcome = BB_B_UNDECIDED;
			break;
		}
	}
	res->lo = lo;
	res->hi = hi;
	if (hi - lo > 1)
		return 0;
	res->outcome = BB_B_CULPRIT;
	if ((r = compare(&b, lo, hi, RULE_VERIFY, &st)))
		return r;
	res->verify = st.verdict;
	res->verify_iv = st.iv;
	double d = fabs(res->change), dir = res->change < 0 ? -1 : 1, x_lo, x_hi;
	directed(&st.iv, dir, &x_lo, &x_hi);
	res->share = 100 * dir * st.iv.change / d;
	res->share_lo = 100 * x_lo / d;
	res->share_hi = 100 * x_hi / d;
	return record(&b, &st, lo, hi);
}

void bb_bisect_result_free(struct bb_bisect_result *res)
{
	free(res->steps);
	free(res->untestable);
	memset(res, 0, sizeof(*res));
}
