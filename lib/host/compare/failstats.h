/*
 * The kernel's reports as LKP's failure stats (lib/stats.rb, lib/compare.rb): per dmesg stat
 * (host/results/dmesg.h), how many boots of each side showed it, of those whose reports are
 * known (a console log or kmsg.log was read), a boot being LKP's job; and LKP's rule for such a
 * stat: changed when one side never showed it. docs/compare.md. Host only.
 */
#ifndef BENCHBOOT_HOST_RESULTS_FAILSTATS_H
#define BENCHBOOT_HOST_RESULTS_FAILSTATS_H

#include <stddef.h>

#include "host/compare/match.h"

struct bb_fail_stat {
	char *name;  /* dmesg.<error id> */
	char *first; /* the first console line that showed it (A's boots first) */
	size_t fails_a, runs_a, fails_b, runs_b; /* LKP's fail:runs of each side */
	double reproduction; /* %: 100 * (fails_b / runs_b - fails_a / runs_a) */
	int lkp_changed;     /* LKP's rule for failure stats: the max differs (one side never) */
};

/*
 * The failure stats of the two sides' boots, those without run results (bb_side.bare)
 * included, sorted by name, appended to *out (*n of them; *nchanged counts the changed ones).
 * 0, or -ENOMEM (what was made stays in *out for the caller to free).
 */
int bb_fail_stats(const struct bb_side *const sides[2], struct bb_fail_stat **out, size_t *n,
                  size_t *nchanged);

#endif
