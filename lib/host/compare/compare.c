/* Comparing two sets of results, 0-day style; see compare.h and ../shared/LKP.md. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "host/errbuf.h"
#include "host/compare/compare.h"
#include "host/compare/kpi.h"
#include "host/compare/strset.h"
#include "host/compare/stat_rules.h"

/* s (owned, NULL: out of memory) appended to a list of strings: 0, or -ENOMEM (s freed). */
static int add_line(char ***v, size_t *n, size_t *cap, char *s)
{
	if (!s)
		return -ENOMEM;
	if (bb_grow(v, cap, *n + 1, sizeof(**v))) {
		free(s);
		return -ENOMEM;
	}
	(*v)[(*n)++] = s;
	return 0;
}

static int add_note(struct bb_comparison *c, char *note)
{
	return add_line(&c->notes, &c->nnotes, &c->notes_cap, note);
}

/* add_note, unless the same note is there already (a boot on both sides). */
static int add_note_once(struct bb_comparison *c, char *note)
{
	for (size_t k = 0; note && k < c->nnotes; k++)
		if (!strcmp(c->notes[k], note)) {
			free(note);
			return 0;
		}
	return add_note(c, note);
}

/*
 * LKP's order (lib/compare.rb Compare.sort_stats): the test's own stats first, then each
 * monitor's, a monitor with fewer changed stats before one with more; within that LKP's sort
 * key (stat_rules.h: the name, perf-profile's first two components, so calltrace, children,
 * self), then the change (perf-profile's points, lowest first), then the name. rank: 0 for a
 * test's stat, else 1 + the changed stats of its monitor. (perf-stat and perf-profile come
 * last in 0-day's reports because they have the most changed stats, not by a rule of their
 * own.) The kernel's failure stats come before every table (bb_comparison.fails).
 */
struct ranked {
	size_t rank;
	char key[160];
	struct bb_stat_cmp s;
};

static int ranked_cmp(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;
	int c;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if ((c = strcmp(a->key, b->key)))
		return c;
	if (a->s.change_defined != b->s.change_defined)
		return a->s.change_defined ? -1 : 1;
	if (a->s.change_defined && a->s.change != b->s.change)
		return a->s.change < b->s.change ? -1 : 1;
	return strcmp(a->s.name, b->s.name);
}

static int sort_stats(struct bb_stat_cmp *stats, size_t n)
{
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		char base[64], other[64];
		r[i].s = stats[i];
		bb_stat_sort_key(stats[i].name, r[i].key, sizeof(r[i].key));
		if (!bb_stat_is_monitor(stats[i].name))
			continue;
		bb_stat_base(stats[i].name, base, sizeof base);
		r[i].rank = 1;
		for (size_t k = 0; k < n; k++)
			r[i].rank +=
			    stats[k].significant &&
			    !strcmp(bb_stat_base(stats[k].name, other, sizeof other), base);
	}
	qsort(r, n, sizeof(*r), ranked_cmp);
	for (size_t i = 0; i < n; i++)
		stats[i] = r[i].s;
	free(r);
	return 0;
}

/* The index of a boot in boots[0..*n), added when new (boots has room for every run). */
static size_t boot_index(const struct bb_res_boot **boots, size_t *n, const struct bb_res_boot *b)
{
	for (size_t i = 0; i < *n; i++)
		if (boots[i] == b)
			return i;
	boots[*n] = b;
	return (*n)++;
}

/* The values of stat name in runs, one per iteration, each with the index of its boot. */
static int pool(struct bb_res_run *const *runs, size_t n, const char *name,
                const struct bb_res_boot **boots, size_t *nboots, double **vals, size_t **boot_of,
                size_t *nvals)
{
	*vals = NULL;
	*boot_of = NULL;
	*nvals = 0;
	for (size_t i = 0; i < n; i++) {
		const struct bb_res_stat *st = bb_run_stat(runs[i], name);
		if (!st || !st->n)
			continue;
		double *nv = realloc(*vals, (*nvals + st->n) * sizeof(*nv));
		if (nv)
			*vals = nv;
		size_t *nb = realloc(*boot_of, (*nvals + st->n) * sizeof(*nb));
		if (nb)
			*boot_of = nb;
		if (!nv || !nb)
			return -ENOMEM;
		memcpy(nv + *nvals, st->vals, st->n * sizeof(*nv));
		size_t id = boot_index(boots, nboots, runs[i]->boot);
		for (size_t k = 0; k < st->n; k++)
			nb[*nvals + k] = id;
		*nvals += st->n;
	}
	return 0;
}

