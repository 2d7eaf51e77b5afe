/* The per-iteration values of a comparison as SVG; see render.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "host/compare/render.h"
#include "host/markup.h"

int bb_comparison_svg(FILE *f, const struct bb_comparison *c, int all)
{
	const int W = 720, H = 220, ML = 90, MR = 20, MT = 40, MB = 30;
	size_t panels = 0;
	for (size_t i = 0; i < c->nruns; i++)
		for (size_t k = 0; k < c->runs[i].nstats; k++)
			panels +=
			    !c->runs[i].stats[k].hidden && (all || c->runs[i].stats[k].significant);
	int total = 50 + (int)panels * H + (panels ? 0 : 30);
	fprintf(f,
	        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "font-family=\"sans-serif\" font-size=\"12\">\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	        W, total);
	fprintf(f, "<text x=\"10\" y=\"20\"><tspan fill=\"#1f77b4\">\u25cf A: ");
	bb_markup_escape(f, c->label_a, (size_t)-1, 0);
	fprintf(f, "</tspan></text>\n<text x=\"10\" y=\"38\"><tspan fill=\"#d62728\">\u25a0 B: ");
	bb_markup_escape(f, c->label_b, (size_t)-1, 0);
	fprintf(f, "</tspan></text>\n");
	if (!panels)
		fprintf(f, "<text x=\"10\" y=\"64\">no changed stat</text>\n");
	int y0 = 50;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct bb_run_cmp *rc = &c->runs[i];
		char *d = bb_kvs_format_words(&rc->params);
		for (size_t k = 0; k < rc->nstats; k++) {
			const struct bb_stat_cmp *s = &rc->stats[k];
			if (s->hidden || (!all && !s->significant))
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
			bb_markup_escape(f, s->name, (size_t)-1, 0);
			fprintf(f, " %s</text>\n<text x=\"10\" y=\"34\" font-size=\"10\">",
			        bb_fmt_change(s, ch, sizeof(ch)));
			bb_markup_escape(f, d ? d : "", (size_t)-1, 0);
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
	return ferror(f) ? -EIO : 0;
}
