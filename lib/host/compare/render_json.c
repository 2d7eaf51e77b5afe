/* A comparison as JSON; see render.h. */
#include <math.h>
#include <stdio.h>

#include "host/json.h"
#include "host/compare/render.h"
#include "host/compare/stat_rules.h"

/* "key": v, or "key": null when there is no value (have is 0). */
static void json_num_or_null(struct jout *w, const char *key, int have, double v)
{
	bb_jout_key(w, key);
	if (have)
		bb_jout_num(w, v);
	else
		bb_jout_null(w);
}

static void json_sample(struct jout *w, const double *v, size_t n, const struct bb_sample *s)
{
	bb_jout_obj_begin(w);
	bb_jout_kv_int(w, "n", n);
	json_num_or_null(w, "mean", n > 0, s->mean);
	json_num_or_null(w, "stddev", n > 0, s->sd);
	json_num_or_null(w, "stddev_percent", n > 0 && s->mean != 0, 100 * s->sd / fabs(s->mean));
	json_num_or_null(w, "min", n > 0, s->min);
	json_num_or_null(w, "max", n > 0, s->max);
	bb_jout_key(w, "values");
	bb_jout_arr_begin(w);
	for (size_t i = 0; i < n; i++)
		bb_jout_num(w, v[i]);
	bb_jout_arr_end(w);
	bb_jout_obj_end(w);
}

static void json_env(struct jout *w, const struct bb_env_diff *d, size_t n)
{
	bb_jout_arr_begin(w);
	for (size_t i = 0; i < n; i++) {
		bb_jout_obj_begin(w);
		bb_jout_kv_str(w, "key", d[i].key);
		bb_jout_kv_str(w, "a", d[i].a);
		bb_jout_kv_str(w, "b", d[i].b);
		bb_jout_kv_bool(w, "set", d[i].is_set);
		bb_jout_obj_end(w);
	}
	bb_jout_arr_end(w);
}

/* "name": {"label": ..., "boots": N}: one side of the comparison */
static void json_side(struct jout *w, const char *name, const char *label, int boots, int stalled,
                      int bare)
{
	bb_jout_key(w, name);
	bb_jout_obj_begin(w);
	bb_jout_kv_str(w, "label", label);
	bb_jout_kv_int(w, "boots", boots);
	bb_jout_kv_int(w, "boots_with_kernel_stalls", stalled);
	bb_jout_kv_int(w, "boots_without_results", bare);
	bb_jout_obj_end(w);
}

/* "failure_stats": the kernel's reports as LKP's failure stats, and how many changed by its rule */
static void json_fails(struct jout *w, const struct bb_comparison *c)
{
	bb_jout_key(w, "failure_stats");
	bb_jout_arr_begin(w);
	for (size_t i = 0; i < c->nfails; i++) {
		const struct bb_fail_stat *fs = &c->fails[i];
		const size_t n[2][2] = {{fs->fails_a, fs->runs_a}, {fs->fails_b, fs->runs_b}};
		bb_jout_obj_begin(w);
		bb_jout_kv_str(w, "name", fs->name);
		for (int s = 0; s < 2; s++) {
			bb_jout_key(w, s ? "b" : "a");
			bb_jout_obj_begin(w);
			bb_jout_kv_int(w, "fails", (long long)n[s][0]);
			bb_jout_kv_int(w, "runs", (long long)n[s][1]);
			bb_jout_obj_end(w);
		}
		bb_jout_kv_num(w, "reproduction_percent", fs->reproduction);
		bb_jout_kv_bool(w, "lkp_changed", fs->lkp_changed);
		bb_jout_kv_str(w, "first_line", fs->first);
		bb_jout_obj_end(w);
	}
	bb_jout_arr_end(w);
	bb_jout_kv_int(w, "failure_stats_changed", (long long)c->nfails_changed);
}

/* "interval": benchboot's confidence interval of the %change (docs/compare.md). */
static void json_interval(struct jout *w, const struct bb_interval *iv)
{
	static const char *const basis[] = {"none", "iterations", "boots"};
	int have = iv->basis != BB_IV_NONE;
	bb_jout_key(w, "interval");
	bb_jout_obj_begin(w);
	bb_jout_kv_str(w, "basis", basis[iv->basis]);
	bb_jout_kv_str(w, "unit", iv->absolute ? "points" : "percent");
	bb_jout_kv_num(w, "confidence", iv->confidence);
	bb_jout_kv_bool(w, "paired", iv->paired);
	bb_jout_kv_int(w, "units_a", iv->units_a);
	bb_jout_kv_int(w, "units_b", iv->units_b);
	json_num_or_null(w, "df", have, iv->df);
	/* an absolute change's interval is of B - A, in the stat's unit (points) */
	const char *const keys[2][3] = {{"estimate_percent", "low_percent", "high_percent"},
	                                {"estimate_points", "low_points", "high_points"}};
	json_num_or_null(w, keys[iv->absolute][0], iv->estimated, iv->change);
	json_num_or_null(w, keys[iv->absolute][1], have && iv->bounded, iv->lo);
	json_num_or_null(w, keys[iv->absolute][2], have && iv->bounded, iv->hi);
	bb_jout_kv_bool(w, "excludes_zero", iv->excludes_zero);
	bb_jout_kv_int(w, "a_first_boots", iv->a_first);
	bb_jout_kv_int(w, "b_first_boots", iv->b_first);
	bb_jout_kv_bool(w, "order_taken_out", iv->crossover);
	json_num_or_null(w, "order_effect_percent", iv->crossover && iv->estimated,
	                 iv->order_effect);
	bb_jout_obj_end(w);
}

