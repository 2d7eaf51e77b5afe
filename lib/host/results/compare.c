/* Comparing two sets of results, 0-day style; see compare.h and ../shared/LKP.md. */
#include <float.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/results/compare.h"
#include "host/json.h"

/* ---- statistics ---- */

void bb_sample_compute(const double *v, size_t n, struct bb_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	double sum = 0;
	s->min = s->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->mean = sum / n;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = sqrt(ss / n);
}

/*
 * The continued fraction of the incomplete beta function, evaluated with the modified Lentz
 * method (Numerical Recipes, 6.4); converges quickly for x < (a + 1) / (a + b + 2).
 */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double bb_betainc(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double bb_t_pvalue(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	return bb_betainc(df / 2, 0.5, df / (df + t * t));
}

int bb_welch(const double *a, size_t na, const double *b, size_t nb, double *t, double *df,
             double *p)
{
	if (na < 2 || nb < 2)
		return -1;
	struct bb_sample sa, sb;
	bb_sample_compute(a, na, &sa);
	bb_sample_compute(b, nb, &sb);
	/* sample variances (n - 1) from the population ones */
	double va = sa.sd * sa.sd * na / (na - 1), vb = sb.sd * sb.sd * nb / (nb - 1);
	double qa = va / na, qb = vb / nb, se2 = qa + qb;
	if (se2 == 0) {
		*t = sa.mean == sb.mean ? 0 : (sb.mean > sa.mean ? INFINITY : -INFINITY);
		*df = na + nb - 2;
		*p = sa.mean == sb.mean ? 1 : 0;
		return 0;
	}
	*t = (sb.mean - sa.mean) / sqrt(se2);
	*df = se2 * se2 / (qa * qa / (na - 1) + qb * qb / (nb - 1));
	*p = bb_t_pvalue(*t, *df);
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

double bb_stat_threshold(const char *name)
{
	/* what the benchmark measures, as opposed to what it cost (time.*, utilization) */
	static const char *const perf[] = {".Throughput_Mbps",
	                                   ".Throughput_total_Mbps",
	                                   ".Throughput_tps",
	                                   ".Throughput_total_tps",
	                                   ".ops",
	                                   ".ops_per_sec"};
	for (size_t i = 0; i < sizeof(perf) / sizeof(*perf); i++)
		if (ends_with(name, perf[i]))
			return 1;
	return 5;
}

int bb_lkp_changed(const struct bb_sample *a, const struct bb_sample *b, double change,
                   int change_defined, double threshold)
{
	if (!a->n || !b->n || (a->n < 3 && b->n < 3))
		return 0;
	if (!(b->min > a->max || b->max < a->min))
		return 0;
	return !change_defined || fabs(change) > threshold;
}

/* ---- lookup and selection ---- */

struct key_class {
	const char *prefix;
	const struct bb_pairs *kvs;
};

#define NCLASSES 5

static void run_classes(const struct bb_res_run *run, struct key_class cls[NCLASSES])
{
	cls[0] = (struct key_class){"param:", &run->params};
	cls[1] = (struct key_class){"boot:", &run->boot->params};
	cls[2] = (struct key_class){"label:", &run->boot->labels};
	cls[3] = (struct key_class){"env:", &run->boot->env};
	cls[4] = (struct key_class){"runenv:", &run->env};
}

static const char *remember(const char *prefix, const char *key, const char **resolved)
{
	static __thread char buf[512];
	if (resolved) {
		snprintf(buf, sizeof(buf), "%s%s", prefix, key);
		*resolved = buf;
	}
	return key;
}

const char *bb_run_lookup(const struct bb_res_run *run, const char *key, const char **resolved)
{
	static const struct {
		const char *alias, *names[4];
	} aliases[] = {
	    {"kernel", {"kernel.release", "kernel_release", "uname.release", NULL}},
	    {"cgroup", {"cgroup.mode", "cgroup.mode_requested", "cgroup_mode", NULL}},
	    {"image", {"image_id", "image.id", NULL}},
	    {"governor", {"cpufreq.governor", "governor", NULL}},
	};
	struct key_class cls[NCLASSES];
	const char *v;
	run_classes(run, cls);
	if (resolved)
		*resolved = NULL;
	if (!strcmp(key, "boot")) {
		remember("", "boot", resolved);
		return run->boot->name;
	}
	for (int c = 0; c < NCLASSES; c++)
		if ((v = bb_pairs_get(cls[c].kvs, key))) {
			remember(cls[c].prefix, key, resolved);
			return v;
		}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(*aliases); i++) {
		if (strcmp(aliases[i].alias, key))
			continue;
		for (int k = 0; aliases[i].names[k]; k++)
			for (int c = 0; c < NCLASSES; c++)
				if ((v = bb_pairs_get(cls[c].kvs, aliases[i].names[k]))) {
					remember(cls[c].prefix, aliases[i].names[k], resolved);
					return v;
				}
	}
	size_t kl = strlen(key);
	for (int c = 0; c < NCLASSES; c++) {
		const struct bb_pair *hit = NULL;
		int count = 0;
		for (size_t i = 0; i < cls[c].kvs->n; i++) {
			const char *name = cls[c].kvs->v[i].key;
			size_t nl = strlen(name);
			if (nl > kl && name[nl - kl - 1] == '.' && !strcmp(name + nl - kl, key)) {
				hit = &cls[c].kvs->v[i];
				count++;
			}
		}
		if (count == 1) {
			remember(cls[c].prefix, hit->key, resolved);
			return hit->val;
		}
	}
	return NULL;
}

int bb_side_add(struct bb_side *side, const struct bb_results *res, const struct bb_pairs *conds)
{
	for (size_t b = 0; b < res->nboots; b++)
		for (size_t r = 0; r < res->boots[b].nruns; r++) {
			struct bb_res_run *run = &res->boots[b].runs[r];
			int ok = 1;
			for (size_t c = 0; conds && c < conds->n && ok; c++) {
				const char *v = bb_run_lookup(run, conds->v[c].key, NULL);
				ok = v && !strcmp(v, conds->v[c].val);
			}
			if (!ok)
				continue;
			struct bb_res_run **nr =
			    realloc(side->runs, (side->nruns + 1) * sizeof(*nr));
			if (!nr)
				return -1;
			side->runs = nr;
			nr[side->nruns++] = run;
		}
	return 0;
}

void bb_side_free(struct bb_side *side)
{
	free(side->runs);
	free(side->label);
	memset(side, 0, sizeof(*side));
}

/* ---- matching ---- */

/* Growable list of strings. */
struct strs {
	char **v;
	size_t n;
};

static int strs_add(struct strs *s, const char *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], x))
			return 0;
	char **nv = realloc(s->v, (s->n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	s->v = nv;
	if (!(nv[s->n] = strdup(x)))
		return -1;
	s->n++;
	return 0;
}

static void strs_free(struct strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

int bb_value_cmp(const void *x, const void *y)
{
	const char *a = *(char *const *)x, *b = *(char *const *)y;
	char *ea, *eb;
	double da = strtod(a, &ea), db = strtod(b, &eb);
	if (ea != a && eb != b && !*ea && !*eb && da != db)
		return da < db ? -1 : 1;
	return strcmp(a, b);
}

static char *strs_join(struct strs *s, const char *empty)
{
	if (!s->n)
		return strdup(empty);
	qsort(s->v, s->n, sizeof(*s->v), bb_value_cmp);
	size_t len = 1;
	for (size_t i = 0; i < s->n; i++)
		len += strlen(s->v[i]) + 2;
	char *out = malloc(len), *o = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < s->n; i++)
		o += sprintf(o, "%s%s", i ? ", " : "", s->v[i]);
	*o = 0;
	return out;
}

/* Is the parameter name one of the axis keys (as named or as resolved for some run)? */
static int is_axis(const char *cls, const char *name, const char *const *axis, size_t naxis,
                   const struct bb_side *const sides[2])
{
	for (size_t i = 0; i < naxis; i++) {
		if (!strcmp(name, axis[i]))
			return 1;
		for (int s = 0; s < 2; s++)
			for (size_t r = 0; r < sides[s]->nruns; r++) {
				const char *res;
				if (!bb_run_lookup(sides[s]->runs[r], axis[i], &res) || !res)
					continue;
				size_t pl = strlen(cls);
				if (!strncmp(res, cls, pl) && !strcmp(res + pl, name))
					return 1;
				break; /* one run tells how the key resolves */
			}
	}
	return 0;
}

/* The matching key of a run: its run and boot parameters without the axis, "k=v\n..." */
static char *match_key(const struct bb_res_run *run, const char *const *axis, size_t naxis,
                       const struct bb_side *const sides[2], struct bb_pairs *kept)
{
	struct bb_pairs all = {0};
	char *out = NULL;
	size_t len = 1;
	for (size_t i = 0; i < run->params.n; i++)
		if (!is_axis("param:", run->params.v[i].key, axis, naxis, sides))
			if (bb_pairs_set(&all, run->params.v[i].key, run->params.v[i].val))
				goto out;
	for (size_t i = 0; i < run->boot->params.n; i++)
		if (!is_axis("boot:", run->boot->params.v[i].key, axis, naxis, sides) &&
		    !bb_pairs_get(&all, run->boot->params.v[i].key))
			if (bb_pairs_set(&all, run->boot->params.v[i].key,
			                 run->boot->params.v[i].val))
				goto out;
	bb_pairs_sort(&all);
	for (size_t i = 0; i < all.n; i++)
		len += strlen(all.v[i].key) + strlen(all.v[i].val) + 2;
	if (!(out = malloc(len)))
		goto out;
	char *o = out;
	*o = 0;
	for (size_t i = 0; i < all.n; i++)
		o += sprintf(o, "%s=%s\n", all.v[i].key, all.v[i].val);
	if (kept) {
		*kept = all;
		return out;
	}
out:
	bb_pairs_free(&all);
	return out;
}

static int add_note(struct bb_comparison *c, char *note)
{
	if (!note)
		return -1;
	char **nn = realloc(c->notes, (c->nnotes + 1) * sizeof(*nn));
	if (!nn) {
		free(note);
		return -1;
	}
	c->notes = nn;
	nn[c->nnotes++] = note;
	return 0;
}

/* Environment fields that change from boot to boot by nature, not by setup. */
static int env_ignored(const char *key)
{
	static const char *const last[] = {
	    "boot_id",    "bootid",   "seq",           "sequence",     "time",       "date",
	    "timestamp",  "uptime",   "started",       "finished",     "started_at", "finished_at",
	    "start_time", "end_time", "btime",         "boot_time",    "elapsed",    "duration",
	    "mem_free",   "memfree",  "mem_available", "memavailable", "disk_id",    "results_disk",
	};
	static const char *const exact[] = {"boot.id", "boot.seq", "boot.number", "id"};
	const char *dot = strrchr(key, '.');
	const char *tail = dot ? dot + 1 : key;
	size_t tl = strlen(tail);
	/* timings of the setup (milliseconds) and the setup section as a whole */
	if ((tl > 3 && !strcmp(tail + tl - 3, "_ms")) || !strncmp(key, "setup.", 6))
		return 1;
	for (size_t i = 0; i < sizeof(last) / sizeof(*last); i++)
		if (!strcasecmp(tail, last[i]))
			return 1;
	for (size_t i = 0; i < sizeof(exact) / sizeof(*exact); i++)
		if (!strcmp(key, exact[i]))
			return 1;
	return 0;
}

/* Differences between two lists of environment records (each kvs one boot or one run). */
static int env_diff(const struct bb_pairs *const *a, size_t na, const struct bb_pairs *const *b,
                    size_t nb, struct bb_env_diff **out, size_t *nout)
{
	struct strs keys = {0};
	int r = -1;
	*out = NULL;
	*nout = 0;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < (s ? nb : na); i++) {
			const struct bb_pairs *k = s ? b[i] : a[i];
			for (size_t j = 0; j < k->n; j++)
				if (!env_ignored(k->v[j].key) && strs_add(&keys, k->v[j].key))
					goto out;
		}
	qsort(keys.v, keys.n, sizeof(*keys.v), bb_value_cmp);
	for (size_t i = 0; i < keys.n; i++) {
		struct strs va = {0}, vb = {0};
		for (int s = 0; s < 2; s++)
			for (size_t j = 0; j < (s ? nb : na); j++) {
				const char *v = bb_pairs_get(s ? b[j] : a[j], keys.v[i]);
				if (strs_add(s ? &vb : &va, v ? v : "(absent)")) {
					strs_free(&va);
					strs_free(&vb);
					goto out;
				}
			}
		int same = va.n == vb.n;
		for (size_t j = 0; same && j < va.n; j++) {
			int found = 0;
			for (size_t k = 0; k < vb.n; k++)
				found |= !strcmp(va.v[j], vb.v[k]);
			same = found;
		}
		if (!same) {
			struct bb_env_diff *nd = realloc(*out, (*nout + 1) * sizeof(*nd));
			if (!nd) {
				strs_free(&va);
				strs_free(&vb);
				goto out;
			}
			*out = nd;
			nd[*nout].key = strdup(keys.v[i]);
			nd[*nout].a = strs_join(&va, "(absent)");
			nd[*nout].b = strs_join(&vb, "(absent)");
			(*nout)++;
		}
		strs_free(&va);
		strs_free(&vb);
	}
	r = 0;
out:
	strs_free(&keys);
	return r;
}

