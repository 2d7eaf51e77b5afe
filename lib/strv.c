/* String vectors and key/value lists; see strv.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "strv.h"

int bb_strv_addn(struct bb_strv *sv, const char *s, size_t len)
{
	if (bb_grow(&sv->v, &sv->cap, sv->n + 1, sizeof(*sv->v)))
		return -ENOMEM;
	if (!(sv->v[sv->n] = strndup(s, len)))
		return -ENOMEM;
	sv->n++;
	return 0;
}

int bb_strv_add(struct bb_strv *sv, const char *s)
{
	return bb_strv_addn(sv, s, strlen(s));
}

int bb_strv_add_words(struct bb_strv *sv, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, " \t");
		if (n && bb_strv_addn(sv, s, n))
			return -ENOMEM;
		s += n;
		s += strspn(s, " \t");
	}
	return 0;
}

void bb_strv_free(struct bb_strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

struct bb_kv *bb_kvs_find(const struct bb_kvs *kvs, const char *key)
{
	for (size_t i = 0; i < kvs->n; i++)
		if (!strcmp(kvs->v[i].key, key))
			return &kvs->v[i];
	return NULL;
}

const char *bb_kvs_get(const struct bb_kvs *kvs, const char *key)
{
	const struct bb_kv *kv = bb_kvs_find(kvs, key);
	return kv ? kv->value : NULL;
}

const char *bb_kvs_get_or(const struct bb_kvs *kvs, const char *key, const char *def)
{
	const char *v = bb_kvs_get(kvs, key);
	return v ? v : def;
}

int bb_kvs_equal(const struct bb_kvs *a, const struct bb_kvs *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].key, b->v[i].key) || strcmp(a->v[i].value, b->v[i].value))
			return 0;
	return 1;
}

int bb_kvs_add(struct bb_kvs *kvs, const char *key, const char *value)
{
	if (bb_grow(&kvs->v, &kvs->cap, kvs->n + 1, sizeof(*kvs->v)))
		return -ENOMEM;
	struct bb_kv *kv = &kvs->v[kvs->n];
	kv->key = strdup(key);
	kv->value = strdup(value);
	if (!kv->key || !kv->value) {
		free(kv->key);
		free(kv->value);
		return -ENOMEM;
	}
	kvs->n++;
	return 0;
}

int bb_kvs_set(struct bb_kvs *kvs, const char *key, const char *value)
{
	struct bb_kv *kv = bb_kvs_find(kvs, key);
	if (!kv)
		return bb_kvs_add(kvs, key, value);
	char *copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	free(kv->value);
	kv->value = copy;
	return 0;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct bb_kv *)a)->key, ((const struct bb_kv *)b)->key);
}

void bb_kvs_sort(struct bb_kvs *kvs)
{
	if (kvs->n)
		qsort(kvs->v, kvs->n, sizeof(*kvs->v), by_key);
}

void bb_kvs_free(struct bb_kvs *kvs)
{
	for (size_t i = 0; i < kvs->n; i++) {
		free(kvs->v[i].key);
		free(kvs->v[i].value);
	}
	free(kvs->v);
	memset(kvs, 0, sizeof(*kvs));
}

int bb_kvs_parse_words(struct bb_kvs *kvs, const char *text)
{
	char *copy = strdup(text), *save = NULL;
	if (!copy)
		return -ENOMEM;
	for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(w, '=');
		if (eq) {
			*eq = 0;
			/* boot.params writes ' ' and '%' in values as %20 and %25 */
			char *o = eq + 1;
			for (const char *q = eq + 1; *q; q++) {
				if (q[0] == '%' && q[1] == '2' && (q[2] == '0' || q[2] == '5')) {
					*o++ = q[2] == '0' ? ' ' : '%';
					q += 2;
				} else {
					*o++ = *q;
				}
			}
			*o = 0;
		}
		if (bb_kvs_set(kvs, w, eq ? eq + 1 : "")) {
			free(copy);
			return -ENOMEM;
		}
	}
	free(copy);
	return 0;
}

char *bb_kvs_format_words(const struct bb_kvs *kvs)
{
	size_t len = 1;
	for (size_t i = 0; i < kvs->n; i++)
		len += strlen(kvs->v[i].key) + strlen(kvs->v[i].value) + 2;
	char *out = malloc(len), *o = out;
	if (!out)
		return NULL;
	*o = 0;
	for (size_t i = 0; i < kvs->n; i++)
		o += sprintf(o, "%s%s=%s", i ? " " : "", kvs->v[i].key, kvs->v[i].value);
	return out;
}
