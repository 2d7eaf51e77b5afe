/*
 * The trend plot of a report (docs/verbs/report.md): a stat across kernels as inline SVG,
 * kernels on the x axis in trend's order, each boot a point (class "boot"), each kernel's mean
 * joined by a line, each change point a dashed line between the two kernels around it (class
 * "changepoint", data-before and data-after naming them) with its %change. Host only.
 */
#ifndef BENCHBOOT_HOST_REPORT_PLOT_H
#define BENCHBOOT_HOST_REPORT_PLOT_H

#include <stdio.h>

#include "host/store/trend.h"

/* A value axis: from lo to hi, a tick every step (lo and hi multiples of step). */
struct bb_plot_axis {
	double lo, hi, step;
};

/*
 * The axis for values from min to max with about n ticks: step 1, 2 or 5 times a power of ten,
 * lo and hi the multiples of step around min and max. A flat range (min == max) is widened by
 * 5% of the value each way (by 1 at 0); a range that is not finite becomes 0 .. 1.
 */
void bb_plot_axis_nice(double min, double max, int n, struct bb_plot_axis *ax);
/* Where v falls between pixel p0 (at lo) and p1 (at hi). */
double bb_plot_px(const struct bb_plot_axis *ax, double v, double p0, double p1);

/* The trend plot of s. 0, or -EIO when it could not be written. */
int bb_plot_trend_svg(FILE *f, const struct bb_trend_series *s);

#endif
