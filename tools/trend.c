/*
 * usage: benchboot trend JOB [--run RUNID] [--stat NAME] [--db SPEC] [--json] ...
 *
 * A stat across the kernels of the store, with its change points (docs/history.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare/primary.h"
#include "host/fileio.h"
#include "host/compare/statistics.h"
#include "host/json.h"
#include "host/store/changepoint.h"
#include "host/store/store.h"
#include "strv.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot trend JOB [--run RUNID] [--stat NAME] [--db SPEC] [--max-p P]\n"
    "                      [--min-kernels N] [--json]\n"
    "\n"
    "The series of a stat of the job JOB (its name, as `store list` shows it) across the\n"
    "kernels of the store, in the order the kernels' first boots came, and its change points:\n"
    "E-divisive means (Matteson and James 2014, as Hunter/Otava use it) with Welch's t-test\n"
    "between the two sides, the boot as the unit (a kernel's boots stay together; a change\n"
    "lies between two kernels). Per change point: the kernels it lies between, the %change of\n"
    "the segments' boot means with compare's 95% interval, and the bisection to run over that\n"
    "range. A sparkline per stat (the kernels' means).\n"
    "\n"
    "options:\n"
    "  --run RUNID       one run of the job (default every run)\n"
    "  --stat NAME       the stat (default each run's primary stat, as compare chooses it;\n"
    "                    'all': every stat of the run)\n"
    "  --db SPEC         the store (docs/verbs/store.md)\n"
    "  --max-p P         a change point's largest p (default 0.0001)\n"
    "  --min-kernels N   kernels on each side of a change point, at least (default 2)\n"
    "  --order FILE      the kernels in this order, one name a line as trend shows them\n"
    "                    (oldest first; '#' comments); kernels it does not name are left out\n"
    "  --json            JSON on stdout instead of the text\n"
    "\n"
    "exit: 0 no change point, 1 change points found, 100 wrong usage or no such job in the\n"
    "store, 111 system failure.\n";

enum { OPT_RUN = 256, OPT_STAT, OPT_DB, OPT_MAXP, OPT_MINK, OPT_JSON, OPT_ORDER };
static const struct option options[] = {
    {"run", required_argument, NULL, OPT_RUN},
    {"stat", required_argument, NULL, OPT_STAT},
    {"db", required_argument, NULL, OPT_DB},
    {"max-p", required_argument, NULL, OPT_MAXP},
    {"min-kernels", required_argument, NULL, OPT_MINK},
    {"json", no_argument, NULL, OPT_JSON},
    {"order", required_argument, NULL, OPT_ORDER},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"trend", usage_text, ":h", options};

struct trend_opts {
	const char *job, *stat;
	const struct bb_strv *order; /* --order: the kernels, oldest first; NULL: as they came */
	double max_p;
	size_t min_kernels;
	struct jout *json;
};

/* The points of the kernels order names, in its order (each kernel's boots in theirs); the
 * others freed. */
