/* The pieces of benchboot report's page (lib/host/report/): the escaper every string from
 * results goes through, the value axis of a trend plot, and the plot's marks. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "host/report/html.h"
#include "host/report/plot.h"

/* s as bb_html_escape writes it, malloc'ed. */
static char *escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f);
	bb_html_escape(f, s);
	fclose(f);
	return buf;
}

TEST(html_escape_hostile_names)
{
	char *e = escaped("<script>alert(\"x\")</script> & 'q'");
	CHECK_STR(e, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;");
	free(e);
	/* an entity already written is escaped again: a name is text, never markup */
	e = escaped("&amp;");
	CHECK_STR(e, "&amp;amp;");
	free(e);
	/* control bytes (not tab, newline) become U+FFFD; UTF-8 passes */
	e = escaped("a\x01"
	            "b\x7f"
	            "c\tµ");
	CHECK_STR(e, "a\xef\xbf\xbd"
	             "b\xef\xbf\xbd"
	             "c\tµ");
	free(e);
	e = escaped("");
	CHECK_STR(e, "");
	free(e);
}

TEST(plot_axis_round_ticks)
{
	struct bb_plot_axis ax;
	bb_plot_axis_nice(943.2, 1012.7, 6, &ax);
	CHECK(ax.step == 20);
	CHECK(ax.lo == 940 && ax.hi == 1020);
	bb_plot_axis_nice(0.0013, 0.0091, 4, &ax);
	CHECK(fabs(ax.step - 0.002) < 1e-12);
	CHECK(fabs(ax.lo - 0) < 1e-12 && fabs(ax.hi - 0.01) < 1e-12);
	/* a flat series: 5% each way; at 0: 1 each way; nothing finite: 0 .. 1 */
	bb_plot_axis_nice(1000, 1000, 6, &ax);
	CHECK(ax.lo <= 950 && ax.hi >= 1050 && ax.lo > 900 && ax.hi < 1100);
	bb_plot_axis_nice(0, 0, 6, &ax);
	CHECK(ax.lo <= -1 && ax.hi >= 1);
	bb_plot_axis_nice(INFINITY, -INFINITY, 6, &ax);
	CHECK(ax.lo == 0 && ax.hi == 1);
	/* the pixels: lo at p0, hi at p1 (a value axis runs upwards) */
	bb_plot_axis_nice(943.2, 1012.7, 6, &ax);
	CHECK(fabs(bb_plot_px(&ax, 940, 250, 30) - 250) < 1e-9);
	CHECK(fabs(bb_plot_px(&ax, 1020, 250, 30) - 30) < 1e-9);
	CHECK(fabs(bb_plot_px(&ax, 980, 250, 30) - 140) < 1e-9);
}

TEST(plot_marks_boots_and_change_point_escaped)
{
	/* 4 kernels of 2 boots, a step after the second; the third kernel's name hostile */
	char *names[4] = {"k1", "k2", "<k3 & \"x\">", "k4"};
	struct bb_store_point p[8];
	size_t group[8], first[5] = {0, 2, 4, 6, 8};
	double means[4] = {100, 100, 90, 90};
	for (size_t i = 0; i < 8; i++) {
		p[i] = (struct bb_store_point){.kernel = names[i / 2],
		                               .kernel_id = (long long)i / 2,
		                               .boot_id = "b",
		                               .value = i < 4 ? 100 : 90,
		                               .nvals = 3};
		group[i] = i / 2;
	}
	struct bb_trend_series s = {.run = "r",
	                            .stat = "s<1>",
	                            .p = p,
	                            .n = 8,
	                            .nk = 4,
	                            .group = group,
	                            .first = first,
	                            .means = means,
	                            .lo = 90,
	                            .hi = 100,
	                            .ncps = 1};
	s.cps[0].at = 4;
	s.cps[0].iv.change = -10;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f);
	CHECK_INT(bb_plot_trend_svg(f, &s), ==, 0);
	fclose(f);
	size_t circles = 0;
	for (const char *c = buf; (c = strstr(c, "<circle class=\"boot\"")); c++)
		circles++;
	CHECK_INT(circles, ==, 8);
	CHECK(strstr(buf, "data-stat=\"s&lt;1&gt;\""));
	CHECK(strstr(buf, "<g class=\"changepoint\" data-before=\"k2\" "
	                  "data-after=\"&lt;k3 &amp; &quot;x&quot;&gt;\">"));
	CHECK(strstr(buf, ">-10.0%</text>"));
	CHECK(!strstr(buf, "<k3"));
	free(buf);
}
