/*
 * A comparison as a part of an HTML page (html.h): the two sides, the environment differences,
 * the kernel's reports as LKP's failure stats, a 0-day table per matched run, the notes, and the
 * differential flame graph where both sides have perf-profile call stacks. `compare A B --html`
 * writes it as a page of its own (bb_compare_page), `benchboot report` at each change point.
 * Host only.
 */
#ifndef BENCHBOOT_HOST_REPORT_CMP_HTML_H
#define BENCHBOOT_HOST_REPORT_CMP_HTML_H

#include <stdio.h>

#include "host/compare/compare.h"

/* The comparison c of the sides a and b; all: every stat, not only the changes. Headings at
 * level hl (2: <h2>). 0, or -EIO. */
int bb_comparison_html(FILE *f, const struct bb_comparison *c, const struct bb_side *a,
                       const struct bb_side *b, int all, int hl);
/* The page of one comparison (compare --html) written to path. 0, or -errno with err. */
int bb_compare_page(const char *path, const struct bb_comparison *c, const struct bb_side *a,
                    const struct bb_side *b, int all, char *err, size_t errlen);

#endif
