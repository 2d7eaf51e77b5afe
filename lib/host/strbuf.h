/*
 * A growing text buffer for the writers of generated files (LAVA job, PXE menus, plans):
 * append with bb_strbuf_printf, then check oom once at the end. Host only.
 */
#ifndef BENCHBOOT_STRBUF_H
#define BENCHBOOT_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s;    /* NUL-terminated text (NULL while nothing was appended); free() it */
	size_t len; /* bytes of text, without the NUL */
	size_t cap;
	int oom; /* set when an append failed; later appends do nothing */
};

void bb_strbuf_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* snprintf into a fixed buffer that reports truncation: 0, or -ENAMETOOLONG when the text did
 * not fit (paths are what it formats). */
int bb_strfmt(char *out, size_t outlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