static void env_diffs_free(struct bb_env_diff *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].key);
		free(d[i].a);
		free(d[i].b);
	}
	free(d);
}

static int stat_name_cmp(const void *x, const void *y)
{
	return strcmp(((const struct bb_stat_cmp *)x)->name, ((const struct bb_stat_cmp *)y)->name);
}

static int pool(struct bb_res_run *const *runs, size_t n, const char *name, double **vals,
                size_t *nvals)
{
	*vals = NULL;
	*nvals = 0;
	for (size_t i = 0; i < n; i++) {
		const struct bb_stat *st = bb_run_stat(runs[i], name);
		if (!st || !st->n)
			continue;
		double *nv = realloc(*vals, (*nvals + st->n) * sizeof(*nv));
		if (!nv)
			return -1;
		*vals = nv;
		memcpy(nv + *nvals, st->vals, st->n * sizeof(*nv));
		*nvals += st->n;
	}
	return 0;
}

static void stat_evaluate(struct bb_stat_cmp *s, double alpha)
{
	bb_sample_compute(s->a, s->na, &s->sa);
	bb_sample_compute(s->b, s->nb, &s->sb);
	s->threshold = bb_stat_threshold(s->name);
	if (s->na && s->nb) {
		if (s->sa.mean != 0) {
			s->change_defined = 1;
			s->change = 100 * (s->sb.mean - s->sa.mean) / s->sa.mean;
		} else if (s->sb.mean == 0) {
			s->change_defined = 1;
			s->change = 0;
		}
	}
	s->p_defined = !bb_welch(s->a, s->na, s->b, s->nb, &s->t, &s->df, &s->p);
	s->lkp = bb_lkp_changed(&s->sa, &s->sb, s->change, s->change_defined, s->threshold);
	s->welch =
	    s->p_defined && s->p < alpha && (!s->change_defined || fabs(s->change) > s->threshold);
	s->significant = s->lkp || s->welch;
}