/*
 * The boots of ra and rb into boots[] (the indexes the stats' values get), and per boot
 * whether A's run came first in it: 1, 0 (B's first), -1 (a side not there, or a position not
 * recorded). *out is malloc'd, one per boot of boots[]. 0 or -ENOMEM.
 */
static int order_of_boots(struct bb_res_run *const *ra, size_t na, struct bb_res_run *const *rb,
                          size_t nb, const struct bb_res_boot **boots, size_t *nboots,
                          signed char **out)
{
	for (size_t i = 0; i < na + nb; i++)
		boot_index(boots, nboots, (i < na ? ra[i] : rb[i - na])->boot);
	signed char *o = malloc(*nboots + 1);
	if (!(*out = o))
		return -ENOMEM;
	for (size_t k = 0; k < *nboots; k++) {
		int first[2] = {0, 0};
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < (s ? nb : na); i++) {
				const struct bb_res_run *run = s ? rb[i] : ra[i];
				int p = run->first_position;
				if (run->boot == boots[k] && p && (!first[s] || p < first[s]))
					first[s] = p;
			}
		o[k] = first[0] && first[1] && first[0] != first[1] ? first[0] < first[1] : -1;
	}
	return 0;
}

/*
 * Boots of the two sides that ran side by side (`run --parallel`: an A and a B at once; a
 * boot's ran_with) count as one unit, so that the interval pairs them as it pairs the two
 * values of a run-level axis in one boot: what the two had in common (the host's load at the
 * time) cancels in the pair. Only when no boot holds both sides, every boot of s ran side by
 * side, and each group of them holds exactly one boot of each side; otherwise the boots stay
 * as they are (independent). s->boot_a and s->boot_b are then the pairs' indices.
 */
static int pair_side_by_side(struct bb_stat_cmp *s, const struct bb_res_boot *const *boots,
                             size_t nboots)
{
	size_t *unit = calloc(nboots + 1, sizeof(*unit));
	unsigned char *in = calloc(nboots + 1, 1); /* bit 0: A's values, bit 1: B's */
	unsigned char *got = calloc(nboots + 1, 1);
	int ok = unit && in && got;
	for (size_t k = 0; ok && k < s->na; k++)
		in[s->boot_a[k]] |= 1;
	for (size_t k = 0; ok && k < s->nb; k++)
		in[s->boot_b[k]] |= 2;
	for (size_t i = 0; ok && i < nboots; i++) {
		if (!in[i])
			continue;
		ok = in[i] != 3 && boots[i]->ran_with;
		for (size_t j = 0; ok && j <= i; j++)
			if (in[j] && boots[j]->ran_with &&
			    !strcmp(boots[j]->ran_with, boots[i]->ran_with)) {
				unit[i] = j;
				break;
			}
		/* one boot of each side a group */
		ok = ok && !(got[unit[i]] & in[i]);
		if (ok)
			got[unit[i]] |= in[i];
	}
	for (size_t i = 0; ok && i < nboots; i++)
		ok = !in[i] || got[unit[i]] == 3;
	if (ok && s->na && s->nb) {
		for (size_t k = 0; k < s->na; k++)
			s->boot_a[k] = unit[s->boot_a[k]];
		for (size_t k = 0; k < s->nb; k++)
			s->boot_b[k] = unit[s->boot_b[k]];
		s->side_by_side = 1;
	}
	free(unit);
	free(in);
	free(got);
	return s->side_by_side;
}

