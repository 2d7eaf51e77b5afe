/* A job's trends as one HTML page; see report.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/compare/compare.h"
#include "host/errbuf.h"
#include "host/report/cmp_html.h"
#include "host/report/html.h"
#include "host/report/plot.h"
#include "host/report/report.h"
#include "host/store/store_report.h"

struct page {
	FILE *f;
	struct bb_store *st;
	const struct bb_trend_query *q;
};

/* A kernel's boots loaded from their folders. */
struct kernel_boots {
	struct bb_results *res;
	size_t nres;
	struct bb_side side;
};

static void kernel_boots_free(struct kernel_boots *kb)
{
	for (size_t i = 0; i < kb->nres; i++)
		bb_results_free(&kb->res[i]);
	free(kb->res);
	bb_side_free(&kb->side);
}

/* The boots of kernel k of s, from the folders the store records, as a side labelled with
 * the kernel's name. 0, or -errno with err. */
static int kernel_boots_load(struct bb_store *st, const struct bb_trend_series *s, size_t k,
                             struct kernel_boots *kb, char *err, size_t errlen)
{
	size_t a = s->first[k], n = s->first[k + 1] - a;
	const char **ids = calloc(n, sizeof *ids);
	char **paths = calloc(n, sizeof *paths);
	int rc = 0;
	memset(kb, 0, sizeof *kb);
	kb->res = calloc(n, sizeof *kb->res);
	kb->side.label = strdup(s->p[a].kernel);
	if (!ids || !paths || !kb->res || !kb->side.label)
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < n; i++)
		ids[i] = s->p[a + i].boot_id;
	if (!rc)
		rc = bb_store_boot_paths(st, ids, n, paths, err, errlen);
	for (size_t i = 0; !rc && i < n; i++) {
		if (!paths[i])
			rc = bb_errbuf_fail(err, errlen, -ENOENT,
			                    "boot %s is no longer in the store", ids[i]);
		else if (!(rc = bb_results_load(paths[i], &kb->res[kb->nres], err, errlen)) &&
		         (rc = bb_side_add(&kb->side, &kb->res[kb->nres++], NULL)))
			rc = bb_errbuf_fail(err, errlen, rc, "out of memory");
	}
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
	free(ids);
	return rc;
}

/* The two kernels around a change point compared, as compare compares two folders. */
static void change_comparison(struct page *pg, const struct bb_trend_series *s,
                              const struct bb_trend_change *cp)
{
	struct kernel_boots kb[2];
	struct bb_comparison cmp;
	char err[4096];
	int rc = kernel_boots_load(pg->st, s, s->group[cp->at - 1], &kb[0], err, sizeof err);
	if (!rc)
		rc = kernel_boots_load(pg->st, s, s->group[cp->at], &kb[1], err, sizeof err);
	else
		memset(&kb[1], 0, sizeof kb[1]);
	if (!rc && !(rc = bb_compare(&kb[0].side, &kb[1].side, NULL, 0, &cmp, err, sizeof err))) {
		bb_comparison_html(pg->f, &cmp, &kb[0].side, &kb[1].side, 0, 4);
		bb_comparison_free(&cmp);
	}
	if (rc)
		bb_html_tag_text(pg->f,
		                 "<p class=\"note\">no comparison of the two kernels' boots: ", "",
		                 err, "</p>\n");
	kernel_boots_free(&kb[0]);
	kernel_boots_free(&kb[1]);
}

/* The bisection to run, as trend prints it: the kernels file (without --tree), the command. */
static void bisect_command(struct page *pg, const struct bb_trend_series *s,
                           const struct bb_trend_change *cp)
{
	struct bb_trend_bisect b;
	char err[1024];
	FILE *f = pg->f;
	if (bb_trend_bisect(pg->st, pg->q, s, cp, "KERNELS", &b, err, sizeof err)) {
		bb_html_tag_text(f, "<p class=\"missing\">", "the bisect command: ", err, "</p>\n");
		return;
	}
	fputs("<p>bisect it:</p>\n", f);
	if (b.kernels)
		bb_html_tag_text(
		    f,
		    "<p>KERNELS, the kernels file (the kernels built between the two to "
		    "add):</p>\n<pre class=\"kernels\">",
		    "", b.kernels, "</pre>\n");
	bb_html_tag_text(f, "<pre class=\"bisect\">", "", b.command, "</pre>\n");
	if (b.job_file_missing)
		bb_html_tag_text(f, "<p>", "", pg->q->job,
		                 ": the job's name; the store records no job file of it: give its "
		                 "file</p>\n");
	bb_trend_bisect_free(&b);
}

