/* A small JSON reader and writer; see json.h. Strict RFC 8259, depth limited. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "host/json.h"

#define JN_MAX_DEPTH 64
#define JN_MAX_FILE (64u << 20)

struct jparser {
	const char *s, *end, *p;
	char *err;
	size_t errlen;
	int failed;
};

static void jp_fail(struct jparser *jp, const char *fmt, ...)
{
	if (jp->failed)
		return;
	jp->failed = 1;
	int line = 1, col = 1;
	for (const char *q = jp->s; q < jp->p && q < jp->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	int k = snprintf(jp->err, jp->errlen, "line %d col %d: ", line, col);
	if (k < 0 || (size_t)k >= jp->errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(jp->err + k, jp->errlen - k, fmt, ap);
	va_end(ap);
}

static void jp_ws(struct jparser *jp)
{
	while (jp->p < jp->end &&
	       (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r'))
		jp->p++;
}

static struct jn *jn_new(enum jn_type t)
{
	struct jn *n = calloc(1, sizeof(*n));
	if (n)
		n->type = t;
	return n;
}

static int jn_push(struct jn *arr, char *key, struct jn *item)
{
	if ((arr->n & (arr->n - 1)) == 0) {
		size_t cap = arr->n ? arr->n * 2 : 4;
		struct jn **items = realloc(arr->items, cap * sizeof(*items));
		if (!items)
			return -1;
		arr->items = items;
		if (arr->type == JN_OBJ) {
			char **keys = realloc(arr->keys, cap * sizeof(*keys));
			if (!keys)
				return -1;
			arr->keys = keys;
		}
	}
	if (arr->type == JN_OBJ)
		arr->keys[arr->n] = key;
	arr->items[arr->n++] = item;
	return 0;
}

static int jp_hex4(struct jparser *jp, unsigned *out)
{
	if (jp->end - jp->p < 4) {
		jp_fail(jp, "truncated \\u escape");
		return -1;
	}
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		int h = bb_hex_digit(jp->p[i]);
		if (h < 0) {
			jp_fail(jp, "bad \\u escape");
			return -1;
		}
		v = v * 16 + h;
	}
	jp->p += 4;
	*out = v;
	return 0;
}

static size_t utf8_put(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = 0xc0 | (cp >> 6);
		o[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = 0xe0 | (cp >> 12);
		o[1] = 0x80 | ((cp >> 6) & 0x3f);
		o[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | (cp >> 18);
	o[1] = 0x80 | ((cp >> 12) & 0x3f);
	o[2] = 0x80 | ((cp >> 6) & 0x3f);
	o[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* A string literal; jp->p is on the opening quote. Returns a malloc'd UTF-8 string. */
static char *jp_string(struct jparser *jp)
{
	jp->p++;
	const char *start = jp->p;
	/* Escapes never expand: the rest of the input bounds the decoded length. */
	char *out = malloc((size_t)(jp->end - start) + 4), *o = out;
	if (!out) {
		jp_fail(jp, "out of memory");
		return NULL;
	}
	while (jp->p < jp->end && *jp->p != '"') {
		unsigned char c = *jp->p;
		if (c < 0x20) {
			jp_fail(jp, "control character in string");
			goto out_free;
		}
		if (c != '\\') {
			*o++ = c;
			jp->p++;
			continue;
		}
		jp->p++;
		if (jp->p >= jp->end)
			break;
		char e = *jp->p++;
		switch (e) {
		case '"':
			*o++ = '"';
			break;
		case '\\':
			*o++ = '\\';
			break;
		case '/':
			*o++ = '/';
			break;
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'u': {
			unsigned cp, lo;
			if (jp_hex4(jp, &cp))
				goto out_free;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (jp->end - jp->p < 2 || jp->p[0] != '\\' || jp->p[1] != 'u') {
					jp_fail(jp, "unpaired surrogate");
					goto out_free;
				}
				jp->p += 2;
				if (jp_hex4(jp, &lo))
					goto out_free;
				if (lo < 0xdc00 || lo > 0xdfff) {
					jp_fail(jp, "unpaired surrogate");
					goto out_free;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				jp_fail(jp, "unpaired surrogate");
				goto out_free;
			}
			if (cp == 0) {
				jp_fail(jp, "NUL in string");
				goto out_free;
			}
			o += utf8_put(o, cp);
			break;
		}
		default:
			jp->p--;
			jp_fail(jp, "bad escape '\\%c'", e);
			goto out_free;
		}
	}
	if (jp->p >= jp->end) {
		jp_fail(jp, "unterminated string");
		goto out_free;
	}
	jp->p++;
	*o = 0;
	return out;
out_free:
	free(out);
	return NULL;
}

static struct jn *jp_value(struct jparser *jp, int depth);