/*
 * The numbers of one stat: LKP's (means, stddev, %change or absolute change, `L`) and
 * benchboot's interval. more: show the stats LKP hides unless asked (stat_rules.h); a hidden
 * stat is kept, unmarked.
 */
static int stat_evaluate(struct bb_stat_cmp *s, double confidence, int more)
{
	bb_sample_compute(s->a, s->na, &s->sa);
	bb_sample_compute(s->b, s->nb, &s->sb);
	s->threshold = bb_stat_threshold(s->name);
	s->absolute = bb_stat_absolute_change(s->name);
	s->hidden = !more && bb_stat_hidden(s->name);
	if (s->na && s->nb) {
		if (s->absolute) {
			s->change_defined = 1;
			s->change = s->sb.mean - s->sa.mean;
		} else if (s->sa.mean != 0) {
			s->change_defined = 1;
			s->change = 100 * (s->sb.mean - s->sa.mean) / s->sa.mean;
		} else if (s->sb.mean == 0) {
			s->change_defined = 1;
			s->change = 0;
		}
	}
	if (bb_lkp_verdict(s->name, s->a, s->na, s->b, s->nb, &s->lkpv) ||
	    (s->absolute ? bb_diff_interval : bb_change_interval)(
	        s->a, s->boot_a, s->na, s->b, s->boot_b, s->nb, s->a_first, confidence, &s->iv))
		return -ENOMEM;
	s->lkp = !s->hidden && s->lkpv.changed;
	s->interval = !s->hidden && s->iv.basis == BB_IV_BOOTS && s->iv.excludes_zero;
	s->significant = s->lkp || s->interval;
	s->kpi = bb_kpi_direction(s->name);
	if (s->significant && s->change_defined)
		s->verdict = bb_kpi_verdict(s->kpi, s->change);
	return 0;
}

/* The boots of runs (each boot once); *stalled (if asked) gets how many of them had kernel
 * lockup or stall reports. */
static size_t count_boots(struct bb_res_run *const *runs, size_t n, size_t *stalled)
{
	size_t count = 0, with_stalls = 0;
	for (size_t i = 0; i < n; i++) {
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = runs[j]->boot == runs[i]->boot;
		count += !seen;
		with_stalls += !seen && runs[i]->boot->kernel_stalls > 0;
	}
	if (stalled)
		*stalled = with_stalls;
	return count;
}

static char *axis_values(struct bb_res_run *const *runs, size_t n, const char *const *axis,
                         size_t naxis)
{
	if (!naxis)
		return NULL;
	struct bb_kvs kv = {0};
	for (size_t k = 0; k < naxis; k++) {
		struct bb_strset vals = {0};
		for (size_t i = 0; i < n; i++) {
			const char *v = bb_run_lookup(runs[i], axis[k], NULL);
			bb_strset_add(&vals, v ? v : "(absent)");
		}
		char *j = bb_strset_join(&vals, "(absent)");
		if (j)
			bb_kvs_set(&kv, axis[k], j);
		free(j);
		bb_strset_free(&vals);
	}
	char *d = bb_kvs_format_words(&kv);
	bb_kvs_free(&kv);
	return d;
}

