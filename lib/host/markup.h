/*
 * Text inside the markup benchboot writes (the HTML pages of report and compare --html, the
 * SVG of compare --svg and of the flame graphs): one escaper for all of it.
 *
 *     bb_markup_escape(f, name, (size_t)-1, 0);              // HTML text or attribute value
 *     bb_markup_escape(f, frame, 40, BB_MARKUP_ASCII);       // SVG: printable ASCII only
 *
 * Host only.
 */
#ifndef BENCHBOOT_HOST_MARKUP_H
#define BENCHBOOT_HOST_MARKUP_H

#include <stddef.h>
#include <stdio.h>

/* every byte outside printable ASCII as '?' (text that must be valid UTF-8 and XML whatever
 * it held: symbol names, labels) */
#define BB_MARKUP_ASCII 1

/* At most max bytes of s, as the text of an element or an attribute's value: & < > " ' as
 * entities; control bytes (but tab and newline) as U+FFFD, or '?' with BB_MARKUP_ASCII. */
void bb_markup_escape(FILE *f, const char *s, size_t max, int flags);

#endif
