/* A set of distinct strings; see strset.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare/strset.h"
#include "grow.h"

int bb_strset_has(const struct bb_strset *s, const char *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], x))
			return 1;
	return 0;
}

int bb_strset_add(struct bb_strset *s, const char *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], x))
			return 0;
	if (bb_grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v)) || !(s->v[s->n] = strdup(x)))
		return -ENOMEM;
	s->n++;
	return 0;
}

void bb_strset_free(struct bb_strset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

int bb_value_cmp(const void *x, const void *y)
{
	const char *a = *(char *const *)x, *b = *(char *const *)y;
	char *ea, *eb;
	double da = strtod(a, &ea), db = strtod(b, &eb);
	if (ea != a && eb != b && !*ea && !*eb && da != db)
		return da < db ? -1 : 1;
	return strcmp(a, b);
}

char *bb_strset_join(struct bb_strset *s, const char *empty)
{
	if (!s->n)
		return strdup(empty);
	qsort(s->v, s->n, sizeof(*s->v), bb_value_cmp);
	size_t len = 1;
	for (size_t i = 0; i < s->n; i++)
		len += strlen(s->v[i]) + 2;
	char *out = malloc(len), *o = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < s->n; i++)
		o += sprintf(o, "%s%s", i ? ", " : "", s->v[i]);
	*o = 0;
	return out;
}
