/* A comparison as JSON; see render.h. */
#include <math.h>
#include <stdio.h>

#include "host/json.h"
#include "host/results/render.h"

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
		jout_key(w, "set");
		jout_bool(w, d[i].is_set);
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

/* "interval": benchboot's confidence interval of the %change (docs/compare.md). */
static void json_interval(struct jout *w, const struct bb_interval *iv)
{
	static const char *const basis[] = {"none", "iterations", "boots"};
	int have = iv->basis != BB_IV_NONE;
	jout_key(w, "interval");
	jout_obj_begin(w);
	jout_key(w, "basis");
	jout_str(w, basis[iv->basis]);
	jout_key(w, "confidence");
	jout_num(w, iv->confidence);
	jout_key(w, "paired");
	jout_bool(w, iv->paired);
	jout_key(w, "units_a");
	jout_int(w, iv->units_a);
	jout_key(w, "units_b");
	jout_int(w, iv->units_b);
	json_num_or_null(w, "df", have, iv->df);
	json_num_or_null(w, "estimate_percent", iv->estimated, iv->change);
	json_num_or_null(w, "low_percent", have && iv->bounded, iv->lo);
	json_num_or_null(w, "high_percent", have && iv->bounded, iv->hi);
	jout_key(w, "excludes_zero");
	jout_bool(w, iv->excludes_zero);
	jout_obj_end(w);
}

/* "lkp": LKP's rule and the numbers it looked at. */
static void json_lkp(struct jout *w, const struct bb_lkp_verdict *v)
{
	jout_key(w, "lkp");
	jout_obj_begin(w);
	jout_key(w, "compared");
	jout_bool(w, v->compared);
	jout_key(w, "threshold_percent");
	jout_num(w, v->threshold);
	json_num_or_null(w, "min_a", v->compared, v->min_a);
	json_num_or_null(w, "median_a", v->compared, v->median_a);
	json_num_or_null(w, "max_a", v->compared, v->max_a);
	json_num_or_null(w, "min_b", v->compared, v->min_b);
	json_num_or_null(w, "median_b", v->compared, v->median_b);
	json_num_or_null(w, "max_b", v->compared, v->max_b);
	json_num_or_null(w, "median_ratio", v->compared, v->ratio);
	jout_key(w, "changed");
	jout_bool(w, v->changed);
	jout_obj_end(w);
}

static void json_stat(struct jout *w, const struct bb_stat_cmp *s)
{
	jout_obj_begin(w);
	jout_key(w, "name");
	jout_str(w, s->name);
	jout_key(w, "a");
	json_sample(w, s->a, s->na, &s->sa);
	jout_key(w, "b");
	json_sample(w, s->b, s->nb, &s->sb);
	json_num_or_null(w, "change_percent", s->change_defined, s->change);
	json_interval(w, &s->iv);
	json_lkp(w, &s->lkpv);
	jout_key(w, "lkp_changed");
	jout_bool(w, s->lkp);
	jout_key(w, "interval_changed");
	jout_bool(w, s->interval);
	jout_key(w, "significant");
	jout_bool(w, s->significant);
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
			jout_str(&w, rc->params.v[k].value);
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
			json_stat(&w, s);
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
	jout_key(&w, "confidence");
	jout_num(&w, c->confidence);
	jout_key(&w, "significant_changes");
	jout_int(&w, c->nsignificant);
	jout_obj_end(&w);
}
