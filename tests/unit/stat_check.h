/* What the parser tests ask of a stat set: a stat's value (the test fails when it is not
 * there), and whether two values agree to a part in a thousand. */
#ifndef BENCHBOOT_TESTS_STAT_CHECK_H
#define BENCHBOOT_TESTS_STAT_CHECK_H

#include <math.h>

#include "harness.h"
#include "results/statset.h"

#define stat_of(s, name) stat_of_at(__FILE__, __LINE__, (s), (name))

static inline double stat_of_at(const char *file, int line, const struct bb_stats *s,
                                const char *name)
{
	const struct bb_stat *st = bb_stats_find(s, name);
	if (!st)
		bb_test_fail(file, line, "no stat %s", name);
	return st ? st->value : NAN;
}

static inline int near(double a, double b)
{
	return fabs(a - b) < 1e-3 * fabs(b);
}

#endif
