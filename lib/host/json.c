/* JSON for the host: reading through jansson into our tree, and a streaming writer; see json.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "host/fileio.h"
#include "host/json.h"
#include "jsonstr.h"
#include "strv.h"

#define JN_MAX_DEPTH 64
#define JN_MAX_FILE (64u << 20)

static struct jn *jn_new(enum jn_type t)
{
	struct jn *n = calloc(1, sizeof(*n));
	if (n)
		n->type = t;
	return n;
}

/* A number's text: integers as they are, integral reals without a fraction, other reals in
 * the shortest form that reads back exactly. */
static char *number_text(const json_t *v)
{
	char buf[64];
	if (json_is_integer(v)) {
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	} else {
		double d = json_real_value(v);
		if (d == floor(d) && fabs(d) < 1e15) {
			snprintf(buf, sizeof(buf), "%.0f", d);
			return strdup(buf);
		}
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, d);
			if (strtod(buf, NULL) == d)
				break;
		}
	}
	return strdup(buf);
}

/* jansson's tree -> ours (objects keep jansson's order: the order of the file). */
static struct jn *convert(const json_t *v, int depth, char *err, size_t errlen)
{
	if (depth > JN_MAX_DEPTH) {
		snprintf(err, errlen, "nested deeper than %d", JN_MAX_DEPTH);
		return NULL;
	}
	struct jn *n = NULL;
	switch (json_typeof(v)) {
	case JSON_NULL:
		return jn_new(JN_NULL);
	case JSON_TRUE:
	case JSON_FALSE:
		if ((n = jn_new(JN_BOOL)))
			n->boolean = json_is_true(v);
		return n;
	case JSON_INTEGER:
	case JSON_REAL:
		if (!(n = jn_new(JN_NUM)) || !(n->raw = number_text(v)))
			goto out_nomem;
		n->num = json_number_value(v);
		return n;
	case JSON_STRING:
		if (!(n = jn_new(JN_STR)) || !(n->str = strdup(json_string_value(v))))
			goto out_nomem;
		return n;
	case JSON_ARRAY:
	case JSON_OBJECT: {
		int obj = json_is_object(v);
		size_t count = obj ? json_object_size(v) : json_array_size(v);
		if (!(n = jn_new(obj ? JN_OBJ : JN_ARR)) ||
		    (count && !(n->items = calloc(count, sizeof(*n->items)))) ||
		    (obj && count && !(n->keys = calloc(count, sizeof(*n->keys)))))
			goto out_nomem;
		if (obj) {
			const char *key;
			json_t *item;
			json_object_foreach((json_t *)v, key, item)
			{
				if (!(n->keys[n->n] = strdup(key)))
					goto out_nomem;
				if (!(n->items[n->n++] = convert(item, depth + 1, err, errlen)))
					goto out_free;
			}
		} else {
			for (size_t i = 0; i < count; i++, n->n++)
				if (!(n->items[i] =
				          convert(json_array_get(v, i), depth + 1, err, errlen)))
					goto out_free;
		}
		return n;
	}
	}
out_nomem:
	snprintf(err, errlen, "out of memory");
out_free:
	bb_jn_free(n);
	return NULL;
}

struct jn *bb_jn_parse(const char *text, size_t len, char *err, size_t errlen)
{
	json_error_t je;
	if (errlen)
		err[0] = 0;
	/* any value at the top; duplicate keys: the last wins, as RFC 8259 readers mostly do */
	json_t *root = json_loadb(text, len, JSON_DECODE_ANY, &je);
	if (!root) {
		snprintf(err, errlen, "line %d col %d: %s", je.line, je.column, je.text);
		return NULL;
	}
	struct jn *n = convert(root, 0, err, errlen);
	json_decref(root);
	return n;
}

struct jn *bb_jn_parse_file(const char *path, char *err, size_t errlen)
{
	unsigned char *buf;
	size_t len;
	int r = bb_fileio_read_all(path, &buf, &len);
	if (r) {
		snprintf(err, errlen, "%s", strerror(-r));
		errno = -r;
		return NULL;
	}
	struct jn *n = NULL;
	if (len > JN_MAX_FILE) {
		snprintf(err, errlen, "larger than %u bytes", JN_MAX_FILE);
		errno = EFBIG;
	} else if (!(n = bb_jn_parse((const char *)buf, len, err, errlen))) {
		errno = EINVAL;
	}
	free(buf);
	return n;
}

void bb_jn_free(struct jn *node)
{
	if (!node)
		return;
	for (size_t i = 0; i < node->n; i++) {
		bb_jn_free(node->items[i]);
		if (node->keys)
			free(node->keys[i]);
	}
	free(node->items);
	free(node->keys);
	free(node->str);
	free(node->raw);
	free(node);
}

