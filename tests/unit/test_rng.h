/*
 * The unit tests' seeded random numbers (xorshift64): the same stream on every machine, so a
 * Monte-Carlo test's figures are the same in every run. The state is the caller's.
 */
#ifndef BENCHBOOT_TEST_RNG_H
#define BENCHBOOT_TEST_RNG_H

#include <math.h>
#include <stdint.h>

static inline uint64_t test_rng_next(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* uniform in (0, 1) */
static inline double test_uniform(uint64_t *state)
{
	return ((double)(test_rng_next(state) >> 11) + 0.5) / 9007199254740992.0;
}

/* standard normal (Box-Muller) */
static inline double test_normal(uint64_t *state)
{
	double u = test_uniform(state);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * test_uniform(state));
}

#endif
