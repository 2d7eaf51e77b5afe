/*
 * The helpers the monitors' parsers share (parse_monitor_int.h): dump-stat's `KEY: VALUE` as a
 * series of the parse, the words and lines of a sample, a vmstat sample's sections. Apart from
 * parse_monitor.c so that the parsers of parse_monitor_*.c and it depend on them, not on each
 * other.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "parse/parse_monitor.h"
#include "parse/parse_monitor_int.h"

static struct bb_resjson_series *series_get(struct bb_resjson *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->s[i].name, name))
			return &r->s[i];
	if (bb_grow(&r->s, &r->cap, r->n + 1, sizeof(*r->s)))
		return NULL;
	struct bb_resjson_series *s = &r->s[r->n++];
	memset(s, 0, sizeof *s);
	size_t l = strlen(name); /* emit checked that it fits */
	memcpy(s->name, name, l < sizeof s->name ? l : sizeof s->name - 1);
	return s;
}

static int series_push(struct bb_resjson_series *s, double v)
{
	if (bb_grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v)))
		return -ENOMEM;
	s->v[s->n++] = v;
	return 0;
}

/*
 * dump-stat's treatment of one `KEY: VALUE` line: NAME.KEY, a number only (Ruby's Float(),
 * here strtod over the whole word), the values a key missed in earlier samples as zeros, one
 * value per sample (a repeated key in a sample keeps its first value). A name that does not
 * fit benchboot's 127 bytes is left out.
 */
void bb_mon_emit(struct parse *p, const char *key, const char *value)
{
	char name[160], *end;
	if (p->err || !*value)
		return;
	double v = strtod(value, &end);
	if (end == value || *end)
		return;
	if ((size_t)snprintf(name, sizeof name, "%s.%s", p->m->name, key) >=
	    sizeof((struct bb_resjson_series *)0)->name)
		return;
	struct bb_resjson_series *s = series_get(p->series, name);
	if (!s) {
		p->err = -ENOMEM;
		return;
	}
	if (s->n > p->sample)
		return;
	while (s->n < p->sample && !p->err)
		p->err = series_push(s, 0);
	if (!p->err)
		p->err = series_push(s, v);
}

void bb_mon_emit_num(struct parse *p, const char *key, double v)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%.17g", v);
	bb_mon_emit(p, key, buf);
}

/* The blank-separated words of line (modified in place), at most max. */
size_t bb_mon_split(char *line, char **w, size_t max)
{
	size_t n = 0;
	for (char *s = strtok(line, " \t"); s && n < max; s = strtok(NULL, " \t"))
		w[n++] = s;
	return n;
}

/* Calls fn on each line of text[0..len) (a copy, NUL-terminated, without the newline). */
void bb_mon_each_line(struct parse *p, const char *text, size_t len,
                      void (*fn)(struct parse *, char *))
{
	while (len && !p->err) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;
		char *line = malloc(n + 1);
		if (!line) {
			p->err = -ENOMEM;
			return;
		}
		memcpy(line, text, n);
		line[n] = 0;
		fn(p, line);
		free(line);
		text += n + (nl != NULL);
		len -= n + (nl != NULL);
	}
}

/* The section of a vmstat sample after its `==> FILE <==` line (to the next such line), or
 * NULL. */
const char *bb_mon_section(const char *text, size_t len, const char *file, size_t *slen)
{
	char mark[64];
	int ml = snprintf(mark, sizeof mark, "==> %s <==\n", file);
	for (size_t off = 0; off + (size_t)ml <= len;) {
		if (!memcmp(text + off, mark, (size_t)ml)) {
			size_t b = off + (size_t)ml, e = b;
			while (e < len && !(len - e >= 4 && !memcmp(text + e, "==> ", 4))) {
				const char *nl = memchr(text + e, '\n', len - e);
				e = nl ? (size_t)(nl - text) + 1 : len;
			}
			*slen = e - b;
			return text + b;
		}
		const char *nl = memchr(text + off, '\n', len - off);
		if (!nl)
			break;
		off = (size_t)(nl - text) + 1;
	}
	return NULL;
}