/* One matched group: the runs of each side with the same parameters. */
static int compare_group(struct bb_run_cmp *rc, struct bb_res_run *const *ra, size_t na,
                         struct bb_res_run *const *rb, size_t nb, const char *const *axis,
                         size_t naxis, double confidence, int more)
{
	struct bb_strset names = {0};
	const struct bb_res_boot **boots = calloc(na + nb + 1, sizeof(*boots));
	size_t nboots = 0;
	int r = -ENOMEM;
	if (!boots)
		return -ENOMEM;
	rc->runs_a = na;
	rc->runs_b = nb;
	rc->boots_a = count_boots(ra, na, NULL);
	rc->boots_b = count_boots(rb, nb, NULL);
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
				if (bb_strset_add(&names, run->stats[k].name))
					goto out;
		}
	if (names.n && !(rc->stats = calloc(names.n, sizeof(*rc->stats))))
		goto out;
	if (order_of_boots(ra, na, rb, nb, boots, &nboots, &rc->a_first))
		goto out;
	for (size_t i = 0; i < names.n; i++) {
		struct bb_stat_cmp *s = &rc->stats[rc->nstats++];
		s->a_first = rc->a_first;
		if (!(s->name = strdup(names.v[i])) ||
		    pool(ra, na, s->name, boots, &nboots, &s->a, &s->boot_a, &s->na) ||
		    pool(rb, nb, s->name, boots, &nboots, &s->b, &s->boot_b, &s->nb) ||
		    (pair_side_by_side(s, boots, nboots), stat_evaluate(s, confidence, more)))
			goto out;
		rc->nsignificant += s->significant;
		rc->nhidden += s->hidden;
	}
	if (rc->nstats && sort_stats(rc->stats, rc->nstats))
		goto out;
	{
		const struct bb_kvs **ea = calloc(na + 1, sizeof(*ea)),
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
		int e = bb_env_diff_compute(ea, na, eb, nb, &rc->env, &rc->nenv);
		free(ea);
		free(eb);
		if (e)
			goto out;
	}
	r = 0;
out:
	bb_strset_free(&names);
	free(boots);
	return r;
}

/*
 * The environment of the boots on each side that differs (env.json), then the labels benchboot
 * run gave the boots (kernel=NAME) that differ, shown as label.KEY. 0, or -ENOMEM.
 */
static int boots_env_diff(struct bb_comparison *out, const struct bb_side *a,
                          const struct bb_side *b)
{
	const struct bb_res_boot **boots[2] = {calloc(a->nruns + 1, sizeof(**boots)),
	                                       calloc(b->nruns + 1, sizeof(**boots))};
	const struct bb_kvs **recs[2] = {calloc(a->nruns + 1, sizeof(**recs)),
	                                 calloc(b->nruns + 1, sizeof(**recs))};
	struct bb_env_diff *ld = NULL;
	size_t n[2], nld = 0, cap = out->nenv;
	int e = -ENOMEM;
	if (!boots[0] || !boots[1] || !recs[0] || !recs[1])
		goto out;
	n[0] = bb_side_boots(a, boots[0]);
	n[1] = bb_side_boots(b, boots[1]);
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < n[s]; i++)
			recs[s][i] = &boots[s][i]->env;
	if (bb_env_diff_compute(recs[0], n[0], recs[1], n[1], &out->env, &out->nenv))
		goto out;
	cap = out->nenv;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < n[s]; i++)
			recs[s][i] = &boots[s][i]->labels;
	if (bb_env_diff_compute(recs[0], n[0], recs[1], n[1], &ld, &nld))
		goto out;
	for (size_t i = 0; i < nld; i++) {
		char *key;
		if (bb_grow(&out->env, &cap, out->nenv + 1, sizeof(*out->env)) ||
		    asprintf(&key, "label.%s", ld[i].key) < 0)
			goto out;
		out->env[out->nenv] = ld[i];
		out->env[out->nenv++].key = key;
		free(ld[i].key);
		ld[i].key = ld[i].a = ld[i].b = NULL;
	}
	e = 0;
out:
	bb_env_diffs_free(ld, nld);
	for (int s = 0; s < 2; s++) {
		free(boots[s]);
		free(recs[s]);
	}
	return e;
}

/* "only in A: run ID (k=v ...)" */
static int note_only_in(struct bb_comparison *out, const char *side, const struct bb_res_run *run)
{
	char *d = bb_kvs_format_words(&run->params), *n = NULL;
	if (d && asprintf(&n, "only in %s: run %s (%s)", side, run->id, d) < 0)
		n = NULL;
	free(d);
	return add_note(out, n);
}

/*
 * The matched groups: for the first run of A not yet used, every run of A and of B with the
 * same matching key, compared together; runs of one side only become notes.
 */
