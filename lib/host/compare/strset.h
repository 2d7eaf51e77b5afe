/*
 * A small set of distinct strings, in the order first added, for the comparison (stat names,
 * environment values, parameter keys). Host only.
 */
#ifndef BENCHBOOT_HOST_RESULTS_STRSET_H
#define BENCHBOOT_HOST_RESULTS_STRSET_H

#include <stddef.h>

struct bb_strset {
	char **v;
	size_t n, cap;
};

/* Add a copy of x unless it is there already. 0, or -ENOMEM. */
int bb_strset_add(struct bb_strset *s, const char *x);
int bb_strset_has(const struct bb_strset *s, const char *x);
void bb_strset_free(struct bb_strset *s);
/* Sort (bb_value_cmp) and join with ", "; empty when the set is empty. malloc'ed or NULL. */
char *bb_strset_join(struct bb_strset *s, const char *empty);
/* qsort comparator for an array of strings (char *): numbers in numeric order, the rest as
 * text. */
int bb_value_cmp(const void *x, const void *y);

#endif
