/*
 * A set of named stats of one iteration (statset.c): what the output parsers fill and
 * stats_for_run (stats.h) returns; results.json is built from it (resjson.h).
 */
#ifndef BENCHBOOT_STATSET_H
#define BENCHBOOT_STATSET_H

#include <stddef.h>

struct bb_stat {
	char name[128];
	double value;
	char unit[16];
};

struct bb_stats {
	struct bb_stat *v;
	size_t n, cap;
};

/* Append (name, value, unit); a name longer than 127 bytes is -ENAMETOOLONG. 0 or -errno. */
int bb_stats_add(struct bb_stats *s, const char *name, double value, const char *unit);
/* The stat called name, or NULL. */
const struct bb_stat *bb_stats_find(const struct bb_stats *s, const char *name);

void bb_stats_free(struct bb_stats *s);

#endif
