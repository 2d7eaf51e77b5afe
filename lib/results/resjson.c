/* results.json (LKP's object of arrays): a strict reader for exactly that shape and a writer. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/resjson.h"
#include "grow.h"
#include "hex.h"
#include "jsonstr.h"

/* The element named NAME of an array of N elements of SIZE bytes, each beginning with its name
 * (char[NAMELEN]); with CREATE, a new zeroed one at the end when there is none. NULL when there
 * is none, or the name is too long, or out of memory. */
static void *named_get(void **arr, size_t *n, size_t *cap, size_t size, size_t namelen,
                       const char *name, int create)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((char *)*arr + i * size, name))
			return (char *)*arr + i * size;
	if (!create || strlen(name) >= namelen || bb_grow(arr, cap, *n + 1, size))
		return NULL;
	char *e = (char *)*arr + (*n)++ * size;
	memset(e, 0, size);
	strcpy(e, name);
	return e;
}

_Static_assert(offsetof(struct bb_resjson_series, name) == 0 &&
                   offsetof(struct bb_resjson_status, name) == 0,
               "named_get: the name comes first");

static struct bb_resjson_series *series_get(struct bb_resjson *r, const char *name, int create)
{
	return named_get((void **)&r->s, &r->n, &r->cap, sizeof *r->s, sizeof r->s->name, name,
	                 create);
}

static int series_push(struct bb_resjson_series *s, double v)
{
	if (bb_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v))
		return -ENOMEM;
	s->v[s->n++] = v;
	return 0;
}

const struct bb_resjson_series *bb_resjson_get(const struct bb_resjson *r, const char *name)
{
	return series_get((struct bb_resjson *)r, name, 0);
}

int bb_resjson_add(struct bb_resjson *r, const struct bb_stats *it)
{
	for (size_t i = 0; i < it->n; i++) {
		struct bb_resjson_series *s = series_get(r, it->v[i].name, 1);
		if (!s)
			return -ENOMEM;
		int rc = series_push(s, it->v[i].value);
		if (rc)
			return rc;
	}
	return 0;
}

static struct bb_resjson_status *status_get(struct bb_resjson *r, const char *name, int create)
{
	return named_get((void **)&r->st, &r->nst, &r->capst, sizeof *r->st, sizeof r->st->name,
	                 name, create);
}

/* Append one iteration's status line of monitor name. 0 or -ENOMEM. */
static int bb_resjson_add_status(struct bb_resjson *r, const char *name, const char *status)
{
	struct bb_resjson_status *s = status_get(r, name, 1);
	char *copy = strdup(status);
	if (!s || !copy || bb_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v)) {
		free(copy);
		return -ENOMEM;
	}
	s->v[s->n++] = copy;
	return 0;
}

const struct bb_resjson_status *bb_resjson_get_status(const struct bb_resjson *r, const char *name)
{
	return status_get((struct bb_resjson *)r, name, 0);
}

void bb_resjson_free(struct bb_resjson *r)
{
	for (size_t i = 0; i < r->nst; i++) {
		for (size_t k = 0; k < r->st[i].n; k++)
			free(r->st[i].v[k]);
		free(r->st[i].v);
	}
	free(r->st);
	for (size_t i = 0; i < r->n; i++)
		free(r->s[i].v);
	free(r->s);
	memset(r, 0, sizeof *r);
}

struct rd {
	const char *p, *start;
	char *err;
	size_t errlen;
};

static int rd_fail(struct rd *d, const char *what)
{
	int line = 1, col = 1;
	for (const char *q = d->start; q < d->p; q++) {
		if (*q == '\n')
			line++, col = 1;
		else
			col++;
	}
	snprintf(d->err, d->errlen, "line %d col %d: %s", line, col, what);
	return -EINVAL;
}

static void rd_ws(struct rd *d)
{
	while (*d->p == ' ' || *d->p == '\t' || *d->p == '\n' || *d->p == '\r')
		d->p++;
}