/* "lkp": LKP's rule and the numbers it looked at. */
static void json_lkp(struct jout *w, const struct bb_lkp_verdict *v)
{
	bb_jout_key(w, "lkp");
	bb_jout_obj_begin(w);
	bb_jout_kv_bool(w, "compared", v->compared);
	bb_jout_kv_num(w, "threshold_percent", v->threshold);
	json_num_or_null(w, "min_a", v->compared, v->min_a);
	json_num_or_null(w, "median_a", v->compared, v->median_a);
	json_num_or_null(w, "max_a", v->compared, v->max_a);
	json_num_or_null(w, "min_b", v->compared, v->min_b);
	json_num_or_null(w, "median_b", v->compared, v->median_b);
	json_num_or_null(w, "max_b", v->compared, v->max_b);
	json_num_or_null(w, "median_ratio", v->compared, v->ratio);
	bb_jout_kv_bool(w, "changed", v->changed);
	bb_jout_kv_str(w, "rule", v->rule);
	bb_jout_obj_end(w);
}

static void json_stat(struct jout *w, const struct bb_stat_cmp *s)
{
	char base[64];
	int have = s->na && s->nb;
	bb_jout_obj_begin(w);
	bb_jout_kv_str(w, "name", s->name);
	/* the monitor that made it (stat_rules.h), null for the test's own */
	bb_jout_kv_str(w, "monitor",
	               bb_stat_is_monitor(s->name) ? bb_stat_base(s->name, base, sizeof base)
	                                           : NULL);
	bb_jout_key(w, "a");
	json_sample(w, s->a, s->na, &s->sa);
	bb_jout_key(w, "b");
	json_sample(w, s->b, s->nb, &s->sb);
	if (s->absolute) {
		/* LKP's absolute change: B - A in points; the %change too when A's mean is not 0 */
		json_num_or_null(w, "change_percent", have && s->sa.mean != 0,
		                 100 * (s->sb.mean - s->sa.mean) / s->sa.mean);
		json_num_or_null(w, "change_points", s->change_defined, s->change);
	} else {
		json_num_or_null(w, "change_percent", s->change_defined, s->change);
	}
	bb_jout_kv_str(w, "change_shown", s->absolute ? "points" : "percent");
	json_interval(w, &s->iv);
	json_lkp(w, &s->lkpv);
	bb_jout_kv_bool(w, "lkp_changed", s->lkp);
	bb_jout_kv_bool(w, "interval_changed", s->interval);
	bb_jout_kv_bool(w, "significant", s->significant);
	/* LKP's KPI direction (null: no KPI) and, when marked, "regression" or "improvement" */
	json_num_or_null(w, "kpi_direction", s->kpi != 0, s->kpi);
	bb_jout_kv_str(w, "verdict", s->verdict);
	bb_jout_obj_end(w);
}

void bb_comparison_json(FILE *f, const struct bb_comparison *c, int all)
{
	struct jout w;
	bb_jout_init(&w, f);
	bb_jout_obj_begin(&w);
	json_side(&w, "a", c->label_a, c->boots_a, c->stalled_boots_a, c->bare_boots_a);
	json_side(&w, "b", c->label_b, c->boots_b, c->stalled_boots_b, c->bare_boots_b);
	bb_jout_key(&w, "environment");
	json_env(&w, c->env, c->nenv);
	bb_jout_key(&w, "runs");
	bb_jout_arr_begin(&w);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct bb_run_cmp *rc = &c->runs[i];
		bb_jout_obj_begin(&w);
		bb_jout_key(&w, "params");
		bb_jout_obj_begin(&w);
		for (size_t k = 0; k < rc->params.n; k++) {
			bb_jout_kv_str(&w, rc->params.v[k].key, rc->params.v[k].value);
		}
		bb_jout_obj_end(&w);
		bb_jout_kv_str(&w, "axis_a", rc->axis_a);
		bb_jout_kv_str(&w, "axis_b", rc->axis_b);
		bb_jout_kv_int(&w, "runs_a", rc->runs_a);
		bb_jout_kv_int(&w, "runs_b", rc->runs_b);
		bb_jout_kv_int(&w, "boots_a", rc->boots_a);
		bb_jout_kv_int(&w, "boots_b", rc->boots_b);
		bb_jout_kv_int(&w, "failed_iterations_a", rc->failed_a);
		bb_jout_kv_int(&w, "failed_iterations_b", rc->failed_b);
		bb_jout_key(&w, "environment");
		json_env(&w, rc->env, rc->nenv);
		bb_jout_key(&w, "stats");
		bb_jout_arr_begin(&w);
		for (size_t k = 0; k < rc->nstats; k++) {
			const struct bb_stat_cmp *s = &rc->stats[k];
			if (s->hidden || (!all && !s->significant))
				continue;
			json_stat(&w, s);
		}
		bb_jout_arr_end(&w);
		bb_jout_obj_end(&w);
	}
	bb_jout_arr_end(&w);
	json_fails(&w, c);
	bb_jout_key(&w, "notes");
	bb_jout_arr_begin(&w);
	for (size_t i = 0; i < c->nnotes; i++)
		bb_jout_str(&w, c->notes[i]);
	bb_jout_arr_end(&w);
	bb_jout_key(&w, "missing");
	bb_jout_arr_begin(&w);
	for (size_t i = 0; i < c->nmissing; i++)
		bb_jout_str(&w, c->missing[i]);
	bb_jout_arr_end(&w);
	bb_jout_kv_num(&w, "confidence", c->confidence);
	bb_jout_kv_bool(&w, "more", c->more);
	bb_jout_kv_int(&w, "significant_changes", c->nsignificant);
	bb_jout_obj_end(&w);
}
