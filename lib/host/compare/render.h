/*
 * Renderers of a comparison: the 0-day style text table, JSON, and SVG of the per-iteration
 * values. Host only.
 */
#ifndef BENCHBOOT_HOST_RESULTS_RENDER_H
#define BENCHBOOT_HOST_RESULTS_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "host/compare/compare.h"

/* The 0-day style report; all: every stat, not only the changes. */
void bb_comparison_print(FILE *f, const struct bb_comparison *c, int all);
void bb_comparison_json(FILE *f, const struct bb_comparison *c, int all);
/* Per-iteration values of A and B for the changed stats (all: every stat) as SVG. */
int bb_comparison_svg(FILE *f, const struct bb_comparison *c, int all);
/* A number as the table shows it (LKP-like: 5.847e+08, 9745088, 79.79). */
const char *bb_fmt_num(double v, char *buf, size_t len);
/* The %change of a stat as the table shows it: "+1.2%", "n/a" (A's mean 0), "-" (no values). */
const char *bb_fmt_change(const struct bb_stat_cmp *s, char *buf, size_t len);
/* " ± N%" when the relative stddev is over 2%, else six blanks. */
const char *bb_fmt_rsd(const struct bb_sample *s, char *buf, size_t len);
/* The interval column: "[lo, hi]" (the boot as the unit), "(lo, hi)" (one boot's iterations),
 * "-", "[too few boots]", "[unbounded]". */
const char *bb_fmt_interval(const struct bb_stat_cmp *s, char *buf, size_t len);

#endif
