/* The primary stat's values of one collected boot; see bootvals.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/bisect/bootvals.h"
#include "host/compare/primary.h"
#include "host/compare/results_tree.h"
#include "host/errbuf.h"

/* The stat of run that a bisection follows: want, else the lowest primary rank. */
static const struct bb_res_stat *followed(const struct bb_res_run *run, const char *want)
{
	const struct bb_res_stat *best = NULL;
	int best_rank = -1;
	if (want)
		return bb_run_stat(run, want);
	for (size_t i = 0; i < run->nstats; i++) {
		int rank = bb_primary_rank(run->stats[i].name);
		if (rank >= 0 && (!best || rank < best_rank)) {
			best = &run->stats[i];
			best_rank = rank;
		}
	}
	return best;
}

int bb_boot_values(const char *dir, const char *want, double *vals, size_t cap, size_t *n,
                   char *stat, size_t statlen, char *err, size_t errlen)
{
	struct bb_results res;
	const struct bb_res_run *run = NULL;
	const struct bb_res_stat *st = NULL;
	size_t failed = 0;
	int rc = bb_results_load(dir, &res, err, errlen);
	*n = 0;
	if (rc)
		return rc == -ENOENT || rc == -ENOTDIR ? -EINVAL : rc;
	for (size_t b = 0; b < res.nboots && !rc; b++)
		for (size_t r = 0; r < res.boots[b].nruns && !rc; r++) {
			const struct bb_res_run *x = &res.boots[b].runs[r];
			const struct bb_res_stat *s = followed(x, want);
			failed += x->failed_iterations;
			if (!s)
				continue;
			if (st)
				rc = bb_errbuf_fail(
				    err, errlen, -EINVAL,
				    "%s: runs %s and %s both have %s: a bisection follows "
				    "one run (narrow the job with --set, or name the stat "
				    "with --stat)",
				    dir, run->id, x->id, s->name);
			run = x;
			st = s;
		}
	if (!rc && (!st || !st->n))
		rc = failed || st
		         ? bb_errbuf_fail(err, errlen, -ENODATA,
		                          "%s: %zu failed iteration%s, no value of %s", dir, failed,
		                          failed == 1 ? "" : "s", want ? want : "the primary stat")
		         : bb_errbuf_fail(err, errlen, -EINVAL, "%s: no run has %s", dir,
		                          want ? want
		                               : "a primary stat (netperf.Throughput_Mbps, "
		                                 "netperf.Throughput_tps or *.ops_per_sec)");
	if (!rc) {
		*n = st->n < cap ? st->n : cap;
		memcpy(vals, st->vals, *n * sizeof(*vals));
		snprintf(stat, statlen, "%s", st->name);
	}
	bb_results_free(&res);
	return rc;
}
