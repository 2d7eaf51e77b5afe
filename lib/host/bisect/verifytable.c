/* The verification table of a bisection's result; see verifytable.h. */
#include <string.h>

#include "host/bisect/verifytable.h"
#include "host/compare/compare.h"
#include "host/compare/match.h"
#include "host/compare/render.h"
#include "host/compare/results_tree.h"

int bb_bisect_verify_table(FILE *f, const char *outdir, const char *parent, const char *culprit,
                           char *err, size_t errlen)
{
	struct bb_results res;
	struct bb_side side[2];
	struct bb_kvs ca = {0}, cb = {0};
	struct bb_comparison cmp;
	const char *axis[16];
	size_t naxis = 0;
	memset(side, 0, sizeof(side));
	int r = bb_results_load(outdir, &res, err, errlen);
	if (r)
		return r;
	const char *paths[2] = {outdir, outdir};
	const struct bb_kvs *const conds[2] = {&ca, &cb};
	if (!(r = bb_kvs_add(&ca, "kernel", parent)) && !(r = bb_kvs_add(&cb, "kernel", culprit)) &&
	    !(r = bb_sides_select(&res, paths, 1, conds, side, axis, &naxis, 16, err, errlen)) &&
	    !(r = bb_compare_more(&side[0], &side[1], axis, naxis, 0, &cmp, err, errlen))) {
		bb_comparison_print(f, &cmp, 0);
		bb_comparison_free(&cmp);
	}
	for (int s = 0; s < 2; s++)
		bb_side_free(&side[s]);
	bb_results_free(&res);
	bb_kvs_free(&ca);
	bb_kvs_free(&cb);
	return r;
}