const struct jn *bb_jn_get(const struct jn *obj, const char *key)
{
	if (!obj || obj->type != JN_OBJ)
		return NULL;
	for (size_t i = obj->n; i-- > 0;)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const char *bb_jn_scalar_text(const struct jn *node, char *buf, size_t buflen)
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

void bb_jout_init(struct jout *w, FILE *f)
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

void bb_jout_obj_begin(struct jout *w)
{
	jout_open(w, '{');
}
void bb_jout_obj_end(struct jout *w)
{
	jout_close(w, '}');
}
void bb_jout_arr_begin(struct jout *w)
{
	jout_open(w, '[');
}
void bb_jout_arr_end(struct jout *w)
{
	jout_close(w, ']');
}

static void file_sink(void *ctx, const char *p, size_t n)
{
	fwrite(p, 1, n, ctx);
}

void bb_jout_quote(FILE *f, const char *s)
{
	bb_jsonstr_write(s, file_sink, f);
}

void bb_jout_key(struct jout *w, const char *key)
{
	jout_pre(w);
	bb_jout_quote(w->f, key);
	fputs(": ", w->f);
	w->after_key = 1;
}

void bb_jout_str(struct jout *w, const char *s)
{
	jout_pre(w);
	if (s)
		bb_jout_quote(w->f, s);
	else
		fputs("null", w->f);
}

/* The shortest of %.15g..%.17g that reads back as the same double. */
void bb_jout_num(struct jout *w, double v)
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

void bb_jout_int(struct jout *w, long long v)
{
	jout_pre(w);
	fprintf(w->f, "%lld", v);
}

static void jout_bool(struct jout *w, int v)
{
	jout_pre(w);
	fputs(v ? "true" : "false", w->f);
}

void bb_jout_null(struct jout *w)
{
	jout_pre(w);
	fputs("null", w->f);
}

void bb_jout_node(struct jout *w, const struct jn *node)
{
	switch (node->type) {
	case JN_NULL:
		bb_jout_null(w);
		break;
	case JN_BOOL:
		jout_bool(w, node->boolean);
		break;
	case JN_NUM:
		jout_pre(w);
		fputs(node->raw, w->f);
		break;
	case JN_STR:
		bb_jout_str(w, node->str);
		break;
	case JN_ARR:
	case JN_OBJ:
		if (node->type == JN_OBJ)
			bb_jout_obj_begin(w);
		else
			bb_jout_arr_begin(w);
		for (size_t i = 0; i < node->n; i++) {
			if (node->type == JN_OBJ)
				bb_jout_key(w, node->keys[i]);
			bb_jout_node(w, node->items[i]);
		}
		if (node->type == JN_OBJ)
			bb_jout_obj_end(w);
		else
			bb_jout_arr_end(w);
		break;
	}
}

void bb_jout_kv_str(struct jout *w, const char *key, const char *s)
{
	bb_jout_key(w, key);
	bb_jout_str(w, s);
}

void bb_jout_kv_text(struct jout *w, const char *key, const char *s)
{
	bb_jout_kv_str(w, key, s && *s ? s : NULL);
}

void bb_jout_kv_num(struct jout *w, const char *key, double v)
{
	bb_jout_key(w, key);
	bb_jout_num(w, v);
}

void bb_jout_kv_int(struct jout *w, const char *key, long long v)
{
	bb_jout_key(w, key);
	bb_jout_int(w, v);
}

void bb_jout_kv_bool(struct jout *w, const char *key, int v)
{
	bb_jout_key(w, key);
	jout_bool(w, v);
}

int bb_kvs_flatten(struct bb_kvs *kvs, const char *prefix, const struct jn *node)
{
	char buf[64];
	if (node->type != JN_OBJ && node->type != JN_ARR)
		return bb_kvs_set(kvs, prefix, bb_jn_scalar_text(node, buf, sizeof(buf)));
	if (node->n == 0)
		return bb_kvs_set(kvs, prefix, node->type == JN_OBJ ? "{}" : "[]");
	for (size_t i = 0; i < node->n; i++) {
		char *key;
		int r;
		if (node->type == JN_OBJ)
			r = asprintf(&key, "%s%s%s", prefix, *prefix ? "." : "", node->keys[i]);
		else
			r = asprintf(&key, "%s%s%zu", prefix, *prefix ? "." : "", i);
		if (r < 0)
			return -ENOMEM;
		r = bb_kvs_flatten(kvs, key, node->items[i]);
		free(key);
		if (r)
			return r;
	}
	return 0;
}