static size_t count_boots(struct bb_res_run *const *runs, size_t n)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = runs[j]->boot == runs[i]->boot;
		count += !seen;
	}
	return count;
}

static char *axis_values(struct bb_res_run *const *runs, size_t n, const char *const *axis,
                         size_t naxis)
{
	if (!naxis)
		return NULL;
	struct bb_pairs kv = {0};
	for (size_t k = 0; k < naxis; k++) {
		struct strs vals = {0};
		for (size_t i = 0; i < n; i++) {
			const char *v = bb_run_lookup(runs[i], axis[k], NULL);
			strs_add(&vals, v ? v : "(absent)");
		}
		char *j = strs_join(&vals, "(absent)");
		if (j)
			bb_pairs_set(&kv, axis[k], j);
		free(j);
		strs_free(&vals);
	}
	char *d = bb_pairs_format_words(&kv);
	bb_pairs_free(&kv);
	return d;
}

/* One matched group: the runs of each side with the same parameters. */
static int compare_group(struct bb_run_cmp *rc, struct bb_res_run *const *ra, size_t na,
                         struct bb_res_run *const *rb, size_t nb, const char *const *axis,
                         size_t naxis, double alpha)
{
	struct strs names = {0};
	int r = -1;
	rc->runs_a = na;
	rc->runs_b = nb;
	rc->boots_a = count_boots(ra, na);
	rc->boots_b = count_boots(rb, nb);
	rc->axis_a = axis_values(ra, na, axis, naxis);
	rc->axis_b = axis_values(rb, nb, axis, naxis);
	for (size_t i = 0; i < na; i++)
		rc->failed_a += ra[i]->failed_iterations;
	for (size_t i = 0; i < nb; i++)
		rc->failed_b += rb[i]->failed_iterations;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < (s ? nb : na); i++) {
			const struct bb_res_run *run = s ? rb[i] : ra[i];
			for (size_t k = 0; k < run->nstats; k++)
				if (strs_add(&names, run->stats[k].name))
					goto out;
		}
	if (names.n && !(rc->stats = calloc(names.n, sizeof(*rc->stats))))
		goto out;
	for (size_t i = 0; i < names.n; i++) {
		struct bb_stat_cmp *s = &rc->stats[rc->nstats++];
		if (!(s->name = strdup(names.v[i])) || pool(ra, na, s->name, &s->a, &s->na) ||
		    pool(rb, nb, s->name, &s->b, &s->nb))
			goto out;
		stat_evaluate(s, alpha);
		rc->nsignificant += s->significant;
	}
	if (rc->nstats)
		qsort(rc->stats, rc->nstats, sizeof(*rc->stats), stat_name_cmp);
	{
		const struct bb_pairs **ea = calloc(na + 1, sizeof(*ea)),
		                      **eb = calloc(nb + 1, sizeof(*eb));
		if (!ea || !eb) {
			free(ea);
			free(eb);
			goto out;
		}
		for (size_t i = 0; i < na; i++)
			ea[i] = &ra[i]->env;
		for (size_t i = 0; i < nb; i++)
			eb[i] = &rb[i]->env;
		int e = env_diff(ea, na, eb, nb, &rc->env, &rc->nenv);
		free(ea);
		free(eb);
		if (e)
			goto out;
	}
	r = 0;
