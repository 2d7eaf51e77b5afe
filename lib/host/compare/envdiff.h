/*
 * The environment fields that differ between two sides (boot env.json, run environment read
 * back), fields that change from boot to boot by nature (ids, times, free memory) left out.
 * Host only.
 */
#ifndef BENCHBOOT_HOST_RESULTS_ENVDIFF_H
#define BENCHBOOT_HOST_RESULTS_ENVDIFF_H

#include <stddef.h>

#include "host/compare/results_tree.h"

/*
 * One field that differs. A scalar field: a and b are the values each side's records hold,
 * ", "-joined, "(absent)" where a record has none. A list field (modules.loaded, cgroup.mounts:
 * flattened as KEY.N or KEY.N.FIELD) is compared as a set of elements (an element with fields
 * as "{k=v k=v}"): is_set is 1, key is the list's name, a the elements only A's records hold,
 * b those only B's hold, space-joined ("" for none).
 */
struct bb_env_diff {
	char *key, *a, *b;
	int is_set;
};

/* Differences between two lists of environment records (each kvs one boot or one run).
 * 0, or -ENOMEM. */
int bb_env_diff_compute(const struct bb_kvs *const *a, size_t na, const struct bb_kvs *const *b,
                        size_t nb, struct bb_env_diff **out, size_t *nout);
void bb_env_diffs_free(struct bb_env_diff *d, size_t n);

#endif