static int group_runs(struct bb_comparison *out, const struct bb_side *const sides[2],
                      char **const keys[2], int *const used[2], const char *const *axis,
                      size_t naxis, int more)
{
	const struct bb_side *a = sides[0], *b = sides[1];
	struct bb_res_run **ra = calloc(a->nruns + 1, sizeof(*ra)),
	                  **rb = calloc(b->nruns + 1, sizeof(*rb));
	size_t cap = 0;
	int r = -ENOMEM;
	if (!ra || !rb)
		goto out;
	for (size_t i = 0; i < a->nruns; i++) {
		size_t na = 0, nb = 0;
		if (used[0][i])
			continue;
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
			if (note_only_in(out, "A", ra[0]))
				goto out;
			continue;
		}
		if (bb_grow(&out->runs, &cap, out->nruns + 1, sizeof(*out->runs)))
			goto out;
		struct bb_run_cmp *rc = &out->runs[out->nruns++];
		memset(rc, 0, sizeof(*rc));
		free(bb_match_key(ra[0], axis, naxis, sides, &rc->params));
		if (compare_group(rc, ra, na, rb, nb, axis, naxis, out->confidence, more))
			goto out;
		out->nsignificant += rc->nsignificant;
	}
	for (size_t j = 0; j < b->nruns; j++) {
		if (used[1][j])
			continue;
		for (size_t k = j; k < b->nruns; k++)
			if (!strcmp(keys[1][j], keys[1][k]))
				used[1][k] = 1;
		if (note_only_in(out, "B", b->runs[j]))
			goto out;
	}
	r = 0;
out:
	free(ra);
	free(rb);
	return r;
}

/* A note on the stats LKP hides unless asked: how many, of which monitors. */
static int note_hidden(struct bb_comparison *out)
{
	char bases[256] = "", base[64], *note;
	size_t n = 0;
	for (size_t i = 0; i < out->nruns; i++)
		for (size_t k = 0; k < out->runs[i].nstats; k++) {
			const struct bb_stat_cmp *s = &out->runs[i].stats[k];
			if (!s->hidden)
				continue;
			n++;
			bb_stat_base(s->name, base, sizeof base);
			size_t l = strlen(base);
			const char *p = bases;
			int seen = 0;
			while ((p = strstr(p, base)) && !seen) {
				seen = (p == bases || p[-1] == ' ') && (p[l] == ',' || !p[l]);
				p += l;
			}
			if (!seen && strlen(bases) + l + 3 < sizeof bases)
				snprintf(bases + strlen(bases), sizeof bases - strlen(bases),
				         "%s%s", *bases ? ", " : "", base);
		}
	if (!n)
		return 0;
	if (asprintf(&note, "%zu stat%s of %s hidden as LKP hides them (--more shows them)", n,
	             n == 1 ? "" : "s", bases) < 0)
		return -ENOMEM;
	return add_note(out, note);
}

/* The iterations a side's runs kept apart: warm-ups, or (monitored) monitored iterations. */
static size_t kept_apart(const struct bb_side *side, int monitored)
{
	size_t n = 0;
	for (size_t i = 0; i < side->nruns; i++)
		n += monitored ? side->runs[i]->monitored : side->runs[i]->warmups;
	return n;
}

/* Notes on the iterations kept apart by the init (docs/compare.md): warm-ups are never
 * compared; monitored iterations give the monitors' stats only. */
static int note_apart(struct bb_comparison *out, const struct bb_side *const sides[2])
{
	char *note;
	size_t w[2] = {kept_apart(sides[0], 0), kept_apart(sides[1], 0)};
	size_t m[2] = {kept_apart(sides[0], 1), kept_apart(sides[1], 1)};
	if ((w[0] || w[1]) &&
	    (asprintf(&note, "warm-up iterations kept apart, not compared: %zu in A, %zu in B",
	              w[0], w[1]) < 0 ||
	     add_note(out, note)))
		return -ENOMEM;
	if ((m[0] || m[1]) &&
	    (asprintf(
	         &note,
	         "the monitors' stats come from the monitored iterations kept apart (%zu in A, "
	         "%zu in B), the test's from the measured iterations, which ran without "
	         "monitors",
	         m[0], m[1]) < 0 ||
	     add_note(out, note)))
		return -ENOMEM;
	return 0;
}