out:
	strs_free(&names);
	return r;
}

/* The parameters whose values differ between the sides: "k (A: x, B: y); ..." */
static char *param_differences(const struct bb_side *a, const struct bb_side *b)
{
	struct strs keys = {0};
	const struct bb_side *sides[2] = {a, b};
	for (int s = 0; s < 2; s++)
		for (size_t r = 0; r < sides[s]->nruns; r++) {
			const struct bb_res_run *run = sides[s]->runs[r];
			for (size_t i = 0; i < run->params.n; i++)
				strs_add(&keys, run->params.v[i].key);
			for (size_t i = 0; i < run->boot->params.n; i++)
				strs_add(&keys, run->boot->params.v[i].key);
		}
	qsort(keys.v, keys.n, sizeof(*keys.v), bb_value_cmp);
	char *out = strdup("");
	for (size_t k = 0; k < keys.n && out; k++) {
		struct strs v[2] = {{0}, {0}};
		for (int s = 0; s < 2; s++)
			for (size_t r = 0; r < sides[s]->nruns; r++) {
				const struct bb_res_run *run = sides[s]->runs[r];
				const char *x = bb_pairs_get(&run->params, keys.v[k]);
				if (!x)
					x = bb_pairs_get(&run->boot->params, keys.v[k]);
				strs_add(&v[s], x ? x : "(absent)");
			}
		char *ja = strs_join(&v[0], "(none)"), *jb = strs_join(&v[1], "(none)");
		if (ja && jb && strcmp(ja, jb)) {
			char *n;
			if (asprintf(&n, "%s%s%s (A: %s; B: %s)", out, *out ? ", " : "", keys.v[k],
			             ja, jb) < 0)
				n = NULL;
			free(out);
			out = n;
		}
		free(ja);
		free(jb);
		strs_free(&v[0]);
		strs_free(&v[1]);
	}
	strs_free(&keys);
	return out;
}

