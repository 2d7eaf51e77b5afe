/* Environment differences between two sides; see envdiff.h. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host/results/envdiff.h"
#include "host/results/strset.h"

/* Environment fields that change from boot to boot by nature, not by setup. */
static int env_ignored(const char *key)
{
	static const char *const last[] = {
	    "boot_id",    "bootid",   "seq",           "sequence",     "time",       "date",
	    "timestamp",  "uptime",   "started",       "finished",     "started_at", "finished_at",
	    "start_time", "end_time", "btime",         "boot_time",    "elapsed",    "duration",
	    "mem_free",   "memfree",  "mem_available", "memavailable", "disk_id",    "results_disk",
	};
	static const char *const exact[] = {"boot.id", "boot.seq", "boot.number", "id"};
	const char *dot = strrchr(key, '.');
	const char *tail = dot ? dot + 1 : key;
	size_t tl = strlen(tail);
	/* timings of the setup (milliseconds) and the setup section as a whole */
	if ((tl > 3 && !strcmp(tail + tl - 3, "_ms")) || !strncmp(key, "setup.", 6))
		return 1;
	for (size_t i = 0; i < sizeof(last) / sizeof(*last); i++)
		if (!strcasecmp(tail, last[i]))
			return 1;
	for (size_t i = 0; i < sizeof(exact) / sizeof(*exact); i++)
		if (!strcmp(key, exact[i]))
			return 1;
	return 0;
}

/* Differences between two lists of environment records (each kvs one boot or one run). */
int bb_env_diff_compute(const struct bb_pairs *const *a, size_t na, const struct bb_pairs *const *b,
                        size_t nb, struct bb_env_diff **out, size_t *nout)
{
	struct bb_strset keys = {0};
	int r = -1;
	*out = NULL;
	*nout = 0;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < (s ? nb : na); i++) {
			const struct bb_pairs *k = s ? b[i] : a[i];
			for (size_t j = 0; j < k->n; j++)
				if (!env_ignored(k->v[j].key) && bb_strset_add(&keys, k->v[j].key))
					goto out;
		}
	qsort(keys.v, keys.n, sizeof(*keys.v), bb_value_cmp);
	for (size_t i = 0; i < keys.n; i++) {
		struct bb_strset va = {0}, vb = {0};
		for (int s = 0; s < 2; s++)
			for (size_t j = 0; j < (s ? nb : na); j++) {
				const char *v = bb_pairs_get(s ? b[j] : a[j], keys.v[i]);
				if (bb_strset_add(s ? &vb : &va, v ? v : "(absent)")) {
					bb_strset_free(&va);
					bb_strset_free(&vb);
					goto out;
				}
			}
		int same = va.n == vb.n;
		for (size_t j = 0; same && j < va.n; j++) {
			int found = 0;
			for (size_t k = 0; k < vb.n; k++)
				found |= !strcmp(va.v[j], vb.v[k]);
			same = found;
		}
		if (!same) {
			struct bb_env_diff *nd = realloc(*out, (*nout + 1) * sizeof(*nd));
			if (!nd) {
				bb_strset_free(&va);
				bb_strset_free(&vb);
				goto out;
			}
			*out = nd;
			nd[*nout].key = strdup(keys.v[i]);
			nd[*nout].a = bb_strset_join(&va, "(absent)");
			nd[*nout].b = bb_strset_join(&vb, "(absent)");
			(*nout)++;
		}
		bb_strset_free(&va);
		bb_strset_free(&vb);
	}
	r = 0;
out:
	bb_strset_free(&keys);
	return r;
}

void bb_env_diffs_free(struct bb_env_diff *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].key);
		free(d[i].a);
		free(d[i].b);
	}
	free(d);
}
