/* Selecting runs and matching the runs of two sides; see match.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "host/errbuf.h"
#include "host/compare/match.h"
#include "host/compare/strset.h"

struct key_class {
	const char *prefix;
	const struct bb_kvs *kvs;
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
		if ((v = bb_kvs_get(cls[c].kvs, key))) {
			remember(cls[c].prefix, key, resolved);
			return v;
		}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(*aliases); i++) {
		if (strcmp(aliases[i].alias, key))
			continue;
		for (int k = 0; aliases[i].names[k]; k++)
			for (int c = 0; c < NCLASSES; c++)
				if ((v = bb_kvs_get(cls[c].kvs, aliases[i].names[k]))) {
					remember(cls[c].prefix, aliases[i].names[k], resolved);
					return v;
				}
	}
	size_t kl = strlen(key);
	for (int c = 0; c < NCLASSES; c++) {
		const struct bb_kv *hit = NULL;
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
			return hit->value;
		}
	}
	return NULL;
}

/* Does every condition KEY=VALUE hold for run? */
static int conds_hold(const struct bb_res_run *run, const struct bb_kvs *conds)
{
	for (size_t c = 0; conds && c < conds->n; c++) {
		const char *v = bb_run_lookup(run, conds->v[c].key, NULL);
		if (!v || strcmp(v, conds->v[c].value))
			return 0;
	}
	return 1;
}

int bb_side_add(struct bb_side *side, const struct bb_results *res, const struct bb_kvs *conds)
{
	for (size_t b = 0; b < res->nboots; b++)
		for (size_t r = 0; r < res->boots[b].nruns; r++) {
			struct bb_res_run *run = &res->boots[b].runs[r];
			if (!conds_hold(run, conds))
				continue;
			if (bb_grow(&side->runs, &side->runs_cap, side->nruns + 1,
			            sizeof(*side->runs)))
				return -ENOMEM;
			side->runs[side->nruns++] = run;
		}
	for (size_t b = 0; b < res->nboots + res->nbare; b++) {
		struct bb_res_boot *boot =
		    b < res->nboots ? &res->boots[b] : &res->bare[b - res->nboots];
		struct bb_res_run none = {.boot = boot};
		if (boot->nruns || !conds_hold(&none, conds))
			continue;
		if (bb_grow(&side->bare, &side->bare_cap, side->nbare + 1, sizeof(*side->bare)))
			return -ENOMEM;
		side->bare[side->nbare++] = boot;
	}
	return 0;
}

/* The distinct boots of a side's runs, in order. n: how many went into out (room: nruns). */
size_t bb_side_boots(const struct bb_side *s, const struct bb_res_boot **out)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		int seen = 0;
		for (size_t j = 0; j < n && !seen; j++)
			seen = out[j] == s->runs[i]->boot;
		if (!seen)
			out[n++] = s->runs[i]->boot;
	}
	return n;
}

void bb_side_free(struct bb_side *side)
{
	free(side->runs);
	free(side->bare);
	free(side->label);
	memset(side, 0, sizeof(*side));
}