int bb_compare(const struct bb_side *a, const struct bb_side *b, const char *const *axis,
               size_t naxis, struct bb_comparison *out, char *err, size_t errlen)
{
	const struct bb_side *const sides[2] = {a, b};
	char **keys[2] = {NULL, NULL};
	int *used[2] = {NULL, NULL};
	int r = -1;
	memset(out, 0, sizeof(*out));
	out->alpha = 0.05;
	if (!(out->label_a = strdup(a->label)) || !(out->label_b = strdup(b->label)))
		goto out_oom;
	out->boots_a = count_boots(a->runs, a->nruns);
	out->boots_b = count_boots(b->runs, b->nruns);
	if (!a->nruns || !b->nruns) {
		snprintf(err, errlen, "%s has no run to compare", !a->nruns ? a->label : b->label);
		goto out;
	}
	for (int s = 0; s < 2; s++) {
		keys[s] = calloc(sides[s]->nruns, sizeof(char *));
		used[s] = calloc(sides[s]->nruns, sizeof(int));
		if (!keys[s] || !used[s])
			goto out_oom;
		for (size_t i = 0; i < sides[s]->nruns; i++)
			if (!(keys[s][i] = match_key(sides[s]->runs[i], axis, naxis, sides, NULL)))
				goto out_oom;
	}

	/* environment of the boots on each side */
	{
		const struct bb_pairs **ea = calloc(a->nruns, sizeof(*ea)),
		                      **eb = calloc(b->nruns, sizeof(*eb));
		size_t na = 0, nb = 0;
		if (!ea || !eb) {
			free(ea);
			free(eb);
			goto out_oom;
		}
		for (size_t i = 0; i < a->nruns; i++) {
			int seen = 0;
			for (size_t j = 0; j < i; j++)
				seen |= a->runs[j]->boot == a->runs[i]->boot;
			if (!seen)
				ea[na++] = &a->runs[i]->boot->env;
		}
		for (size_t i = 0; i < b->nruns; i++) {
			int seen = 0;
			for (size_t j = 0; j < i; j++)
				seen |= b->runs[j]->boot == b->runs[i]->boot;
			if (!seen)
				eb[nb++] = &b->runs[i]->boot->env;
		}
		int e = env_diff(ea, na, eb, nb, &out->env, &out->nenv);
		/* the labels benchboot run gave the boots (kernel=NAME), shown as label.KEY */
		struct bb_env_diff *ld = NULL;
		size_t nld = 0;
		for (size_t i = 0; !e && i < na; i++)
			ea[i] = &((const struct bb_res_boot *)((const char *)ea[i] -
			                                       offsetof(struct bb_res_boot, env)))
			             ->labels;
		for (size_t i = 0; !e && i < nb; i++)
			eb[i] = &((const struct bb_res_boot *)((const char *)eb[i] -
			                                       offsetof(struct bb_res_boot, env)))
			             ->labels;
		if (!e)
			e = env_diff(ea, na, eb, nb, &ld, &nld);
		for (size_t i = 0; !e && i < nld; i++) {
			struct bb_env_diff *nd = realloc(out->env, (out->nenv + 1) * sizeof(*nd));
			char *key;
			if (!nd || asprintf(&key, "label.%s", ld[i].key) < 0) {
				if (nd)
					out->env = nd;
				e = -1;
				break;
			}
			out->env = nd;
			nd[out->nenv].key = key;
			nd[out->nenv].a = ld[i].a;
			nd[out->nenv].b = ld[i].b;
			ld[i].a = ld[i].b = NULL;
			out->nenv++;
		}
		env_diffs_free(ld, nld);
		free(ea);
		free(eb);
		if (e)
			goto out_oom;
	}

	/* groups: first run of A not yet used, every run of A and B with the same key */
	for (size_t i = 0; i < a->nruns; i++) {
		if (used[0][i])
			continue;
		struct bb_res_run **ra = calloc(a->nruns, sizeof(*ra)),
		                  **rb = calloc(b->nruns, sizeof(*rb));
		size_t na = 0, nb = 0;
		if (!ra || !rb) {
			free(ra);
			free(rb);
			goto out_oom;
		}
		for (size_t j = i; j < a->nruns; j++)
			if (!used[0][j] && !strcmp(keys[0][i], keys[0][j])) {
				used[0][j] = 1;
				ra[na++] = a->runs[j];
			}
		for (size_t j = 0; j < b->nruns; j++)
			if (!strcmp(keys[0][i], keys[1][j])) {
				used[1][j] = 1;
				rb[nb++] = b->runs[j];
			}
		if (!nb) {
			char *d = bb_pairs_format_words(&ra[0]->params), *n = NULL;
			if (d && asprintf(&n, "only in A: run %s (%s)", ra[0]->id, d) < 0)
				n = NULL;
			free(d);
			free(ra);
			free(rb);
			if (add_note(out, n))
				goto out_oom;
			continue;
		}
		struct bb_run_cmp *nr = realloc(out->runs, (out->nruns + 1) * sizeof(*nr));
		if (!nr) {
			free(ra);
			free(rb);
			goto out_oom;
		}
		out->runs = nr;
		struct bb_run_cmp *rc = &nr[out->nruns++];
		memset(rc, 0, sizeof(*rc));
		char *k = match_key(ra[0], axis, naxis, sides, &rc->params);
		free(k);
		int g = compare_group(rc, ra, na, rb, nb, axis, naxis, out->alpha);
		free(ra);
		free(rb);
		if (g)
			goto out_oom;
		out->nsignificant += rc->nsignificant;
	}
	for (size_t j = 0; j < b->nruns; j++) {
		if (used[1][j])
			continue;
		used[1][j] = 1;
		for (size_t k = j + 1; k < b->nruns; k++)
			if (!strcmp(keys[1][j], keys[1][k]))
				used[1][k] = 1;
		char *d = bb_pairs_format_words(&b->runs[j]->params), *n = NULL;
		if (d && asprintf(&n, "only in B: run %s (%s)", b->runs[j]->id, d) < 0)
			n = NULL;
		free(d);
		if (add_note(out, n))
			goto out_oom;
	}
	if (!out->nruns) {
		char *diff = param_differences(a, b);
		snprintf(err, errlen,
		         "no run of %s has the same parameters as a run of %s; they differ in %s. "
		         "If that is what is being compared, say so with --axis KEY (or select the "
		         "sides with --by KEY, --a KEY=VALUE --b KEY=VALUE)",
		         a->label, b->label, diff && *diff ? diff : "parameters");
		free(diff);
		goto out;
	}
	/* boots that did not finish, iterations that failed */
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sides[s]->nruns; i++) {
			const struct bb_res_run *run = sides[s]->runs[i];
			int seen = 0;
			for (size_t j = 0; j < i; j++)
				seen |= sides[s]->runs[j]->boot == run->boot;
			if (!seen && !run->boot->done) {
				char *n;
				int dup = 0;
				if (asprintf(&n, "boot %s did not finish (no done file)",
				             run->boot->path) < 0)
					goto out_oom;
				for (size_t k = 0; k < out->nnotes && !dup; k++)
					dup = !strcmp(out->notes[k], n);
				if (dup)
					free(n);
				else if (add_note(out, n))
					goto out_oom;
			}
			if (run->failed_iterations) {
				char *n;
				if (asprintf(&n, "%s: boot %s run %s: %zu of %zu iterations failed",
				             s ? "B" : "A", run->boot->name, run->id,
				             run->failed_iterations, run->iterations) < 0 ||
				    add_note(out, n))
					goto out_oom;
			}
		}
	r = 0;
	goto out;