/* A note on a boot whose kernel reported lockups or stalls (run.json): its numbers may show
 * them, and the stall may be the host's (a vCPU not run) as well as the kernel's. */
static int note_stalls(struct bb_comparison *out, const struct bb_res_boot *b)
{
	char *n;
	if (!b->kernel_stalls)
		return 0;
	if (asprintf(&n,
	             "boot %s: the kernel reported %d lockup or stall report%s during the boot, "
	             "the first: %s",
	             b->path, b->kernel_stalls, b->kernel_stalls == 1 ? "" : "s",
	             b->kernel_stall) < 0)
		return -ENOMEM;
	return add_note_once(out, n);
}

/* A note on a boot of a side without a run: how it ended (run.json). */
static int note_bare(struct bb_comparison *out, const char *side, const struct bb_res_boot *b)
{
	char *n, how[4400], *labels = bb_kvs_format_words(&b->labels);
	bb_boot_end_text(b, how, sizeof(how));
	int r = asprintf(&n, "%s: a boot has no run results (%s%s%s): %s", side, b->path,
	                 labels && *labels ? ", " : "", labels ? labels : "", how);
	free(labels);
	return r < 0 ? -ENOMEM : add_note(out, n);
}

/* Notes on boots that did not finish, left no results or whose kernel reported stalls, and on
 * iterations that failed (and the iterations kept apart). */
static int notes_incomplete(struct bb_comparison *out, const struct bb_side *const sides[2])
{
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sides[s]->nbare; i++)
			if (note_bare(out, s ? "B" : "A", sides[s]->bare[i]) ||
			    note_stalls(out, sides[s]->bare[i]))
				return -ENOMEM;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sides[s]->nruns; i++) {
			const struct bb_res_run *run = sides[s]->runs[i];
			char *n;
			int seen = 0;
			for (size_t j = 0; j < i; j++)
				seen |= sides[s]->runs[j]->boot == run->boot;
			if (!seen && note_stalls(out, run->boot))
				return -ENOMEM;
			if (!seen && !run->boot->done &&
			    (asprintf(&n, "boot %s did not finish (no done file)",
			              run->boot->path) < 0 ||
			     add_note_once(out, n)))
				return -ENOMEM;
			if (run->failed_iterations &&
			    (asprintf(&n, "%s: boot %s run %s: %zu of %zu iterations failed",
			              s ? "B" : "A", run->boot->name, run->id,
			              run->failed_iterations, run->iterations) < 0 ||
			     add_note(out, n)))
				return -ENOMEM;
		}
	return note_apart(out, sides);
}

/* What should be there and is not (bb_comparison.missing): runs with ok iterations and no
 * stat of the test, boots without env.json. */
static int find_missing(struct bb_comparison *out, const struct bb_side *const sides[2])
{
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sides[s]->nruns; i++) {
			const struct bb_res_run *run = sides[s]->runs[i];
			char *n = NULL;
			int seen = 0;
			for (size_t j = 0; j < i; j++)
				seen |= sides[s]->runs[j]->boot == run->boot;
			if (!seen && run->boot->env_missing &&
			    (asprintf(
			         &n,
			         "%s: %s/env.json: missing or empty: the environment this boot "
			         "ran in is unknown, so no difference in it can be ruled out",
			         s ? "B" : "A", run->boot->path) < 0 ||
			     add_line(&out->missing, &out->nmissing, &out->missing_cap, n)))
				return -ENOMEM;
			size_t ok = run->iterations - run->failed_iterations;
			if (run->iterations > run->failed_iterations && !run->test_values &&
			    (asprintf(&n,
			              "%s: %s/runs/%s: no stat of the test, though %zu iteration%s "
			              "ended ok (results.json empty, missing or without the test's "
			              "stats)",
			              s ? "B" : "A", run->boot->path, run->id, ok,
			              ok == 1 ? "" : "s") < 0 ||
			     add_line(&out->missing, &out->nmissing, &out->missing_cap, n)))
				return -ENOMEM;
		}
	return 0;
}

