/*
 * The one array-growth helper of benchboot (init and host): make room for `need` elements of
 * `elem` bytes in the malloc'd array *pp that has room for *cap now. Capacity doubles (at
 * least 8), so appending one at a time is amortised O(1). 0, or -ENOMEM (the array is then
 * unchanged and still owned by the caller).
 *
 *     if (bb_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)))
 *             return -ENOMEM;
 *     l->v[l->n++] = item;
 */
#ifndef BENCHBOOT_GROW_H
#define BENCHBOOT_GROW_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

static inline int bb_grow(void *pp, size_t *cap, size_t need, size_t elem)
{
	void **p = (void **)pp;
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 8;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (elem && n > SIZE_MAX / elem)
		return -ENOMEM;
	void *q = realloc(*p, n * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

#endif
