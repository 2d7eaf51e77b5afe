/*
 * The bisection's decision core (host/bisect/decide.h) on a seeded simulator of boots: the
 * boot-to-boot spread measured here (CV of per-boot means 2-4%, docs/compare.md), a step at a
 * known candidate, drift, outliers, failed boots and unbuildable candidates. A Monte-Carlo of
 * 1000 bisections checks the wrong-culprit rate against the printed bound.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "harness.h"
#include "host/bisect/decide.h"

struct sim {
	uint64_t rng;
	size_t ncand;
	size_t step_at[2];
	double step[2];   /* relative change from step_at[k] on (e.g. -0.2) */
	double cv;        /* boot-to-boot CV of the per-boot mean */
	double drift;     /* relative change per boot over the whole bisection */
	double p_outlier; /* a boot 15% slow */
	double p_fail;    /* a boot that fails */
	int unbuildable[64];
	size_t t;
};

static double uniform(struct sim *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return ((s->rng >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(struct sim *s)
{
	return sqrt(-2 * log(uniform(s))) * cos(2 * M_PI * uniform(s));
}

static int sim_boot(void *ctx, size_t cand, double *vals, size_t cap, size_t *n, char *err,
                    size_t errlen)
{
	struct sim *s = ctx;
	s->t++;
	if (s->unbuildable[cand] || uniform(s) < s->p_fail)
		return 1;
	double m = 1000 * (1 + s->drift * s->t) * (1 + s->cv * normal(s));
	for (int k = 0; k < 2; k++)
		if (s->step[k] && cand >= s->step_at[k])
			m *= 1 + s->step[k];
	if (uniform(s) < s->p_outlier)
		m *= 0.85;
	*n = 3 < cap ? 3 : cap;
	for (size_t i = 0; i < *n; i++)
		vals[i] = m * (1 + 0.005 * normal(s));
	return 0;
}

static void sim_init(struct sim *s, uint64_t seed, size_t ncand)
{
	memset(s, 0, sizeof(*s));
	s->rng = seed * 2654435761u + 88172645463325252ull;
	s->ncand = ncand;
	s->cv = 0.03;
}

static int run(struct sim *s, int max_boots, struct bb_bisect_result *res)
{
	struct bb_bisect_opts o = {.ncand = s->ncand, .max_boots = max_boots};
	struct bb_bisect_source src = {sim_boot, s};
	char err[256];
	return bb_bisect(&o, &src, res, err, sizeof(err));
}

TEST(monte_carlo_wrong_culprit_within_bound)
{
	size_t wrong = 0, found = 0, undecided = 0, n = 1000, boots = 0;
	double bound = 0;
	for (size_t i = 0; i < n; i++) {
		struct sim s;
		struct bb_bisect_result res;
		sim_init(&s, i + 1, 16);
		s.step_at[0] = 1 + (size_t)(uniform(&s) * 15); /* 1..15 */
		s.step[0] = -0.20;
		s.cv = 0.02 + 0.02 * uniform(&s);
		s.drift = (uniform(&s) - 0.5) * 1e-4;
		s.p_outlier = 0.01;
		s.p_fail = 0.02;
		CHECK_INT(run(&s, 20, &res), ==, 0);
		if (res.bound > bound)
			bound = res.bound;
		boots += res.boots;
		if (res.outcome == BB_B_CULPRIT) {
			if (res.hi == s.step_at[0])
				found++;
			else
				wrong++;
		} else {
			/* no culprit named: the range left, or the bad end failing twice */
			if (res.outcome != BB_B_ENDS_UNTESTABLE)
				CHECK(res.outcome == BB_B_UNDECIDED || res.outcome == BB_B_RANGE);
			undecided++;
		}
		bb_bisect_result_free(&res);
	}
	printf(
	    "# %zu bisections: %zu found, %zu wrong, %zu undecided; bound %.3f; %.1f boots each\n",
	    n, found, wrong, undecided, bound, (double)boots / n);
	CHECK(bound <= 0.05 + 1e-12);
	CHECK((double)wrong / n <= bound);
	CHECK_INT(found, >=, n * 9 / 10);
}

TEST(aa_says_no_change)
{
	size_t changed = 0, n = 300;
	for (size_t i = 0; i < n; i++) {
		struct sim s;
		struct bb_bisect_result res;
		sim_init(&s, 5000 + i, 8);
		s.p_fail = 0.02;
		CHECK_INT(run(&s, 20, &res), ==, 0);
		if (res.outcome != BB_B_NO_CHANGE)
			changed++;
		else
			CHECK_INT(res.nsteps, ==, 1);
		bb_bisect_result_free(&res);
	}
	CHECK((double)changed / n <= 0.05);
}

TEST(two_half_steps_say_partial)
{
	size_t partial = 0, n = 100;
	for (size_t i = 0; i < n; i++) {
		struct sim s;
		struct bb_bisect_result res;
		sim_init(&s, 9000 + i, 16);
		s.step_at[0] = 5;
		s.step[0] = -0.10;
		s.step_at[1] = 11;
		s.step[1] = -0.10;
		CHECK_INT(run(&s, 30, &res), ==, 0);
		if (res.outcome == BB_B_CULPRIT) {
			CHECK(res.hi == 5 || res.hi == 11);
			CHECK(res.verify != BB_V_CONFIRMED);
			partial += res.verify == BB_V_PARTIAL;
		}
		bb_bisect_result_free(&res);
	}
	CHECK_INT(partial, >=, n * 8 / 10);
}

TEST(unbuildable_neighbour_gives_range)
{
	size_t ranges = 0, n = 50;
	for (size_t i = 0; i < n; i++) {
		struct sim s;
		struct bb_bisect_result res;
		sim_init(&s, 12000 + i, 16);
		s.step_at[0] = 8;
		s.step[0] = -0.20;
		s.unbuildable[7] = 1;
		CHECK_INT(run(&s, 20, &res), ==, 0);
		CHECK(res.outcome != BB_B_CULPRIT); /* never "8" with 7 unknown */
		if (res.outcome == BB_B_RANGE) {
			CHECK_INT(res.lo, ==, 6);
			CHECK_INT(res.hi, ==, 8);
			CHECK(res.untestable[7]);
			ranges++;
		}
		bb_bisect_result_free(&res);
	}
	CHECK_INT(ranges, >=, n * 9 / 10);
}

TEST(ends_and_steps_recorded)
{
	struct sim s;
	struct bb_bisect_result res;
	sim_init(&s, 42, 9);
	s.step_at[0] = 3;
	s.step[0] = 0.25; /* an improvement is bisected the same way */
	CHECK_INT(run(&s, 20, &res), ==, 0);
	CHECK_INT(res.outcome, ==, BB_B_CULPRIT);
	CHECK_INT(res.hi, ==, 3);
	CHECK_INT(res.lo, ==, 2);
	CHECK(res.change > 15 && res.change < 35);
	CHECK_INT(res.steps[0].verdict, ==, BB_V_CHANGED);
	CHECK_INT(res.verify, ==, BB_V_CONFIRMED);
	CHECK(res.share_lo > 75);
	/* 1 + 3 steps + verify for 9 candidates */
	CHECK_INT(res.nsteps, ==, 5);
	CHECK_STR(bb_bisect_verdict_name(res.steps[res.nsteps - 1].verdict), "confirmed");
	bb_bisect_result_free(&res);
}

TEST(callback_error_aborts)
{
	struct bb_bisect_opts o = {.ncand = 1};
	struct bb_bisect_result res;
	char err[256];
	struct sim s;
	sim_init(&s, 1, 4);
	struct bb_bisect_source src = {sim_boot, &s};
	CHECK_INT(bb_bisect(&o, &src, &res, err, sizeof(err)), ==, -EINVAL);
	bb_bisect_result_free(&res);
}