/* Is the parameter name one of the axis keys (as named or as resolved for some run)? */
static int bb_is_axis(const char *cls, const char *name, const char *const *axis, size_t naxis,
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
char *bb_match_key(const struct bb_res_run *run, const char *const *axis, size_t naxis,
                   const struct bb_side *const sides[2], struct bb_kvs *kept)
{
	struct bb_kvs all = {0};
	char *out = NULL;
	size_t len = 1;
	for (size_t i = 0; i < run->params.n; i++)
		if (!bb_is_axis("param:", run->params.v[i].key, axis, naxis, sides))
			if (bb_kvs_set(&all, run->params.v[i].key, run->params.v[i].value))
				goto out;
	for (size_t i = 0; i < run->boot->params.n; i++)
		if (!bb_is_axis("boot:", run->boot->params.v[i].key, axis, naxis, sides) &&
		    !bb_kvs_get(&all, run->boot->params.v[i].key))
			if (bb_kvs_set(&all, run->boot->params.v[i].key,
			               run->boot->params.v[i].value))
				goto out;
	bb_kvs_sort(&all);
	for (size_t i = 0; i < all.n; i++)
		len += strlen(all.v[i].key) + strlen(all.v[i].value) + 2;
	if (!(out = malloc(len)))
		goto out;
	char *o = out;
	*o = 0;
	for (size_t i = 0; i < all.n; i++)
		o += sprintf(o, "%s=%s\n", all.v[i].key, all.v[i].value);
	if (kept) {
		*kept = all;
		return out;
	}
out:
	bb_kvs_free(&all);
	return out;
}

/* The parameters whose values differ between the sides: "k (A: x, B: y); ..." */
char *bb_param_differences(const struct bb_side *a, const struct bb_side *b)
{
	struct bb_strset keys = {0};
	const struct bb_side *sides[2] = {a, b};
	for (int s = 0; s < 2; s++)
		for (size_t r = 0; r < sides[s]->nruns; r++) {
			const struct bb_res_run *run = sides[s]->runs[r];
			for (size_t i = 0; i < run->params.n; i++)
				bb_strset_add(&keys, run->params.v[i].key);
			for (size_t i = 0; i < run->boot->params.n; i++)
				bb_strset_add(&keys, run->boot->params.v[i].key);
		}
	qsort(keys.v, keys.n, sizeof(*keys.v), bb_value_cmp);
	char *out = strdup("");
	for (size_t k = 0; k < keys.n && out; k++) {
		struct bb_strset v[2] = {{0}, {0}};
		for (int s = 0; s < 2; s++)
			for (size_t r = 0; r < sides[s]->nruns; r++) {
				const struct bb_res_run *run = sides[s]->runs[r];
				const char *x = bb_kvs_get(&run->params, keys.v[k]);
				if (!x)
					x = bb_kvs_get(&run->boot->params, keys.v[k]);
				bb_strset_add(&v[s], x ? x : "(absent)");
			}
		char *ja = bb_strset_join(&v[0], "(none)"), *jb = bb_strset_join(&v[1], "(none)");
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
		bb_strset_free(&v[0]);
		bb_strset_free(&v[1]);
	}
	bb_strset_free(&keys);
	return out;
}

int bb_key_values(const struct bb_results *res, const char *key, const char ***vals, size_t *n,
                  size_t *missing)
{
	size_t cap = 0;
	*vals = NULL;
	*n = 0;
	*missing = 0;
	for (size_t b = 0; b < res->nboots; b++)
		for (size_t r = 0; r < res->boots[b].nruns; r++) {
			const char *v = bb_run_lookup(&res->boots[b].runs[r], key, NULL);
			int seen = 0;
			if (!v) {
				(*missing)++;
				continue;
			}
			for (size_t i = 0; i < *n && !seen; i++)
				seen = !strcmp((*vals)[i], v);
			if (seen)
				continue;
			if (bb_grow(vals, &cap, *n + 1, sizeof(**vals))) {
				free(*vals);
				*vals = NULL;
				*n = 0;
				return -ENOMEM;
			}
			(*vals)[(*n)++] = v;
		}
	if (*n)
		qsort(*vals, *n, sizeof(**vals), bb_value_cmp);
	return 0;
}

int bb_split_by(const struct bb_results *res, const char *key, struct bb_kvs *ca, struct bb_kvs *cb,
                size_t *missing, char *err, size_t errlen)
{
	const char **vals;
	size_t n;
	int r = bb_key_values(res, key, &vals, &n, missing);
	if (r)
		return bb_errbuf_fail(err, errlen, r, "out of memory");
	if (n == 0)
		r = bb_errbuf_fail(err, errlen, -EINVAL,
		                   "no run in %s has a parameter or environment field '%s'",
		                   res->path, key);
	else if (n != 2) {
		size_t l = (size_t)snprintf(err, errlen, "--by %s: %s has %zu value%s (", key,
		                            res->path, n, n == 1 ? "" : "s");
		for (size_t i = 0; i < n && l < errlen; i++)
			l += (size_t)snprintf(err + l, errlen - l, "%s%s", i ? ", " : "", vals[i]);
		if (l < errlen)
			snprintf(err + l, errlen - l, ")%s; choose two with --a %s=X --b %s=Y",
			         n == 1 ? ", nothing to compare" : "", key, key);
		r = -EINVAL;
	} else if ((r = bb_kvs_set(ca, key, vals[0])) || (r = bb_kvs_set(cb, key, vals[1])))
		bb_errbuf_fail(err, errlen, r, "out of memory");
	free(vals);
	return r;
}

/* Side s's label: "PATH [k=v ...]" or PATH with two folders, "k=v ..." with one. */
static char *side_label(const char *path, const struct bb_kvs *conds, int two)
{
	char *d = bb_kvs_format_words(conds), *label = NULL;
	if (!d || !two)
		return d;
	if (!*d)
		label = strdup(path);
	else if (asprintf(&label, "%s [%s]", path, d) < 0)
		label = NULL;
	free(d);
	return label;
}

int bb_sides_select(const struct bb_results *res, const char *const paths[2], size_t nres,
                    const struct bb_kvs *const conds[2], struct bb_side side[2], const char **axis,
                    size_t *naxis, size_t maxaxis, char *err, size_t errlen)
{
	for (int s = 0; s < 2; s++) {
		const struct bb_results *r = &res[nres == 2 ? s : 0];
		if (bb_side_add(&side[s], r, conds[s]) ||
		    !(side[s].label = side_label(paths[s], conds[s], nres == 2)))
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		if (!side[s].nruns)
			return bb_errbuf_fail(err, errlen, -EINVAL, "no run in %s matches %s",
			                      r->path, side[s].label);
	}
	for (int s = 0; s < 2 && nres == 1; s++)
		for (size_t i = 0; i < conds[s]->n && *naxis < maxaxis; i++) {
			int dup = 0;
			for (size_t k = 0; k < *naxis; k++)
				dup |= !strcmp(axis[k], conds[s]->v[i].key);
			if (!dup)
				axis[(*naxis)++] = conds[s]->v[i].key;
		}
	return 0;
}