static void change_section(struct page *pg, const struct bb_trend_series *s,
                           const struct bb_trend_change *cp)
{
	FILE *f = pg->f;
	const char *before = BB_TREND_BEFORE(s, cp), *after = BB_TREND_AFTER(s, cp);
	fputs("<section class=\"change\" data-before=\"", f);
	bb_html_escape(f, before);
	fputs("\" data-after=\"", f);
	bb_html_escape(f, after);
	bb_html_tag_text(f, "\">\n<h3>", "change between ", before, " and ");
	bb_html_escape(f, after);
	fprintf(f,
	        " (kernel %zu of %zu): %+.1f%% [%.1f, %.1f] (p %.2g; %zu boots before, %zu "
	        "after)</h3>\n",
	        s->group[cp->at] + 1, s->nk, cp->iv.change, cp->iv.lo, cp->iv.hi, cp->p,
	        cp->boots_before, cp->boots_after);
	bisect_command(pg, s, cp);
	change_comparison(pg, s, cp);
	fputs("</section>\n", f);
}

/* One run's stat: its plot and its change points (bb_trend_fn). */
static int series_section(const struct bb_trend_series *s, const char *run, void *ctx, char *err,
                          size_t errlen)
{
	struct page *pg = ctx;
	FILE *f = pg->f;
	bb_html_tag_text(f, "<section class=\"series\">\n<h2>", "run ", run, "");
	if (!s) {
		fputs("</h2>\n<p>no primary stat (--stat NAME or --stat all)</p>\n</section>\n", f);
		return 0;
	}
	bb_html_tag_text(f, ", ", "", s->stat, "</h2>\n");
	fprintf(f, "<p>%zu kernel%s, %zu boot%s: ", s->nk, s->nk == 1 ? "" : "s", s->n,
	        s->n == 1 ? "" : "s");
	if (s->ncps)
		fprintf(f, "%zu change point%s", s->ncps, s->ncps == 1 ? "" : "s");
	else
		fprintf(f, "no change point (max p %g, at least %zu kernel%s a side)", pg->q->max_p,
		        pg->q->min_kernels, pg->q->min_kernels == 1 ? "" : "s");
	fputs("</p>\n", f);
	if (bb_plot_trend_svg(f, s))
		return bb_errbuf_fail(err, errlen, -EIO, "unable to write the page");
	for (size_t c = 0; c < s->ncps; c++)
		change_section(pg, s, &s->cps[c]);
	fputs("</section>\n", f);
	return ferror(f) ? bb_errbuf_fail(err, errlen, -EIO, "unable to write the page") : 0;
}

int bb_report_write(const char *path, struct bb_store *st, const struct bb_trend_query *q,
                    char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return bb_errbuf_fail(err, errlen, -errno, "unable to write %s: %s", path,
		                      strerror(errno));
	struct page pg = {f, st, q};
	char title[4096];
	snprintf(title, sizeof title, "benchboot report: %s", q->job);
	bb_html_begin(f, title);
	bb_html_tag_text(f, "<h1>", "", title, "</h1>\n");
	bb_html_tag_text(f, "<p class=\"note\">the store ", "", bb_store_file(st),
	                 "; each point a boot (its mean over its measured iterations), the kernels "
	                 "in trend's order, the line their means; a dashed red line marks a change "
	                 "point (docs/history.md, \"Change points\").</p>\n");
	int rc = bb_trend_walk(st, q, series_section, &pg, err, errlen);
	int w = bb_html_end(f);
	if (fclose(f) && !w)
		w = -errno;
	if (rc < 0)
		unlink(path);
	else if (w)
		rc = bb_errbuf_fail(err, errlen, w, "unable to write %s: %s", path, strerror(-w));
	return rc;
}
