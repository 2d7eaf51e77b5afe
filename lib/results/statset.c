/* A set of named stats of one iteration (the container the parsers fill); see statset.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "results/statset.h"

int bb_stats_add(struct bb_stats *s, const char *name, double value, const char *unit)
{
	if (strlen(name) >= sizeof s->v[0].name)
		return -ENAMETOOLONG;
	if (bb_grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v)))
		return -ENOMEM;
	struct bb_stat *st = &s->v[s->n++];
	memset(st, 0, sizeof *st);
	strcpy(st->name, name);
	st->value = value;
	snprintf(st->unit, sizeof st->unit, "%s", unit ? unit : "");
	return 0;
}

const struct bb_stat *bb_stats_find(const struct bb_stats *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}

void bb_stats_free(struct bb_stats *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}