static int rd_string(struct rd *d, char *buf, size_t len)
{
	size_t n = 0;
	if (*d->p != '"')
		return rd_fail(d, "expected a string");
	d->p++;
	while (*d->p != '"') {
		char c = *d->p;
		if (!c || c == '\n')
			return rd_fail(d, "unterminated string");
		if (c == '\\') {
			d->p++;
			switch (*d->p) {
			case '"':
				c = '"';
				break;
			case '\\':
				c = '\\';
				break;
			case '/':
				c = '/';
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'n':
				c = '\n';
				break;
			case 'r':
				c = '\r';
				break;
			case 't':
				c = '\t';
				break;
			case 'u': {
				/* only what the writer writes: control characters and DEL */
				unsigned v = 0;
				for (int i = 1; i <= 4; i++) {
					int x = bb_hex_digit((unsigned char)d->p[i]);
					if (x < 0)
						return rd_fail(d, "bad \\u escape");
					v = v * 16 + (unsigned)x;
				}
				if (v == 0 || v > 0x7f)
					return rd_fail(d, "unsupported escape in a stat name");
				c = (char)v;
				d->p += 4;
				break;
			}
			default:
				return rd_fail(d, "unsupported escape in a stat name");
			}
		}
		if (n + 1 >= len)
			return rd_fail(d, "stat name too long");
		buf[n++] = c;
		d->p++;
	}
	d->p++;
	buf[n] = 0;
	return 0;
}

static int rd_number(struct rd *d, double *v)
{
	if (!strncmp(d->p, "null", 4)) {
		d->p += 4;
		*v = NAN;
		return 0;
	}
	char *e;
	if (!(*d->p == '-' || (*d->p >= '0' && *d->p <= '9')))
		return rd_fail(d, "expected a number");
	*v = strtod(d->p, &e);
	if (e == d->p)
		return rd_fail(d, "expected a number");
	d->p = e;
	return 0;
}

/* The "monitor_status" member's value: {"NAME": ["STATUS", ...], ...}. */
static int rd_statuses(struct rd *d, struct bb_resjson *r)
{
	int rc;
	char line[4096];
	if (*d->p != '{')
		return rd_fail(d, "expected '{' (monitor_status is an object)");
	d->p++;
	rd_ws(d);
	if (*d->p == '}') {
		d->p++;
		return 0;
	}
	for (;;) {
		char name[128];
		rd_ws(d);
		if ((rc = rd_string(d, name, sizeof name)))
			return rc;
		if (bb_resjson_get_status(r, name))
			return rd_fail(d, "duplicate monitor in monitor_status");
		if (!status_get(r, name, 1))
			return -ENOMEM;
		rd_ws(d);
		if (*d->p != ':')
			return rd_fail(d, "expected ':'");
		d->p++;
		rd_ws(d);
		if (*d->p != '[')
			return rd_fail(d, "expected '[' (a monitor's statuses are an array)");
		d->p++;
		rd_ws(d);
		while (*d->p != ']') {
			rd_ws(d);
			if ((rc = rd_string(d, line, sizeof line)) ||
			    (rc = bb_resjson_add_status(r, name, line)))
				return rc;
			rd_ws(d);
			if (*d->p == ']')
				break;
			if (*d->p != ',')
				return rd_fail(d, "expected ',' or ']'");
			d->p++;
		}
		d->p++;
		rd_ws(d);
		if (*d->p == '}') {
			d->p++;
			return 0;
		}
		if (*d->p != ',')
			return rd_fail(d, "expected ',' or '}'");
		d->p++;
	}
}

int bb_resjson_parse(const char *text, struct bb_resjson *r, char *err, size_t errlen)
{
	struct rd d = {text ? text : "", text ? text : "", err, errlen};
	int rc;
	memset(r, 0, sizeof *r);
	rd_ws(&d);
	if (!*d.p)
		return 0;
	if (*d.p != '{')
		return rd_fail(&d, "expected '{'");
	d.p++;
	rd_ws(&d);
	if (*d.p == '}') {
		d.p++;
		goto out_end;
	}
	for (;;) {
		char name[128];
		rd_ws(&d);
		if ((rc = rd_string(&d, name, sizeof name)))
			goto out_free;
		if (!strcmp(name, "monitor_status")) {
			rd_ws(&d);
			if (*d.p != ':') {
				rc = rd_fail(&d, "expected ':'");
				goto out_free;
			}
			d.p++;
			rd_ws(&d);
			if ((rc = rd_statuses(&d, r)))
				goto out_free;
			goto next;
		}
		if (bb_resjson_get(r, name)) {
			rc = rd_fail(&d, "duplicate stat name");
			goto out_free;
		}
		struct bb_resjson_series *s = series_get(r, name, 1);
		if (!s) {
			rc = -ENOMEM;
			goto out_free;
		}
		rd_ws(&d);
		if (*d.p != ':') {
			rc = rd_fail(&d, "expected ':'");
			goto out_free;
		}
		d.p++;
		rd_ws(&d);
		if (*d.p != '[') {
			rc = rd_fail(&d, "expected '[' (a stat is an array of numbers)");
			goto out_free;
		}
		d.p++;
		rd_ws(&d);
		if (*d.p != ']') {
			for (;;) {
				double v;
				rd_ws(&d);
				if ((rc = rd_number(&d, &v)) || (rc = series_push(s, v)))
					goto out_free;
				rd_ws(&d);
				if (*d.p == ']')
					break;
				if (*d.p != ',') {
					rc = rd_fail(&d, "expected ',' or ']'");
					goto out_free;
				}
				d.p++;
			}
		}
		d.p++;
	next:
		rd_ws(&d);
		if (*d.p == '}') {
			d.p++;
			break;
		}
		if (*d.p != ',') {
			rc = rd_fail(&d, "expected ',' or '}'");
			goto out_free;
		}
		d.p++;
	}
out_end:
	rd_ws(&d);
	if (*d.p) {
		rc = rd_fail(&d, "text after the object");
		goto out_free;
	}
	return 0;
out_free:
	bb_resjson_free(r);
	return rc;
}

