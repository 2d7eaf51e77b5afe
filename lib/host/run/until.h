/*
 * `benchboot run --until P%`: after every boot, the 95% interval of the primary stat's
 * %change between the two sides (two kernels, or the two values of another key) from what is
 * collected so far (host/compare/primary.h, compare's statistics); settled when the interval
 * is within +/- P% of its estimate or excludes 0 by more than P%.
 */
#ifndef BENCHBOOT_HOST_RUN_UNTIL_H
#define BENCHBOOT_HOST_RUN_UNTIL_H

#include <stddef.h>

struct bb_until {
	double target;     /* P, in % */
	const char *key;   /* what tells the sides apart: kernel, or a parameter */
	const char *a, *b; /* its two values (NULL: the folder's two) */
	const char *stat;  /* NULL: the suite's primary stat */
	void (*say)(void *ctx, const char *line); /* one line per matched run */
	void *ctx;
};

/*
 * Check the results folder dir. 1: settled (why says how), 0: not yet (why says what is
 * missing), -EINVAL: it cannot settle (a bad key or stat: err says why), -ENOMEM.
 */
int bb_until_check(const struct bb_until *u, const char *dir, char *why, size_t whylen, char *err,
                   size_t errlen);

#endif
