/* The trend plot as SVG; see plot.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "host/compare/render.h"
#include "host/report/html.h"
#include "host/report/plot.h"

void bb_plot_axis_nice(double min, double max, int n, struct bb_plot_axis *ax)
{
	if (!isfinite(min) || !isfinite(max) || min > max) {
		min = 0;
		max = 1;
	}
	if (!(max > min)) {
		double pad = min != 0 ? fabs(min) * 0.05 : 1;
		min -= pad;
		max += pad;
	}
	double raw = (max - min) / (n > 0 ? n : 1), mag = pow(10, floor(log10(raw)));
	double step = mag * (raw / mag <= 1 ? 1 : raw / mag <= 2 ? 2 : raw / mag <= 5 ? 5 : 10);
	ax->step = step;
	ax->lo = floor(min / step) * step;
	ax->hi = ceil(max / step) * step;
	if (!(ax->hi > ax->lo))
		ax->hi = ax->lo + step;
}

double bb_plot_px(const struct bb_plot_axis *ax, double v, double p0, double p1)
{
	return p0 + (p1 - p0) * (v - ax->lo) / (ax->hi - ax->lo);
}

#define H 340       /* the picture's height */
#define ML 80       /* left margin: the value axis */
#define MR 20       /* right */
#define MT 30       /* top: the change points' labels */
#define MB 90       /* bottom: the kernels' names, slanted */
#define SLOT_MAX 60 /* pixels a kernel, at most */

/* The value axis: a grid line and a label per tick. */
static void value_axis(FILE *f, const struct bb_plot_axis *ax, int w)
{
	char num[32];
	size_t ticks = (size_t)lround((ax->hi - ax->lo) / ax->step);
	for (size_t t = 0; t <= ticks && t <= 50; t++) {
		double v = ax->lo + (double)t * ax->step, y = bb_plot_px(ax, v, H - MB, MT);
		fprintf(f,
		        "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
		        "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		        ML, w - MR, y, y, ML - 5, y + 4,
		        bb_fmt_num(fabs(v) < ax->step * 1e-9 ? 0 : v, num, sizeof num));
	}
}

/* The kernels' names under their slots, slanted; every k-th when they would overlap. */
static void kernel_axis(FILE *f, const struct bb_trend_series *s, double slot)
{
	size_t every = slot >= 14 ? 1 : (size_t)ceil(14 / slot);
	for (size_t k = 0; k < s->nk; k += every) {
		double x = ML + slot * (k + 0.5);
		fprintf(f,
		        "<text class=\"kernel\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\" "
		        "transform=\"rotate(-45 %.1f %d)\">",
		        x, H - MB + 14, x, H - MB + 14);
		bb_html_escape(f, s->p[s->first[k]].kernel);
		fputs("</text>\n", f);
	}
}

/* Each boot a point, spread within its kernel's slot; its kernel, boot id and value in its
 * title. */
static void boots(FILE *f, const struct bb_trend_series *s, const struct bb_plot_axis *ax,
                  double slot)
{
	char num[32];
	for (size_t k = 0; k < s->nk; k++) {
		size_t a = s->first[k], nb = s->first[k + 1] - a;
		double gap = fmin(8, slot * 0.6 / (double)(nb + 1));
		for (size_t i = a; i < a + nb; i++) {
			double x = ML + slot * (k + 0.5) + gap * ((double)(i - a) - (nb - 1) / 2.0);
			fprintf(f, "<circle class=\"boot\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>",
			        x, bb_plot_px(ax, s->p[i].value, H - MB, MT));
			bb_html_escape(f, s->p[i].kernel);
			fputs(", boot ", f);
			bb_html_escape(f, s->p[i].boot_id);
			fprintf(f, ": %s</title></circle>\n",
			        bb_fmt_num(s->p[i].value, num, sizeof num));
		}
	}
	fputs("<polyline class=\"means\" fill=\"none\" stroke=\"#1f77b4\" points=\"", f);
	for (size_t k = 0; k < s->nk; k++)
		fprintf(f, "%s%.1f,%.1f", k ? " " : "", ML + slot * (k + 0.5),
		        bb_plot_px(ax, s->means[k], H - MB, MT));
	fputs("\"/>\n", f);
}

/* A dashed line between the kernels around each change point, its %change above. */
static void changes(FILE *f, const struct bb_trend_series *s, double slot)
{
	for (size_t c = 0; c < s->ncps; c++) {
		const struct bb_trend_change *cp = &s->cps[c];
		double x = ML + slot * (double)s->group[cp->at];
		fputs("<g class=\"changepoint\" data-before=\"", f);
		bb_html_escape(f, BB_TREND_BEFORE(s, cp));
		fputs("\" data-after=\"", f);
		bb_html_escape(f, BB_TREND_AFTER(s, cp));
		fputs("\"><title>change between ", f);
		bb_html_escape(f, BB_TREND_BEFORE(s, cp));
		fputs(" and ", f);
		bb_html_escape(f, BB_TREND_AFTER(s, cp));
		fprintf(f,
		        ": %+.1f%%</title><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
		        "stroke=\"#d62728\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>"
		        "<text x=\"%.1f\" y=\"%d\" fill=\"#d62728\" text-anchor=\"middle\">%+.1f%%"
		        "</text></g>\n",
		        cp->iv.change, x, x, MT - 6, H - MB, x, MT - 10, cp->iv.change);
	}
}

int bb_plot_trend_svg(FILE *f, const struct bb_trend_series *s)
{
	double slot = s->nk ? fmin(SLOT_MAX, 1100.0 / (double)s->nk) : SLOT_MAX;
	int w = ML + MR + (int)ceil(slot * (double)(s->nk ? s->nk : 1));
	if (w < 400)
		w = 400;
	struct bb_plot_axis ax;
	bb_plot_axis_nice(s->lo, s->hi, 6, &ax);
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"trend\" data-stat=\"", f);
	bb_html_escape(f, s->stat);
	fprintf(f,
	        "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
	        "font-size=\"11\" role=\"img\">\n<title>",
	        w, H, w, H);
	bb_html_escape(f, s->stat);
	fputs(" across kernels</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
	      f);
	value_axis(f, &ax, w);
	fprintf(f,
	        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
	        "stroke=\"#999\"/>\n",
	        ML, MT, w - ML - MR, H - MB - MT);
	kernel_axis(f, s, slot);
	boots(f, s, &ax, slot);
	changes(f, s, slot);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
