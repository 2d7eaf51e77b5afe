/* A growing text buffer; see strbuf.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "host/strbuf.h"
#include "grow.h"

void bb_strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = 1;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		if (bb_grow(&b->s, &b->cap, b->len + (size_t)n + 1, 1)) {
			b->oom = 1;
			return;
		}
	}
}

int bb_strfmt(char *out, size_t outlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out, outlen, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= outlen ? -ENAMETOOLONG : 0;
}
