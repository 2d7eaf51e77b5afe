/* The one JSON string writer; see jsonstr.h. */
#include <string.h>

#include "jsonstr.h"

/*
 * How many bytes at p (*p >= 0x80) form one well-formed UTF-8 sequence (Unicode Table 3-7),
 * as a positive count; or, when they do not, minus the length of the maximal subpart to
 * replace by one U+FFFD (at least one byte). The terminating NUL ends a sequence as any
 * other byte outside 80..BF does, so nothing is read past it.
 */
static int utf8_seq(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf; /* the range of the second byte */
	int n;
	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4;
	else
		return -1; /* a continuation byte alone, C0/C1 (always overlong), F5..FF */
	if (*p == 0xe0)
		lo = 0xa0; /* overlong below */
	else if (*p == 0xed)
		hi = 0x9f; /* surrogates above */
	else if (*p == 0xf0)
		lo = 0x90; /* overlong below */
	else if (*p == 0xf4)
		hi = 0x8f; /* above U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return -1;
	for (int i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return -i;
	return n;
}

/* The bytes with a two-character escape, and its letter. */
static const char short_escape[0x60] = {['"'] = '"',  ['\\'] = '\\', ['\b'] = 'b', ['\f'] = 'f',
                                        ['\n'] = 'n', ['\r'] = 'r',  ['\t'] = 't'};

void bb_jsonstr_write(const char *s, bb_jsonstr_sink *sink, void *ctx)
{
	static const char hexd[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *run = p;
	sink(ctx, "\"", 1);
	while (*p) {
		char esc[6] = {'\\', 'u', '0', '0', 0, 0};
		size_t esclen = 6, skip = 1;
		int n = 1;
		if (*p < sizeof(short_escape) && short_escape[*p]) {
			esc[1] = short_escape[*p];
			esclen = 2;
		} else if (*p < 0x20 || *p == 0x7f) {
			esc[4] = hexd[*p >> 4];
			esc[5] = hexd[*p & 15];
		} else if (*p < 0x80 || (n = utf8_seq(p)) > 0) {
			p += n;
			continue; /* part of the run written as it is */
		} else {
			memcpy(esc, "\xef\xbf\xbd", 3); /* U+FFFD for the maximal subpart */
			esclen = 3;
			skip = (size_t)-n;
		}
		if (p > run)
			sink(ctx, (const char *)run, (size_t)(p - run));
		sink(ctx, esc, esclen);
		p += skip;
		run = p;
	}
	if (p > run)
		sink(ctx, (const char *)run, (size_t)(p - run));
	sink(ctx, "\"", 1);
}

struct fixed {
	char *buf;
	size_t len, n;
};

static void fixed_put(void *ctx, const char *p, size_t n)
{
	struct fixed *f = ctx;
	if (f->n + 1 >= f->len)
		return;
	if (n > f->len - 1 - f->n)
		n = f->len - 1 - f->n;
	memcpy(f->buf + f->n, p, n);
	f->n += n;
	f->buf[f->n] = 0;
}

size_t bb_jsonstr_append(char *buf, size_t len, const char *s)
{
	struct fixed f = {buf, len, len ? strnlen(buf, len - 1) : 0};
	if (len)
		bb_jsonstr_write(s, fixed_put, &f);
	return f.n;
}
