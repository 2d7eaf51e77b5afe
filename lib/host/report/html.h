/*
 * The HTML pages benchboot writes (`benchboot report`, `compare --html`): one self-contained
 * file each, no network, no outside script, style or font; the plots are inline SVG drawn by
 * benchboot (plot.h, the flame graph of host/compare/flamegraph.h). Every string that comes
 * from results (job, kernel, stat names, environment values) goes through bb_html_escape.
 * Host only.
 */
#ifndef BENCHBOOT_HOST_REPORT_HTML_H
#define BENCHBOOT_HOST_REPORT_HTML_H

#include <stdio.h>

/* s as HTML text or an attribute's value: & < > " ' as entities; other control bytes as
 * U+FFFD (a NUL-free page whatever the results hold). */
void bb_html_escape(FILE *f, const char *s);
/* printf, then bb_html_escape of s: "<h2>" "run " s. */
void bb_html_tag_text(FILE *f, const char *open, const char *prefix, const char *s,
                      const char *close);

/* The page up to <body>: doctype, charset, title (escaped), the style. */
void bb_html_begin(FILE *f, const char *title);
/* The end of the page. 0, or -EIO when something could not be written. */
int bb_html_end(FILE *f);

#endif
