/* A comparison as HTML; see cmp_html.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare/flamegraph.h"
#include "host/compare/render.h"
#include "host/errbuf.h"
#include "host/report/cmp_html.h"
#include "host/report/html.h"

static void heading(FILE *f, int hl, const char *text)
{
	fprintf(f, "<h%d>", hl);
	bb_html_escape(f, text);
	fprintf(f, "</h%d>\n", hl);
}

static void cell(FILE *f, const char *cls, const char *text)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	bb_html_escape(f, text);
	fputs("</td>", f);
}

static void sides(FILE *f, const struct bb_comparison *c)
{
	const char *names[2] = {c->label_a, c->label_b};
	size_t boots[2] = {c->boots_a, c->boots_b}, bare[2] = {c->bare_boots_a, c->bare_boots_b};
	fputs("<ul class=\"sides\">\n", f);
	for (int s = 0; s < 2; s++) {
		bb_html_tag_text(f, "<li><b>", s ? "B" : "A", "", "</b>: ");
		bb_html_escape(f, names[s]);
		fprintf(f, " (%zu boot%s", boots[s], boots[s] == 1 ? "" : "s");
		if (bare[s])
			fprintf(f, "; %zu more without run results", bare[s]);
		fputs(")</li>\n", f);
	}
	fputs("</ul>\n", f);
}

/* The environment fields that differ: a row each, a list field as what only each side has. */
static void env_table(FILE *f, const struct bb_env_diff *d, size_t n)
{
	fputs("<table class=\"env\">\n<tr><th>field</th><th>A</th><th>B</th></tr>\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr>", f);
		cell(f, NULL, d[i].key);
		if (d[i].is_set) {
			fputs("<td>only in A: ", f);
			bb_html_escape(f, *d[i].a ? d[i].a : "-");
			fputs("</td><td>only in B: ", f);
			bb_html_escape(f, *d[i].b ? d[i].b : "-");
			fputs("</td>", f);
		} else {
			cell(f, NULL, d[i].a);
			cell(f, NULL, d[i].b);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void fail_table(FILE *f, const struct bb_comparison *c)
{
	fputs("<table class=\"fails\">\n<tr><th>A fail:runs</th><th>%reproduction</th>"
	      "<th>B fail:runs</th><th>kernel report</th></tr>\n",
	      f);
	for (size_t i = 0; i < c->nfails; i++) {
		const struct bb_fail_stat *fs = &c->fails[i];
		fprintf(f,
		        "<tr%s><td class=\"n\">%zu:%zu</td><td class=\"n\">%.0f%%</td>"
		        "<td class=\"n\">%zu:%zu</td>",
		        fs->lkp_changed ? " class=\"mark\"" : "", fs->fails_a, fs->runs_a,
		        fs->reproduction, fs->fails_b, fs->runs_b);
		cell(f, NULL, fs->name);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* One matched run's 0-day table: the stats shown (the changes, or all). */
static void run_table(FILE *f, const struct bb_run_cmp *rc, int all, int hl)
{
	char *d = bb_kvs_format_words(&rc->params);
	char title[4096];
	snprintf(title, sizeof title, "run %s", d && *d ? d : "(no parameters)");
	free(d);
	heading(f, hl, title);
	fprintf(f, "<p class=\"note\">A: %zu run%s in %zu boot%s; B: %zu run%s in %zu boot%s; ",
	        rc->runs_a, rc->runs_a == 1 ? "" : "s", rc->boots_a, rc->boots_a == 1 ? "" : "s",
	        rc->runs_b, rc->runs_b == 1 ? "" : "s", rc->boots_b, rc->boots_b == 1 ? "" : "s");
	fputs(rc->boots_a >= 2 && rc->boots_b >= 2
	          ? "intervals [ ]: the boot is the unit"
	          : "boot-to-boot variance unknown: intervals ( ) cover the iterations of one "
	            "boot only, no I mark",
	      f);
	fputs("</p>\n", f);
	if (rc->nenv)
		env_table(f, rc->env, rc->nenv);
	size_t shown = 0;
	for (size_t k = 0; k < rc->nstats; k++)
		shown += !rc->stats[k].hidden && (all || rc->stats[k].significant);
	if (!shown) {
		fprintf(f, "<p>no significant change in %zu stat%s</p>\n", rc->nstats - rc->nhidden,
		        rc->nstats - rc->nhidden == 1 ? "" : "s");
		return;
	}
	fputs("<table class=\"zeroday\">\n<tr><th>A mean</th><th>%stddev</th><th>%change</th>"
	      "<th>B mean</th><th>%stddev</th><th>95% interval</th><th>marks</th><th>stat</th>"
	      "</tr>\n",
	      f);
	for (size_t k = 0; k < rc->nstats; k++) {
		const struct bb_stat_cmp *s = &rc->stats[k];
		char ma[32] = "-", mb[32] = "-", ra[32], rb[32], ch[32], iv[64], marks[4] = "";
		if (s->hidden || !(all || s->significant))
			continue;
		if (s->na)
			bb_fmt_num(s->sa.mean, ma, sizeof ma);
		if (s->nb)
			bb_fmt_num(s->sb.mean, mb, sizeof mb);
		snprintf(marks, sizeof marks, "%s%s", s->interval ? "I" : "", s->lkp ? "L" : "");
		fputs("<tr>", f);
		cell(f, "n", ma);
		cell(f, "n", bb_fmt_rsd(&s->sa, ra, sizeof ra));
		cell(f, "n", bb_fmt_change(s, ch, sizeof ch));
		cell(f, "n", mb);
		cell(f, "n", bb_fmt_rsd(&s->sb, rb, sizeof rb));
		cell(f, "n", bb_fmt_interval(s, iv, sizeof iv));
		cell(f, "mark", marks);
		cell(f, NULL, s->name);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void list(FILE *f, const char *title, char *const *items, size_t n)
{
	if (!n)
		return;
	bb_html_tag_text(f, "<p>", "", title, "</p>\n<ul class=\"note\">\n");
	for (size_t i = 0; i < n; i++)
		bb_html_tag_text(f, "<li>", "", items[i], "</li>\n");
	fputs("</ul>\n", f);
}

/* The flame graph when both sides have call stacks; a refusal (different events) said. */
static void flame(FILE *f, const struct bb_side *a, const struct bb_side *b, int hl)
{
	char err[2048], *svg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&svg, &len);
	int r = m ? bb_flamegraph_embed(m, a, b, err, sizeof err) : -ENOMEM;
	if (m && fclose(m) && !r)
		r = -ENOMEM;
	if (r != -ENODATA)
		fprintf(f, "<h%d>where the CPU time moved (perf-profile)</h%d>\n", hl, hl);
	if (!r)
		fwrite(svg, 1, len, f);
	else if (r == -ENOMEM)
		fputs("<p class=\"note\">no flame graph: out of memory</p>\n", f);
	else if (r != -ENODATA)
		bb_html_tag_text(f, "<p class=\"note\">no flame graph: ", "", err, "</p>\n");
	free(svg);
}

int bb_comparison_html(FILE *f, const struct bb_comparison *c, const struct bb_side *a,
                       const struct bb_side *b, int all, int hl)
{
	sides(f, c);
	heading(f, hl, "environment differences");
	if (c->nenv)
		env_table(f, c->env, c->nenv);
	else
		fputs("<p>no difference</p>\n", f);
	if (c->nfails) {
		heading(f, hl, "kernel reports (LKP's dmesg failure stats)");
		fail_table(f, c);
	}
	for (size_t i = 0; i < c->nruns; i++)
		run_table(f, &c->runs[i], all, hl);
	fprintf(f,
	        "<p class=\"note\">%zu significant change%s. I: the %g%% interval of the "
	        "%%change, with the boot as the unit, excludes 0; L: LKP's rule "
	        "(docs/compare.md).</p>\n",
	        c->nsignificant, c->nsignificant == 1 ? "" : "s", 100 * c->confidence);
	list(f, "notes:", c->notes, c->nnotes);
	list(f, "missing (no data is not \"no change\"):", c->missing, c->nmissing);
	flame(f, a, b, hl);
	return ferror(f) ? -EIO : 0;
}

int bb_compare_page(const char *path, const struct bb_comparison *c, const struct bb_side *a,
                    const struct bb_side *b, int all, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return bb_errbuf_fail(err, errlen, -errno, "unable to write %s: %s", path,
		                      strerror(errno));
	char title[8192];
	snprintf(title, sizeof title, "benchboot compare: %s | %s", c->label_a, c->label_b);
	bb_html_begin(f, title);
	bb_html_tag_text(f, "<h1>", "", title, "</h1>\n");
	int r = bb_comparison_html(f, c, a, b, all, 2);
	if (!r)
		r = bb_html_end(f);
	if (fclose(f) && !r)
		r = -errno;
	return r ? bb_errbuf_fail(err, errlen, r, "unable to write %s: %s", path, strerror(-r)) : 0;
}