/* Shortest %g form that reads back to the same double. */
static void fmt_double(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

static int cmp_series(const void *a, const void *b)
{
	return strcmp((*(const struct bb_resjson_series *const *)a)->name,
	              (*(const struct bb_resjson_series *const *)b)->name);
}

struct sbuf {
	char *p;
	size_t n, cap;
	int oom;
};

static void sb_addn(struct sbuf *b, const char *s, size_t l)
{
	if (b->oom)
		return;
	if (bb_grow(&b->p, &b->cap, b->n + l + 1, 1)) {
		b->oom = 1;
		return;
	}
	memcpy(b->p + b->n, s, l);
	b->n += l;
	b->p[b->n] = 0;
}

static void sb_add(struct sbuf *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

static void sb_sink(void *ctx, const char *s, size_t n)
{
	sb_addn(ctx, s, n);
}

char *bb_resjson_format(const struct bb_resjson *r)
{
	struct sbuf b = {0};
	const struct bb_resjson_series **order = calloc(r->n ? r->n : 1, sizeof *order);
	if (!order)
		return NULL;
	for (size_t i = 0; i < r->n; i++)
		order[i] = &r->s[i];
	qsort(order, r->n, sizeof *order, cmp_series);
	sb_add(&b, "{");
	for (size_t i = 0; i < r->n; i++) {
		sb_add(&b, i ? ",\n  " : "\n  ");
		bb_jsonstr_write(order[i]->name, sb_sink, &b);
		sb_add(&b, ": [");
		for (size_t k = 0; k < order[i]->n; k++) {
			char num[40];
			fmt_double(num, sizeof num, order[i]->v[k]);
			sb_add(&b, k ? ",\n    " : "\n    ");
			sb_add(&b, num);
		}
		sb_add(&b, order[i]->n ? "\n  ]" : "]");
	}
	if (r->nst) {
		sb_add(&b, r->n ? ",\n  " : "\n  ");
		sb_add(&b, "\"monitor_status\": {");
		for (size_t i = 0; i < r->nst; i++) {
			sb_add(&b, i ? ",\n    " : "\n    ");
			bb_jsonstr_write(r->st[i].name, sb_sink, &b);
			sb_add(&b, ": [");
			for (size_t k = 0; k < r->st[i].n; k++) {
				sb_add(&b, k ? ",\n      " : "\n      ");
				bb_jsonstr_write(r->st[i].v[k], sb_sink, &b);
			}
			sb_add(&b, r->st[i].n ? "\n    ]" : "]");
		}
		sb_add(&b, "\n  }");
	}
	sb_add(&b, r->n || r->nst ? "\n}\n" : "}\n");
	free(order);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

int bb_resjson_append(const char *old, const struct bb_stats *it, char **out, char *err,
                      size_t errlen)
{
	return bb_resjson_append_status(old, it, NULL, NULL, 0, out, err, errlen);
}

int bb_resjson_append_status(const char *old, const struct bb_stats *it, const char *const *names,
                             const char *const *statuses, size_t n, char **out, char *err,
                             size_t errlen)
{
	struct bb_resjson r;
	int rc = bb_resjson_parse(old, &r, err, errlen);
	if (rc)
		return rc;
	rc = bb_resjson_add(&r, it);
	for (size_t i = 0; !rc && i < n; i++)
		rc = bb_resjson_add_status(&r, names[i], statuses[i]);
	if (!rc) {
		*out = bb_resjson_format(&r);
		if (!*out)
			rc = -ENOMEM;
	}
	bb_resjson_free(&r);
	return rc;
}
