/*
 * usage: benchboot trend JOB [--run RUNID] [--stat NAME] [--db SPEC] [--json] ...
 *
 * A stat across the kernels of the store, with its change points (docs/history.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/json.h"
#include "host/store/store.h"
#include "host/store/trend.h"
#include "trend_opts.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot trend JOB [--run RUNID] [--stat NAME] [--db SPEC] [--max-p P]\n"
    "                      [--min-kernels N] [--order FILE | --tree DIR] [--json]\n"
    "\n"
    "The series of a stat of the job JOB (its name, as `store list` shows it) across the\n"
    "kernels of the store, in the order the kernels' first boots came, and its change points:\n"
    "E-divisive means (Matteson and James 2014, as Hunter/Otava use it) with Welch's t-test\n"
    "between the two sides, the boot as the unit (a kernel's boots stay together; a change\n"
    "lies between two kernels). Per change point: the kernels it lies between, the %change of\n"
    "the segments' boot means with compare's 95% interval, and the `benchboot bisect` command\n"
    "for that range, to copy and run: with --tree and both kernels' commits, a bisection of\n"
    "the tree's commits; else a kernels file of the two kernels (written by a here-document,\n"
    "the kernels built between them to add) and a bisection of it. The job file is the one\n"
    "the store records. A sparkline per stat (the kernels' means).\n"
    "\n"
    "options:\n" TREND_OPTIONS_USAGE "  --json            JSON on stdout instead of the text\n"
    "\n"
    "exit: 0 no change point, 1 change points found, 100 wrong usage or no such job in the\n"
    "store, 111 system failure.\n";

enum { OPT_JSON = 256 };
static const struct option options[] = {
    TREND_OPTIONS,
    {"json", no_argument, NULL, OPT_JSON},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"trend", usage_text, ":h", options};

/* A bar per kernel, or per bucket of kernels (their mean) past 100 kernels. */
static void sparkline(const double *means, size_t nk)
{
	static const char *const bars[] = {"\u2581", "\u2582", "\u2583", "\u2584",
	                                   "\u2585", "\u2586", "\u2587", "\u2588"};
	size_t width = nk > 100 ? 100 : nk;
	double lo = INFINITY, hi = -INFINITY, bar[100];
	for (size_t c = 0; c < width; c++) {
		size_t a = c * nk / width, b = (c + 1) * nk / width;
		bar[c] = 0;
		for (size_t k = a; k < b; k++)
			bar[c] += means[k] / (double)(b - a);
		lo = fmin(lo, bar[c]);
		hi = fmax(hi, bar[c]);
	}
	fputs("  ", stdout);
	for (size_t c = 0; c < width; c++)
		fputs(bars[hi > lo ? (int)((bar[c] - lo) / (hi - lo) * 7 + 0.5) : 3], stdout);
	if (width < nk)
		printf("  %.4g .. %.4g (a bar: the mean of %zu kernels or so)\n", lo, hi,
		       (nk + width / 2) / width);
	else
		printf("  %.4g .. %.4g\n", lo, hi);
}

struct trend_out {
	const struct bb_trend_query *q;
	struct bb_store *st;
	struct jout *json; /* --json, else NULL */
};

/* The kernels file's name for a change point: kernels-BEFORE-AFTER, in characters a shell and
 * a file system take as they are. */
static void kernels_file_name(const struct bb_trend_series *s, const struct bb_trend_change *cp,
                              char *out, size_t len)
{
	snprintf(out, len, "kernels-%s-%s", BB_TREND_BEFORE(s, cp), BB_TREND_AFTER(s, cp));
	for (char *p = out; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-",
		            *p))
			*p = '_';
}

/* The bisection of a change point (bb_trend_bisect), its kernels file named into file. 0, or
 * -errno with err. */
static int bisect_load(const struct trend_out *o, const struct bb_trend_series *s,
                       const struct bb_trend_change *cp, char file[600], struct bb_trend_bisect *b,
                       char *err, size_t errlen)
{
	kernels_file_name(s, cp, file, 600);
	return bb_trend_bisect(o->st, o->q, s, cp, file, b, err, errlen);
}

/* What bb_trend_bisect leaves to the user, said after the command. */
static void bisect_notes(const struct bb_trend_bisect *b, const char *job)
{
	if (b->job_file_missing)
		printf("(%s: the job's name; the store records no job file of it: give its file)\n",
		       job);
	if (b->vmlinuz_missing)
		printf("(VMLINUZ: the store records no vmlinuz of that kernel: give its path)\n");
}

/* The bisection to run over a change point: in --json, an object "bisect"; else a kernels
 * file written by a here-document, then the command (with --tree, the command alone), printed
 * flush left to copy as it is. */
static int print_bisect(const struct trend_out *o, const struct bb_trend_series *s,
                        const struct bb_trend_change *cp, char *err, size_t errlen)
{
	struct bb_trend_bisect b;
	char file[600];
	int rc = bisect_load(o, s, cp, file, &b, err, errlen);
	if (rc)
		return rc;
	struct jout *w = o->json;
	if (w) {
		bb_jout_key(w, "bisect");
		bb_jout_obj_begin(w);
		bb_jout_kv_str(w, "command", b.command);
		bb_jout_kv_str(w, "kernels_file", b.kernels ? file : NULL);
		bb_jout_kv_str(w, "kernels", b.kernels);
		bb_jout_kv_bool(w, "job_file_known", !b.job_file_missing);
		bb_jout_obj_end(w);
	} else {
		printf("    bisect it:\n");
		if (b.kernels)
			printf("cat >%s <<'EOF'\n%sEOF\n", file, b.kernels);
		printf("%s\n", b.command);
		bisect_notes(&b, o->q->job);
	}
	bb_trend_bisect_free(&b);
	return 0;
}

