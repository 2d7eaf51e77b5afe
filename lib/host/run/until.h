/*
 * `benchboot run --until P%`: after every boot, the interval of the primary stat's %change
 * between the two sides (two kernels, or the two values of another key) from what is collected
 * so far (host/compare/primary.h, compare's statistics); settled when the interval is within
 * +/- P% of its estimate or excludes 0 by more than P%.
 *
 * Looking after every boot and stopping at the first look that settles would make a 95%
 * interval wrong far more often than 5% (each look is another chance to stop on noise). The
 * looks are planned: at most --max-boots boots, and an interval from the fourth boot on (two a
 * side), so at most max_boots - 3 of them. Each look's interval has confidence
 * 1 - 0.05 / looks (alpha spent evenly over the planned looks, a union bound: Bonferroni, as
 * bisect spends its alpha, host/bisect/decide.h), so the chance that any interval shown misses
 * the true change, and with it the chance of a false "changed", stays within 5% whenever it
 * stops.
 */
#ifndef BENCHBOOT_HOST_RUN_UNTIL_H
#define BENCHBOOT_HOST_RUN_UNTIL_H

#include <stddef.h>

struct bb_until {
	double target;     /* P, in % */
	const char *key;   /* what tells the sides apart: kernel, or a parameter */
	const char *a, *b; /* its two values (NULL: the folder's two) */
	const char *stat;  /* NULL: the suite's primary stat */
	double confidence; /* each look's: bb_until_confidence(max_boots) */
	void (*say)(void *ctx, const char *line); /* one line per matched run */
	void *ctx;
};

/* Each look's confidence with at most max_boots boots (above): 0.95 spread over the looks. */
double bb_until_confidence(size_t max_boots);

/*
 * Check the results folder dir. 1: settled (why says how), 0: not yet (why says what is
 * missing), -EINVAL: it cannot settle (a bad key or stat: err says why), -ENOMEM.
 */
int bb_until_check(const struct bb_until *u, const char *dir, char *why, size_t whylen, char *err,
                   size_t errlen);

#endif