static struct jn *jp_number(struct jparser *jp)
{
	const char *st = jp->p, *q = jp->p;
	if (q < jp->end && *q == '-')
		q++;
	if (q >= jp->end || !(*q >= '0' && *q <= '9')) {
		jp_fail(jp, "unexpected character");
		return NULL;
	}
	if (*q == '0')
		q++;
	else
		while (q < jp->end && *q >= '0' && *q <= '9')
			q++;
	if (q < jp->end && *q == '.') {
		q++;
		if (q >= jp->end || !(*q >= '0' && *q <= '9')) {
			jp->p = q;
			jp_fail(jp, "digit expected after '.'");
			return NULL;
		}
		while (q < jp->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < jp->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < jp->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= jp->end || !(*q >= '0' && *q <= '9')) {
			jp->p = q;
			jp_fail(jp, "digit expected in exponent");
			return NULL;
		}
		while (q < jp->end && *q >= '0' && *q <= '9')
			q++;
	}
	struct jn *n = jn_new(JN_NUM);
	if (!n || !(n->raw = strndup(st, q - st))) {
		free(n);
		jp_fail(jp, "out of memory");
		return NULL;
	}
	n->num = strtod(n->raw, NULL);
	jp->p = q;
	return n;
}

static struct jn *jp_container(struct jparser *jp, int depth)
{
	int obj = *jp->p == '{';
	char close = obj ? '}' : ']';
	struct jn *n = jn_new(obj ? JN_OBJ : JN_ARR);
	if (!n) {
		jp_fail(jp, "out of memory");
		return NULL;
	}
	jp->p++;
	jp_ws(jp);
	if (jp->p < jp->end && *jp->p == close) {
		jp->p++;
		return n;
	}
	for (;;) {
		char *key = NULL;
		jp_ws(jp);
		if (obj) {
			if (jp->p >= jp->end || *jp->p != '"') {
				jp_fail(jp, "member name expected");
				goto out_free;
			}
			if (!(key = jp_string(jp)))
				goto out_free;
			jp_ws(jp);
			if (jp->p >= jp->end || *jp->p != ':') {
				free(key);
				jp_fail(jp, "':' expected");
				goto out_free;
			}
			jp->p++;
		}
		struct jn *item = jp_value(jp, depth + 1);
		if (!item || jn_push(n, key, item)) {
			free(key);
			jn_free(item);
			jp_fail(jp, "out of memory");
			goto out_free;
		}
		jp_ws(jp);
		if (jp->p < jp->end && *jp->p == ',') {
			jp->p++;
			continue;
		}
		if (jp->p < jp->end && *jp->p == close) {
			jp->p++;
			return n;
		}
		jp_fail(jp, "',' or '%c' expected", close);
		goto out_free;
	}
out_free:
	jn_free(n);
	return NULL;
}

static int jp_word(struct jparser *jp, const char *w)
{
	size_t l = strlen(w);
	if ((size_t)(jp->end - jp->p) >= l && !memcmp(jp->p, w, l)) {
		jp->p += l;
		return 1;
	}
	return 0;
}

static struct jn *jp_value(struct jparser *jp, int depth)
{
	jp_ws(jp);
	if (depth > JN_MAX_DEPTH) {
		jp_fail(jp, "nested deeper than %d", JN_MAX_DEPTH);
		return NULL;
	}
	if (jp->p >= jp->end) {
		jp_fail(jp, "unexpected end of input");
		return NULL;
	}
	struct jn *n;
	switch (*jp->p) {
	case '{':
	case '[':
		return jp_container(jp, depth);
	case '"': {
		char *s = jp_string(jp);
		if (!s)
			return NULL;
		if (!(n = jn_new(JN_STR))) {
			free(s);
			jp_fail(jp, "out of memory");
			return NULL;
		}
		n->str = s;
		return n;
	}
	case 't':
	case 'f':
	case 'n':
		if (jp_word(jp, "true") || jp_word(jp, "false")) {
			n = jn_new(JN_BOOL);
			if (n)
				n->boolean = jp->p[-1] == 'e' && jp->p[-2] == 'u';
			return n;
		}
		if (jp_word(jp, "null"))
			return jn_new(JN_NULL);
		jp_fail(jp, "unexpected word");
		return NULL;
	default:
		return jp_number(jp);
	}
}

struct jn *jn_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct jparser jp = {text, text + len, text, err, errlen, 0};
	if (errlen)
		err[0] = 0;
	if (memchr(text, 0, len)) {
		jp.p = memchr(text, 0, len);
		jp_fail(&jp, "NUL byte in input");
		return NULL;
	}
	struct jn *n = jp_value(&jp, 0);
	if (!n)
		return NULL;
	jp_ws(&jp);
	if (jp.p != jp.end) {
		jp_fail(&jp, "trailing characters after the value");
		jn_free(n);
		return NULL;
	}
	return n;
}