static int series_json(const struct trend_out *o, const struct bb_trend_series *s, char *err,
                       size_t errlen)
{
	struct jout *w = o->json;
	int rc = 0;
	bb_jout_obj_begin(w);
	bb_jout_kv_str(w, "run", s->run);
	bb_jout_kv_str(w, "stat", s->stat);
	bb_jout_key(w, "kernels");
	bb_jout_arr_begin(w);
	for (size_t k = 0; k < s->nk; k++) {
		bb_jout_obj_begin(w);
		bb_jout_kv_str(w, "kernel", s->p[s->first[k]].kernel);
		bb_jout_kv_int(w, "boots", s->first[k + 1] - s->first[k]);
		bb_jout_kv_num(w, "mean", s->means[k]);
		bb_jout_obj_end(w);
	}
	bb_jout_arr_end(w);
	bb_jout_key(w, "change_points");
	bb_jout_arr_begin(w);
	for (size_t c = 0; c < s->ncps; c++) {
		const struct bb_trend_change *cp = &s->cps[c];
		bb_jout_obj_begin(w);
		bb_jout_kv_str(w, "before", BB_TREND_BEFORE(s, cp));
		bb_jout_kv_str(w, "after", BB_TREND_AFTER(s, cp));
		bb_jout_kv_int(w, "kernel_index", s->group[cp->at]);
		bb_jout_kv_num(w, "change_percent", cp->iv.change);
		bb_jout_kv_num(w, "low_percent", cp->iv.lo);
		bb_jout_kv_num(w, "high_percent", cp->iv.hi);
		bb_jout_kv_num(w, "p", cp->p);
		if (!rc)
			rc = print_bisect(o, s, cp, err, errlen);
		bb_jout_obj_end(w);
	}
	bb_jout_arr_end(w);
	bb_jout_obj_end(w);
	return rc;
}

/* One run's stat: its series, change points and what they mean (bb_trend_fn). */
static int print_series(const struct bb_trend_series *s, const char *run, void *ctx, char *err,
                        size_t errlen)
{
	const struct trend_out *o = ctx;
	if (!s) {
		if (!o->json)
			printf("\nrun %s: no primary stat (--stat NAME or --stat all)\n", run);
		return 0;
	}
	if (o->json)
		return series_json(o, s, err, errlen);
	printf("\nrun %s, %s: %zu kernel%s, %zu boot%s\n", run, s->stat, s->nk,
	       s->nk == 1 ? "" : "s", s->n, s->n == 1 ? "" : "s");
	if (s->nk)
		sparkline(s->means, s->nk);
	int rc = 0;
	for (size_t c = 0; c < s->ncps && !rc; c++) {
		const struct bb_trend_change *cp = &s->cps[c];
		const char *before = BB_TREND_BEFORE(s, cp), *after = BB_TREND_AFTER(s, cp);
		printf(
		    "  change between %s and %s (kernel %zu of %zu): %+.1f%% [%.1f, %.1f] (p %.2g; "
		    "%zu boots before, %zu after)\n",
		    before, after, s->group[cp->at] + 1, s->nk, cp->iv.change, cp->iv.lo, cp->iv.hi,
		    cp->p, cp->boots_before, cp->boots_after);
		rc = print_bisect(o, s, cp, err, errlen);
	}
	if (!s->ncps)
		printf("  no change point (max p %g, at least %zu kernel%s a side)\n", o->q->max_p,
		       o->q->min_kernels, o->q->min_kernels == 1 ? "" : "s");
	return rc;
}

/* --json (trend_own_fn). */
static int own_option(int opt, const char *v, void *ctx)
{
	*(int *)ctx = 1;
	return 0;
}

static int trend_main(int argc, char **argv)
{
	struct trend_args a;
	struct bb_store *st;
	char err[4096] = "";
	int json = 0, rc = trend_args_parse(&cmd, argc, argv, &a, own_option, &json);
	if (!rc)
		rc = trend_store_open(cmd.name, &a, &st);
	if (rc) {
		trend_args_free(&a);
		return rc < 0 ? EXIT_OK : rc;
	}
	struct jout w;
	struct trend_out o = {&a.q, st, json ? &w : NULL};
	if (json) {
		bb_jout_init(&w, stdout);
		bb_jout_obj_begin(&w);
		bb_jout_kv_str(&w, "job", a.q.job);
		bb_jout_kv_num(&w, "max_p", a.q.max_p);
		bb_jout_kv_int(&w, "min_kernels", a.q.min_kernels);
		bb_jout_key(&w, "series");
		bb_jout_arr_begin(&w);
	} else
		printf("job %s in %s\n", a.q.job, bb_store_file(st));
	rc = bb_trend_walk(st, &a.q, print_series, &o, err, sizeof err);
	if (json) {
		bb_jout_arr_end(&w);
		bb_jout_obj_end(&w);
		fputc('\n', stdout);
	}
	bb_store_close(st);
	trend_args_free(&a);
	if (rc < 0) {
		fprintf(stderr, "benchboot trend: %s\n", err);
		return verb_exit_status(rc);
	}
	return rc ? EXIT_CHANGED : EXIT_OK;
}

BENCHBOOT_VERB(trend, "a stat across the kernels of the store, with its change points", trend_main);
