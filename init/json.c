/* A small JSON writer, see json.h: indentation two spaces, one member per line. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "grow.h"
#include "json.h"
#include "jsonstr.h"

static void put(struct ijw *w, const char *s, size_t n)
{
	if (w->oom)
		return;
	if (bb_grow(&w->buf, &w->cap, w->len + n + 1, 1)) {
		w->oom = 1;
		return;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = 0;
}

static void puts_(struct ijw *w, const char *s)
{
	put(w, s, strlen(s));
}

static void put_sink(void *ctx, const char *s, size_t n)
{
	put(ctx, s, n);
}

static void put_quoted(struct ijw *w, const char *s)
{
	bb_jsonstr_write(s, put_sink, w);
}

size_t ijson_quote(char *buf, size_t len, const char *s)
{
	return bb_jsonstr_append(buf, len, s);
}

static void member(struct ijw *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->first[w->depth])
			put(w, ",", 1);
		w->first[w->depth] = 0;
		put(w, "\n", 1);
		for (int i = 0; i < w->depth; i++)
			put(w, "  ", 2);
	}
	if (key) {
		put_quoted(w, key);
		put(w, ": ", 2);
	}
}

void ijw_open(struct ijw *w, const char *key, char bracket)
{
	member(w, key);
	put(w, &bracket, 1);
	if (w->depth + 1 < (int)sizeof(w->first))
		w->depth++;
	w->first[w->depth] = 1;
}

void ijw_close(struct ijw *w, char bracket)
{
	int empty = w->first[w->depth];
	if (w->depth > 0)
		w->depth--;
	if (!empty) {
		put(w, "\n", 1);
		for (int i = 0; i < w->depth; i++)
			put(w, "  ", 2);
	}
	put(w, &bracket, 1);
}

void ijw_str(struct ijw *w, const char *key, const char *val)
{
	member(w, key);
	if (val)
		put_quoted(w, val);
	else
		puts_(w, "null");
}

void ijw_num(struct ijw *w, const char *key, double v)
{
	char b[64];
	member(w, key);
	if (!isfinite(v)) {
		puts_(w, "null");
		return;
	}
	snprintf(b, sizeof(b), "%.10g", v);
	puts_(w, b);
}

void ijw_int(struct ijw *w, const char *key, long long v)
{
	char b[32];
	member(w, key);
	snprintf(b, sizeof(b), "%lld", v);
	puts_(w, b);
}

void ijw_bool(struct ijw *w, const char *key, int v)
{
	member(w, key);
	puts_(w, v ? "true" : "false");
}

void ijw_raw(struct ijw *w, const char *key, const char *json)
{
	member(w, key);
	puts_(w, json);
}

int ijw_save(struct ijw *w, const char *path)
{
	if (w->oom)
		return -ENOMEM;
	put(w, "\n", 1);
	int r = init_write(path, w->buf ? w->buf : "", 1);
	w->len--;
	w->buf[w->len] = 0;
	return r;
}

void ijw_free(struct ijw *w)
{
	free(w->buf);
	memset(w, 0, sizeof(*w));
}