static void order_points(struct bb_store_point *p, size_t *n, const struct bb_strv *order)
{
	struct bb_store_point *tmp = malloc(*n * sizeof *tmp);
	size_t m = 0;
	if (!tmp)
		return;
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

/* One run's stat: its series, change points and what they mean. 1 when it has change
 * points, 0 none, -errno. */
static int trend_one(struct bb_store *st, const struct trend_opts *o, const char *run,
                     const char *stat)
{
	struct bb_store_point *p;
	size_t n;
	char err[4096];
	int rc = bb_store_series(st, o->job, run, stat, &p, &n, err, sizeof err);
	if (rc) {
		fprintf(stderr, "benchboot trend: %s\n", err);
		return rc;
	}
	if (o->order)
		order_points(p, &n, o->order);
	size_t *group = calloc(n + 1, sizeof *group), *first = calloc(n + 2, sizeof *first);
	double *v = calloc(n + 1, sizeof *v), *means = calloc(n + 1, sizeof *means);
	size_t *ids = calloc(n + 1, sizeof *ids);
	struct bb_changepoint cps[32];
	size_t ncps = 0;
	if (!group || !first || !v || !means || !ids)
		rc = -ENOMEM;
	size_t nk = rc ? 0 : kernels_of(p, n, group, first);
	for (size_t i = 0; !rc && i < n; i++) {
		v[i] = p[i].value;
		ids[i] = i;
	}
	for (size_t k = 0; !rc && k < nk; k++) {
		struct bb_sample s;
		bb_sample_compute(v + first[k], first[k + 1] - first[k], &s);
		means[k] = s.mean;
	}
	if (!rc)
		rc = bb_changepoints(v, group, n, o->min_kernels, o->max_p, cps, 32, &ncps);
	if (!o->json) {
		printf("\nrun %s, %s: %zu kernel%s, %zu boot%s\n", run, stat, nk,
		       nk == 1 ? "" : "s", n, n == 1 ? "" : "s");
		if (nk)
			sparkline(means, nk);
	} else {
		bb_jout_obj_begin(o->json);
		bb_jout_kv_str(o->json, "run", run);
		bb_jout_kv_str(o->json, "stat", stat);
		bb_jout_key(o->json, "kernels");
		bb_jout_arr_begin(o->json);
		for (size_t k = 0; k < nk; k++) {
			bb_jout_obj_begin(o->json);
			bb_jout_kv_str(o->json, "kernel", p[first[k]].kernel);
			bb_jout_kv_int(o->json, "boots", first[k + 1] - first[k]);
			bb_jout_kv_num(o->json, "mean", means[k]);
			bb_jout_obj_end(o->json);
		}
		bb_jout_arr_end(o->json);
		bb_jout_key(o->json, "change_points");
		bb_jout_arr_begin(o->json);
	}
	/* each change point against the segments around it */
	for (size_t c = 0; !rc && c < ncps; c++) {
		size_t at = cps[c].at, a = c ? cps[c - 1].at : 0,
		       b = c + 1 < ncps ? cps[c + 1].at : n;
		struct bb_interval iv;
		if ((rc = bb_change_interval(v + a, ids + a, at - a, v + at, ids + at, b - at, NULL,
		                             0.95, &iv)))
			break;
		const char *before = p[at - 1].kernel, *after = p[at].kernel;
		if (o->json) {
			bb_jout_obj_begin(o->json);
			bb_jout_kv_str(o->json, "before", before);
			bb_jout_kv_str(o->json, "after", after);
			bb_jout_kv_int(o->json, "kernel_index", group[at]);
			bb_jout_kv_num(o->json, "change_percent", iv.change);
			bb_jout_kv_num(o->json, "low_percent", iv.lo);
			bb_jout_kv_num(o->json, "high_percent", iv.hi);
			bb_jout_kv_num(o->json, "p", cps[c].p);
			bb_jout_obj_end(o->json);
			continue;
		}
		printf(
		    "  change between %s and %s (kernel %zu of %zu): %+.1f%% [%.1f, %.1f] (p %.2g; "
		    "%zu boots before, %zu after)\n",
		    before, after, group[at] + 1, nk, iv.change, iv.lo, iv.hi, cps[c].p, at - a,
		    b - at);
		printf(
		    "    bisect it: benchboot bisect JOBFILE --kernels FILE --stat %s  (FILE: %s "
		    "first, the kernels built between them, %s last)\n",
		    stat, before, after);
	}
	if (o->json) {
		bb_jout_arr_end(o->json);
		bb_jout_obj_end(o->json);
	} else if (!rc && !ncps)
		printf("  no change point (max p %g, at least %zu kernel%s a side)\n", o->max_p,
		       o->min_kernels, o->min_kernels == 1 ? "" : "s");
	free(group);
	free(first);
	free(v);
	free(means);
	free(ids);
	bb_store_points_free(p, n);
	if (rc == -ENOMEM)
		fprintf(stderr, "benchboot trend: out of memory\n");
	return rc ? rc : ncps > 0;
}

/* The stats of one run to follow: --stat, all of them, or the primary one. */
static int run_stats(struct bb_store *st, const struct trend_opts *o, const char *run,
                     struct bb_strv *out, char *err, size_t errlen)
{
	if (o->stat && strcmp(o->stat, "all"))
		return bb_strv_add(out, o->stat) ? -ENOMEM : 0;
	struct bb_strv all = {0};
	int rc = bb_store_stats(st, o->job, run, &all, err, errlen), best = -1;
	const char *primary = NULL;
	for (size_t i = 0; !rc && i < all.n; i++) {
		int rank = bb_primary_rank(all.v[i]);
		if (o->stat)
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

/* --order FILE: a kernel name a line, '#' comments and blank lines skipped. 0, or the exit
 * status (said). */
static int read_order(const char *file, struct bb_strv *order)
{
	unsigned char *text;
	size_t len;
	int rc = bb_fileio_read_all(file, &text, &len);
	if (rc) {
		fprintf(stderr, "benchboot trend: --order %s: %s\n", file, strerror(-rc));
		return verb_exit_status(rc);
	}
	for (char *line = strtok((char *)text, "\n"); line && !rc; line = strtok(NULL, "\n")) {
		line += strspn(line, " \t");
		size_t l = strcspn(line, "#");
		while (l && (line[l - 1] == ' ' || line[l - 1] == '\t' || line[l - 1] == '\r'))
			l--;
		if (l && bb_strv_addn(order, line, l))
			rc = EXIT_SYSTEM;
	}
	free(text);
	if (!rc && !order->n)
		return verb_usage_error(cmd.name, "--order %s names no kernel", file);
	return rc;
}

static int trend_main(int argc, char **argv)
{
	struct trend_opts o = {.max_p = 0.0001, .min_kernels = 2};
	const char *db = NULL, *run = NULL, *order_file = NULL;
	struct bb_strv order = {0};
	int opt, json = 0;
	char *end;
	while ((opt = verb_getopt(&cmd, argc, argv)) != -1) {
		switch (opt) {
		case VERB_HELP:
			return EXIT_OK;
		case VERB_BAD:
			return EXIT_USAGE;
		case OPT_RUN:
			run = optarg;
			break;
		case OPT_STAT:
			o.stat = optarg;
			break;
		case OPT_DB:
			db = optarg;
			break;
		case OPT_MAXP:
			o.max_p = strtod(optarg, &end);
			if (*end || !(o.max_p > 0 && o.max_p < 1))
				return verb_usage_error(
				    cmd.name, "--max-p '%s': a number between 0 and 1", optarg);
			break;
		case OPT_MINK:
			o.min_kernels = strtoul(optarg, &end, 10);
			if (*end || o.min_kernels < 1 || o.min_kernels > 1000)
				return verb_usage_error(cmd.name, "--min-kernels '%s': 1 to 1000",
				                        optarg);
			break;
		case OPT_JSON:
			json = 1;
			break;
		case OPT_ORDER:
			order_file = optarg;
			break;
		}
	}
	if (optind + 1 != argc)
		return optind == argc
		           ? verb_usage_error(cmd.name, "which JOB? (`store list` names them)")
		           : verb_usage_error(cmd.name, "unexpected argument '%s'",
		                              argv[optind + 1]);
	o.job = argv[optind];
	if (order_file) {
		int orc = read_order(order_file, &order);
		if (orc)
			return orc;
		o.order = &order;
	}
	struct bb_store *st;
	struct bb_strv runs = {0};
	char err[4096] = "";
	int rc = bb_store_open(db, &st, err, sizeof err);
	if (rc) {
		fprintf(stderr, "benchboot trend: %s\n", err);
		return verb_exit_status(rc);
	}
	if (run)
		rc = bb_strv_add(&runs, run) ? -ENOMEM : 0;
	else
		rc = bb_store_runs(st, o.job, &runs, err, sizeof err);
	if (!rc && !runs.n) {
		fprintf(stderr,
		        "benchboot trend: the store %s has no boot of the job '%s' (`benchboot "
		        "store list` names its jobs)\n",
		        bb_store_file(st), o.job);
		bb_store_close(st);
		return EXIT_USAGE;
	}
	struct jout w;
	if (json) {
		bb_jout_init(&w, stdout);
		o.json = &w;
		bb_jout_obj_begin(&w);
		bb_jout_kv_str(&w, "job", o.job);
		bb_jout_kv_num(&w, "max_p", o.max_p);
		bb_jout_kv_int(&w, "min_kernels", o.min_kernels);
		bb_jout_key(&w, "series");
		bb_jout_arr_begin(&w);
	} else
		printf("job %s in %s\n", o.job, bb_store_file(st));
	int found = 0;
	for (size_t i = 0; !rc && i < runs.n; i++) {
		struct bb_strv stats = {0};
		rc = run_stats(st, &o, runs.v[i], &stats, err, sizeof err);
		for (size_t k = 0; !rc && k < stats.n; k++) {
			int r = trend_one(st, &o, runs.v[i], stats.v[k]);
			if (r < 0)
				rc = r;
			found |= r > 0;
		}
		if (!rc && !stats.n && !json)
			printf("\nrun %s: no primary stat (--stat NAME or --stat all)\n",
			       runs.v[i]);
		bb_strv_free(&stats);
	}
	if (json) {
		bb_jout_arr_end(&w);
		bb_jout_obj_end(&w);
		fputc('\n', stdout);
	}
	bb_strv_free(&runs);
	bb_strv_free(&order);
	bb_store_close(st);
	if (rc) {
		if (*err)
			fprintf(stderr, "benchboot trend: %s\n", err);
		return verb_exit_status(rc);
	}
	return found ? EXIT_CHANGED : EXIT_OK;
}

BENCHBOOT_VERB(trend, "a stat across the kernels of the store, with its change points", trend_main);