int bb_compare(const struct bb_side *a, const struct bb_side *b, const char *const *axis,
               size_t naxis, struct bb_comparison *out, char *err, size_t errlen)
{
	return bb_compare_more(a, b, axis, naxis, 0, out, err, errlen);
}

int bb_compare_more(const struct bb_side *a, const struct bb_side *b, const char *const *axis,
                    size_t naxis, int more, struct bb_comparison *out, char *err, size_t errlen)
{
	const struct bb_side *const sides[2] = {a, b};
	char **keys[2] = {NULL, NULL};
	int *used[2] = {NULL, NULL};
	int r = -EINVAL;
	memset(out, 0, sizeof(*out));
	out->confidence = 0.95;
	out->more = more;
	if (!(out->label_a = strdup(a->label)) || !(out->label_b = strdup(b->label)))
		goto out_oom;
	out->boots_a = count_boots(a->runs, a->nruns, &out->stalled_boots_a);
	out->boots_b = count_boots(b->runs, b->nruns, &out->stalled_boots_b);
	out->bare_boots_a = a->nbare;
	out->bare_boots_b = b->nbare;
	if (!a->nruns || !b->nruns) {
		const struct bb_side *e = !a->nruns ? a : b;
		char how[4400];
		if (e->nbare) {
			bb_boot_end_text(e->bare[0], how, sizeof(how));
			snprintf(
			    err, errlen,
			    "%s has no run to compare: its %zu boot%s left no run results, the "
			    "first: %s",
			    e->label, e->nbare, e->nbare == 1 ? "" : "s", how);
		} else
			snprintf(err, errlen, "%s has no run to compare", e->label);
		goto out;
	}
	for (int s = 0; s < 2; s++) {
		keys[s] = calloc(sides[s]->nruns, sizeof(char *));
		used[s] = calloc(sides[s]->nruns, sizeof(int));
		if (!keys[s] || !used[s])
			goto out_oom;
		for (size_t i = 0; i < sides[s]->nruns; i++)
			if (!(keys[s][i] =
			          bb_match_key(sides[s]->runs[i], axis, naxis, sides, NULL)))
				goto out_oom;
	}
	if (boots_env_diff(out, a, b) || group_runs(out, sides, keys, used, axis, naxis, more))
		goto out_oom;
	if (!out->nruns) {
		char *diff = bb_param_differences(a, b);
		snprintf(err, errlen,
		         "no run of %s has the same parameters as a run of %s; they differ in %s. "
		         "If that is what is being compared, say so with --axis KEY (or select the "
		         "sides with --by KEY, --a KEY=VALUE --b KEY=VALUE)",
		         a->label, b->label, diff && *diff ? diff : "parameters");
		free(diff);
		goto out;
	}
	if (notes_incomplete(out, sides) || note_hidden(out) || find_missing(out, sides) ||
	    bb_fail_stats(sides, &out->fails, &out->nfails, &out->nfails_changed))
		goto out_oom;
	r = 0;
	goto out;
out_oom:
	r = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
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
	bb_env_diffs_free(c->env, c->nenv);
	for (size_t i = 0; i < c->nruns; i++) {
		struct bb_run_cmp *rc = &c->runs[i];
		bb_kvs_free(&rc->params);
		free(rc->axis_a);
		free(rc->axis_b);
		bb_env_diffs_free(rc->env, rc->nenv);
		for (size_t k = 0; k < rc->nstats; k++) {
			free(rc->stats[k].name);
			free(rc->stats[k].a);
			free(rc->stats[k].b);
			free(rc->stats[k].boot_a);
			free(rc->stats[k].boot_b);
		}
		free(rc->stats);
		free(rc->a_first);
	}
	free(c->runs);
	for (size_t i = 0; i < c->nfails; i++) {
		free(c->fails[i].name);
		free(c->fails[i].first);
	}
	free(c->fails);
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	for (size_t i = 0; i < c->nmissing; i++)
		free(c->missing[i]);
	free(c->missing);
	memset(c, 0, sizeof(*c));
}