struct jn *jn_parse_file(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s", strerror(e));
		errno = e;
		return NULL;
	}
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	struct jn *n = NULL;
	while (buf) {
		if (len == cap) {
			if (cap >= JN_MAX_FILE) {
				snprintf(err, errlen, "larger than %u bytes", JN_MAX_FILE);
				errno = EFBIG;
				goto out_close;
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		size_t r = fread(buf + len, 1, cap - len, f);
		len += r;
		if (r == 0)
			break;
	}
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		goto out_close;
	}
	if (ferror(f)) {
		int e = errno;
		snprintf(err, errlen, "%s", strerror(e));
		errno = e;
		goto out_close;
	}
	n = jn_parse(buf, len, err, errlen);
	if (!n)
		errno = EINVAL;
out_close:
	free(buf);
	fclose(f);
	return n;
}

void jn_free(struct jn *node)
{
	if (!node)
		return;
	for (size_t i = 0; i < node->n; i++) {
		jn_free(node->items[i]);
		if (node->keys)
			free(node->keys[i]);
	}
	free(node->items);
	free(node->keys);
	free(node->str);
	free(node->raw);
	free(node);
}

const struct jn *jn_get(const struct jn *obj, const char *key)
{
	if (!obj || obj->type != JN_OBJ)
		return NULL;
	for (size_t i = obj->n; i-- > 0;)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const char *jn_scalar_text(const struct jn *node, char *buf, size_t buflen)
{
	if (!node)
		return NULL;
	switch (node->type) {
	case JN_STR:
		return node->str;
	case JN_NUM:
		return node->raw;
	case JN_BOOL:
		return node->boolean ? "true" : "false";
	case JN_NULL:
		return "null";
	default:
		(void)buf;
		(void)buflen;
		return NULL;
	}
}

/* ---- writer ---- */

void jout_init(struct jout *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->first[0] = 1;
}

static void jout_indent(struct jout *w)
{
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Before any value or key: the comma and the line break, unless right after a key. */
static void jout_pre(struct jout *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->f);
		jout_indent(w);
	}
	w->first[w->depth] = 0;
}

static void jout_open(struct jout *w, char c)
{
	jout_pre(w);
	fputc(c, w->f);
	if (w->depth < 63)
		w->depth++;
	w->first[w->depth] = 1;
}

static void jout_close(struct jout *w, char c)
{
	int empty = w->first[w->depth];
	if (w->depth > 0)
		w->depth--;
	if (!empty)
		jout_indent(w);
	fputc(c, w->f);
	if (w->depth == 0)
		fputc('\n', w->f);
}

void jout_obj_begin(struct jout *w)
{
	jout_open(w, '{');
}
void jout_obj_end(struct jout *w)
{
	jout_close(w, '}');
}
void jout_arr_begin(struct jout *w)
{
	jout_open(w, '[');
}
void jout_arr_end(struct jout *w)
{
	jout_close(w, ']');
}

void jout_quote(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void jout_key(struct jout *w, const char *key)
{
	jout_pre(w);
	jout_quote(w->f, key);
	fputs(": ", w->f);
	w->after_key = 1;
}

void jout_str(struct jout *w, const char *s)
{
	jout_pre(w);
	if (s)
		jout_quote(w->f, s);
	else
		fputs("null", w->f);
}

/* The shortest of %.15g..%.17g that reads back as the same double. */
void jout_num(struct jout *w, double v)
{
	jout_pre(w);
	if (!isfinite(v)) {
		fputs("null", w->f);
		return;
	}
	char buf[40];
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, w->f);
}

void jout_int(struct jout *w, long long v)
{
	jout_pre(w);
	fprintf(w->f, "%lld", v);
}

void jout_bool(struct jout *w, int v)
{
	jout_pre(w);
	fputs(v ? "true" : "false", w->f);
}

void jout_null(struct jout *w)
{
	jout_pre(w);
	fputs("null", w->f);
}

void jout_node(struct jout *w, const struct jn *node)
{
	switch (node->type) {
	case JN_NULL:
		jout_null(w);
		break;
	case JN_BOOL:
		jout_bool(w, node->boolean);
		break;
	case JN_NUM:
		jout_pre(w);
		fputs(node->raw, w->f);
		break;
	case JN_STR:
		jout_str(w, node->str);
		break;
	case JN_ARR:
	case JN_OBJ:
		if (node->type == JN_OBJ)
			jout_obj_begin(w);
		else
			jout_arr_begin(w);
		for (size_t i = 0; i < node->n; i++) {
			if (node->type == JN_OBJ)
				jout_key(w, node->keys[i]);
			jout_node(w, node->items[i]);
		}
		if (node->type == JN_OBJ)
			jout_obj_end(w);
		else
			jout_arr_end(w);
		break;
	}
}
