/* The kernel's reports as LKP's failure stats; see failstats.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare/failstats.h"
#include "host/compare/strset.h"

static int fail_name_cmp(const void *x, const void *y)
{
	return strcmp(((const struct bb_fail_stat *)x)->name,
	              ((const struct bb_fail_stat *)y)->name);
}

int bb_fail_stats(const struct bb_side *const sides[2], struct bb_fail_stat **out, size_t *nout,
                  size_t *nchanged)
{
	const struct bb_res_boot **boots[2] = {
	    calloc(sides[0]->nruns + sides[0]->nbare + 1, sizeof(**boots)),
	    calloc(sides[1]->nruns + sides[1]->nbare + 1, sizeof(**boots))};
	struct bb_strset names = {0};
	size_t n[2] = {0, 0}, read[2] = {0, 0};
	int r = -ENOMEM;
	if (!boots[0] || !boots[1])
		goto out;
	for (int s = 0; s < 2; s++) {
		n[s] = bb_side_boots(sides[s], boots[s]);
		for (size_t i = 0; i < sides[s]->nbare; i++) /* boots without results count too */
			boots[s][n[s]++] = sides[s]->bare[i];
		for (size_t i = 0; i < n[s]; i++) {
			read[s] += boots[s][i]->dmesg_read;
			for (size_t k = 0; k < boots[s][i]->dmesg.n; k++)
				if (bb_strset_add(&names, boots[s][i]->dmesg.v[k].key))
					goto out;
		}
	}
	if (names.n && !(*out = calloc(names.n, sizeof(**out))))
		goto out;
	for (size_t k = 0; k < names.n; k++) {
		struct bb_fail_stat *fs = &(*out)[(*nout)++];
		size_t fails[2] = {0, 0};
		if (!(fs->name = strdup(names.v[k])))
			goto out;
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < n[s]; i++) {
				const char *line = bb_kvs_get(&boots[s][i]->dmesg, fs->name);
				if (!line)
					continue;
				fails[s]++;
				if (!fs->first && !(fs->first = strdup(line)))
					goto out;
			}
		fs->fails_a = fails[0];
		fs->fails_b = fails[1];
		fs->runs_a = read[0];
		fs->runs_b = read[1];
		fs->reproduction = 100.0 * ((read[1] ? (double)fails[1] / read[1] : 0) -
		                            (read[0] ? (double)fails[0] / read[0] : 0));
		fs->lkp_changed = !fails[0] != !fails[1];
		*nchanged += fs->lkp_changed;
	}
	if (*nout)
		qsort(*out, *nout, sizeof(**out), fail_name_cmp);
	r = 0;
out:
	bb_strset_free(&names);
	free(boots[0]);
	free(boots[1]);
	return r;
}