out_oom:
	snprintf(err, errlen, "out of memory");
out:
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; keys[s] && i < sides[s]->nruns; i++)
			free(keys[s][i]);
		free(keys[s]);
		free(used[s]);
	}
	if (r)
		bb_comparison_free(out);
	return r;
}

void bb_comparison_free(struct bb_comparison *c)
{
	free(c->label_a);
	free(c->label_b);
	env_diffs_free(c->env, c->nenv);
	for (size_t i = 0; i < c->nruns; i++) {
		struct bb_run_cmp *rc = &c->runs[i];
		bb_pairs_free(&rc->params);
		free(rc->axis_a);
		free(rc->axis_b);
		env_diffs_free(rc->env, rc->nenv);
		for (size_t k = 0; k < rc->nstats; k++) {
			free(rc->stats[k].name);
			free(rc->stats[k].a);
			free(rc->stats[k].b);
		}
		free(rc->stats);
	}
	free(c->runs);
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	memset(c, 0, sizeof(*c));
}

/* ---- output ---- */

const char *bb_fmt_num(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (v == 0)
		snprintf(buf, len, "0");
	else if (a >= 1e8 || a < 1e-3)
		snprintf(buf, len, "%.4g", v);
	else if (v == floor(v) || a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

/* " ± NN%" when the relative stddev exceeds 2%, else blanks; 6 columns either way. */
static const char *fmt_rsd(const struct bb_sample *s, char *buf, size_t len)
{
	if (s->n && s->mean != 0 && 100 * s->sd / fabs(s->mean) > 2)
		snprintf(buf, len, " \u00b1 %2.0f%%", 100 * s->sd / fabs(s->mean));
	else
		snprintf(buf, len, "      ");
	return buf;
}

static const char *fmt_change(const struct bb_stat_cmp *s, char *buf, size_t len)
{
	if (!s->na || !s->nb)
		snprintf(buf, len, "-");
	else if (!s->change_defined)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.1f%%", s->change);
	return buf;
}

static const char *fmt_p(const struct bb_stat_cmp *s, char *buf, size_t len)
{
	if (!s->p_defined)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3g", s->p);
	return buf;
}

static void print_stat(FILE *f, const struct bb_stat_cmp *s)
{
	char ma[32], mb[32], ra[32], rb[32], ch[32], p[32];
	if (s->na)
		bb_fmt_num(s->sa.mean, ma, sizeof(ma));
	else
		snprintf(ma, sizeof(ma), "-");
	if (s->nb)
		bb_fmt_num(s->sb.mean, mb, sizeof(mb));
	else
		snprintf(mb, sizeof(mb), "-");
	fprintf(f, "%16s%s%11s%13s%s%11s  %c%c  %s\n", ma, fmt_rsd(&s->sa, ra, sizeof(ra)),
	        fmt_change(s, ch, sizeof(ch)), mb, fmt_rsd(&s->sb, rb, sizeof(rb)),
	        fmt_p(s, p, sizeof(p)), s->lkp ? 'L' : ' ', s->welch ? 't' : ' ', s->name);
}

static void print_label(FILE *f, const char *label, int width)
{
	/* too long: drop leading path components first, then characters */
	while ((int)strlen(label) > width && strchr(label, '/'))
		label = strchr(label, '/') + 1;
	int l = (int)strlen(label);
	if (l > width)
		fprintf(f, "%s", label + l - width);
	else
		fprintf(f, "%*s", width, label);
}

void bb_comparison_print(FILE *f, const struct bb_comparison *c, int all)
{
	fprintf(f, "A: %s (%zu boot%s)\nB: %s (%zu boot%s)\n", c->label_a, c->boots_a,
	        c->boots_a == 1 ? "" : "s", c->label_b, c->boots_b, c->boots_b == 1 ? "" : "s");
	if (c->nenv) {
		size_t w = 0;
		for (size_t i = 0; i < c->nenv; i++)
			if (strlen(c->env[i].key) > w)
				w = strlen(c->env[i].key);
		fprintf(f, "\nenvironment differences (A | B):\n");
		for (size_t i = 0; i < c->nenv; i++)
			fprintf(f, "  %-*s  %s | %s\n", (int)w, c->env[i].key, c->env[i].a,
			        c->env[i].b);
	} else {
		fprintf(f, "\nenvironment: no difference\n");
	}
	for (size_t i = 0; i < c->nruns; i++) {
		const struct bb_run_cmp *rc = &c->runs[i];
		char *d = bb_pairs_format_words(&rc->params);
		fprintf(f, "\nrun %s\n", d && *d ? d : "(no parameters)");
		free(d);
		fprintf(f, "  A: %zu run%s in %zu boot%s%s%s", rc->runs_a,
		        rc->runs_a == 1 ? "" : "s", rc->boots_a, rc->boots_a == 1 ? "" : "s",
		        rc->axis_a ? ", " : "", rc->axis_a ? rc->axis_a : "");
		fprintf(f, "   B: %zu run%s in %zu boot%s%s%s\n", rc->runs_b,
		        rc->runs_b == 1 ? "" : "s", rc->boots_b, rc->boots_b == 1 ? "" : "s",
		        rc->axis_b ? ", " : "", rc->axis_b ? rc->axis_b : "");
		if (rc->failed_a || rc->failed_b)
			fprintf(f, "  failed iterations: A %zu, B %zu\n", rc->failed_a,
			        rc->failed_b);
		for (size_t k = 0; k < rc->nenv; k++)
			fprintf(f, "  %s: %s | %s\n", rc->env[k].key, rc->env[k].a, rc->env[k].b);
		size_t shown = 0;
		for (size_t k = 0; k < rc->nstats; k++)
			shown += all || rc->stats[k].significant;
		if (!shown) {
			fprintf(f, "  no significant change in %zu stat%s\n", rc->nstats,
			        rc->nstats == 1 ? "" : "s");
			continue;
		}
		fputc('\n', f);
		fputs("  ", f);
		print_label(f, c->label_a, 20);
		fputs(" ", f);
		print_label(f, c->label_b, 29);
		fputs("\n  -------------------- -----------------------------\n", f);
		fprintf(f, "%22s%11s%19s%11s\n", "%stddev", "%change", "%stddev", "p-value");
		fprintf(f, "%22s%11s%19s\n", "\\", "|", "\\");
		for (size_t k = 0; k < rc->nstats; k++)
			if (all || rc->stats[k].significant)
				print_stat(f, &rc->stats[k]);
	}
	if (c->nnotes) {
		fprintf(f, "\nnotes:\n");
		for (size_t i = 0; i < c->nnotes; i++)
			fprintf(f, "  %s\n", c->notes[i]);
	}
	fprintf(f,
	        "\n%zu significant change%s (L: samples apart, >= 3 on one side, |%%change| > 1%% "
	        "for\nperformance stats, 5%% for the others; t: Welch's t-test p < %g and the same "
	        "|%%change|)\n",
	        c->nsignificant, c->nsignificant == 1 ? "" : "s", c->alpha);
}

/* "key": v, or "key": null when there is no value (have is 0). */
static void json_num_or_null(struct jout *w, const char *key, int have, double v)
{
	jout_key(w, key);
	if (have)
		jout_num(w, v);
	else
		jout_null(w);
}

static void json_sample(struct jout *w, const double *v, size_t n, const struct bb_sample *s)
{
	jout_obj_begin(w);
	jout_key(w, "n");
	jout_int(w, n);
	json_num_or_null(w, "mean", n > 0, s->mean);
	json_num_or_null(w, "stddev", n > 0, s->sd);
	json_num_or_null(w, "stddev_percent", n > 0 && s->mean != 0, 100 * s->sd / fabs(s->mean));
	json_num_or_null(w, "min", n > 0, s->min);
	json_num_or_null(w, "max", n > 0, s->max);
	jout_key(w, "values");
	jout_arr_begin(w);
	for (size_t i = 0; i < n; i++)
		jout_num(w, v[i]);
	jout_arr_end(w);
	jout_obj_end(w);
}

static void json_env(struct jout *w, const struct bb_env_diff *d, size_t n)
{
	jout_arr_begin(w);
	for (size_t i = 0; i < n; i++) {
		jout_obj_begin(w);
		jout_key(w, "key");
		jout_str(w, d[i].key);
		jout_key(w, "a");
		jout_str(w, d[i].a);
		jout_key(w, "b");
		jout_str(w, d[i].b);
		jout_obj_end(w);
	}
	jout_arr_end(w);
}

/* "name": {"label": ..., "boots": N}: one side of the comparison */
static void json_side(struct jout *w, const char *name, const char *label, int boots)
{
	jout_key(w, name);
	jout_obj_begin(w);
	jout_key(w, "label");
	jout_str(w, label);
	jout_key(w, "boots");
	jout_int(w, boots);
	jout_obj_end(w);
}

void bb_comparison_json(FILE *f, const struct bb_comparison *c, int all)
{
	struct jout w;
	jout_init(&w, f);
	jout_obj_begin(&w);
	json_side(&w, "a", c->label_a, c->boots_a);
	json_side(&w, "b", c->label_b, c->boots_b);
	jout_key(&w, "environment");
	json_env(&w, c->env, c->nenv);
	jout_key(&w, "runs");
	jout_arr_begin(&w);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct bb_run_cmp *rc = &c->runs[i];
		jout_obj_begin(&w);
		jout_key(&w, "params");
		jout_obj_begin(&w);
		for (size_t k = 0; k < rc->params.n; k++) {
			jout_key(&w, rc->params.v[k].key);
			jout_str(&w, rc->params.v[k].val);
		}
		jout_obj_end(&w);
		jout_key(&w, "axis_a");
		jout_str(&w, rc->axis_a);
		jout_key(&w, "axis_b");
		jout_str(&w, rc->axis_b);
		jout_key(&w, "runs_a");
		jout_int(&w, rc->runs_a);
		jout_key(&w, "runs_b");
		jout_int(&w, rc->runs_b);
		jout_key(&w, "boots_a");
		jout_int(&w, rc->boots_a);
		jout_key(&w, "boots_b");
		jout_int(&w, rc->boots_b);
		jout_key(&w, "failed_iterations_a");
		jout_int(&w, rc->failed_a);
		jout_key(&w, "failed_iterations_b");
		jout_int(&w, rc->failed_b);
		jout_key(&w, "environment");
		json_env(&w, rc->env, rc->nenv);
		jout_key(&w, "stats");
		jout_arr_begin(&w);
		for (size_t k = 0; k < rc->nstats; k++) {
			const struct bb_stat_cmp *s = &rc->stats[k];
			if (!all && !s->significant)
				continue;
			jout_obj_begin(&w);
			jout_key(&w, "name");
			jout_str(&w, s->name);
			jout_key(&w, "a");
			json_sample(&w, s->a, s->na, &s->sa);
			jout_key(&w, "b");
			json_sample(&w, s->b, s->nb, &s->sb);
			json_num_or_null(&w, "change_percent", s->change_defined, s->change);
			jout_key(&w, "threshold_percent");
			jout_num(&w, s->threshold);
			json_num_or_null(&w, "welch_t", s->p_defined && isfinite(s->t), s->t);
			json_num_or_null(&w, "welch_df", s->p_defined, s->df);
			json_num_or_null(&w, "p_value", s->p_defined, s->p);
			jout_key(&w, "lkp_changed");
			jout_bool(&w, s->lkp);
			jout_key(&w, "welch_changed");
			jout_bool(&w, s->welch);
			jout_key(&w, "significant");
			jout_bool(&w, s->significant);
			jout_obj_end(&w);
		}
		jout_arr_end(&w);
		jout_obj_end(&w);
	}
	jout_arr_end(&w);
	jout_key(&w, "notes");
	jout_arr_begin(&w);
	for (size_t i = 0; i < c->nnotes; i++)
		jout_str(&w, c->notes[i]);
	jout_arr_end(&w);
	jout_key(&w, "significant_changes");
	jout_int(&w, c->nsignificant);
	jout_obj_end(&w);
}

static void svg_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

int bb_comparison_svg(FILE *f, const struct bb_comparison *c, int all)
{
	const int W = 720, H = 220, ML = 90, MR = 20, MT = 40, MB = 30;
	size_t panels = 0;
	for (size_t i = 0; i < c->nruns; i++)
		for (size_t k = 0; k < c->runs[i].nstats; k++)
			panels += all || c->runs[i].stats[k].significant;
	int total = 50 + (int)panels * H + (panels ? 0 : 30);
	fprintf(f,
	        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "font-family=\"sans-serif\" font-size=\"12\">\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	        W, total);
	fprintf(f, "<text x=\"10\" y=\"20\"><tspan fill=\"#1f77b4\">\u25cf A: ");
	svg_text(f, c->label_a);
	fprintf(f, "</tspan></text>\n<text x=\"10\" y=\"38\"><tspan fill=\"#d62728\">\u25a0 B: ");
	svg_text(f, c->label_b);
	fprintf(f, "</tspan></text>\n");
	if (!panels)
		fprintf(f, "<text x=\"10\" y=\"64\">no changed stat</text>\n");
	int y0 = 50;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct bb_run_cmp *rc = &c->runs[i];
		char *d = bb_pairs_format_words(&rc->params);
		for (size_t k = 0; k < rc->nstats; k++) {
			const struct bb_stat_cmp *s = &rc->stats[k];
			if (!all && !s->significant)
				continue;
			double lo = INFINITY, hi = -INFINITY;
			for (size_t j = 0; j < s->na; j++)
				lo = fmin(lo, s->a[j]), hi = fmax(hi, s->a[j]);
			for (size_t j = 0; j < s->nb; j++)
				lo = fmin(lo, s->b[j]), hi = fmax(hi, s->b[j]);
			if (!(hi > lo)) {
				double pad = lo != 0 && isfinite(lo) ? fabs(lo) * 0.05 : 1;
				if (!isfinite(lo))
					lo = hi = 0;
				lo -= pad;
				hi += pad;
			} else {
				double pad = (hi - lo) * 0.1;
				lo -= pad;
				hi += pad;
			}
			size_t n = s->na > s->nb ? s->na : s->nb;
			double pw = W - ML - MR, ph = H - MT - MB;
			char ch[32], b1[32], b2[32];
			fprintf(f,
			        "<g transform=\"translate(0,%d)\">\n<text x=\"10\" y=\"20\" "
			        "font-weight=\"bold\">",
			        y0);
			svg_text(f, s->name);
			fprintf(f, " %s</text>\n<text x=\"10\" y=\"34\" font-size=\"10\">",
			        fmt_change(s, ch, sizeof(ch)));
			svg_text(f, d ? d : "");
			fprintf(f, "</text>\n");
			fprintf(
			    f,
			    "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
			    "stroke=\"#999\"/>\n",
			    ML, MT, pw, ph);
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
			        ML - 4, MT + 10, bb_fmt_num(hi, b1, sizeof(b1)));
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
			        ML - 4, MT + (int)ph, bb_fmt_num(lo, b2, sizeof(b2)));
			fprintf(f,
			        "<text x=\"%d\" y=\"%d\" font-size=\"10\">sample 1..%zu</text>\n",
			        ML, H - 10, n);
			for (int side = 0; side < 2; side++) {
				const double *v = side ? s->b : s->a;
				size_t nv = side ? s->nb : s->na;
				const struct bb_sample *sm = side ? &s->sb : &s->sa;
				const char *col = side ? "#d62728" : "#1f77b4";
				for (size_t j = 0; j < nv; j++) {
					double x = ML + pw * (j + 0.5) / n + (side ? 4 : -4);
					double y = MT + ph * (hi - v[j]) / (hi - lo);
					if (side)
						fprintf(f,
						        "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" "
						        "height=\"7\" fill=\"%s\"/>\n",
						        x - 3.5, y - 3.5, col);
					else
						fprintf(f,
						        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
						        "fill=\"%s\"/>\n",
						        x, y, col);
				}
				if (nv)
					fprintf(
					    f,
					    "<line x1=\"%d\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
					    "stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n",
					    ML, ML + pw, MT + ph * (hi - sm->mean) / (hi - lo),
					    MT + ph * (hi - sm->mean) / (hi - lo), col);
			}
			fprintf(f, "</g>\n");
			y0 += H;
		}
		free(d);
	}
	fprintf(f, "</svg>\n");
	return ferror(f) ? -1 : 0;
}
