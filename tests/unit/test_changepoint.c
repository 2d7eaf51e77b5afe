/* Change points (lib/host/store/changepoint.h) on generated series with known steps and noise:
 * a step found at its place, none in flat noise, two steps both found, splits only between
 * kernels; precision and recall over many series (docs/history.md records the figures). */
#include "harness.h"
#include "host/store/changepoint.h"
#include "test_rng.h"

static uint64_t rng = 88172645463325252ULL;

static double uniform(void)
{
	return test_uniform(&rng);
}

static double gauss(void)
{
	return test_normal(&rng);
}

/* kernels x boots per-boot values around 1000 with noise sd (relative), step% from kernel
 * step_at on (0: none); cut: each point's kernel */
static void series(double *v, size_t *cut, size_t kernels, size_t boots, double sd, double step,
                   size_t step_at)
{
	for (size_t k = 0; k < kernels; k++)
		for (size_t b = 0; b < boots; b++) {
			size_t i = k * boots + b;
			double level = step_at && k >= step_at ? 1000 * (1 + step / 100) : 1000;
			v[i] = level * (1 + sd / 100 * gauss());
			cut[i] = k;
		}
}

TEST(changepoint_finds_a_step_between_kernels)
{
	double v[60];
	size_t cut[60];
	struct bb_changepoint cps[8];
	size_t n;
	series(v, cut, 20, 3, 1, -5, 12);
	CHECK_INT(bb_changepoints(v, cut, 60, 2, 0.0001, cps, 8, &n), ==, 0);
	CHECK_INT(n, ==, 1);
	CHECK_INT(cps[0].at, ==, 36);
	CHECK(cps[0].p < 0.001);
}

TEST(changepoint_none_in_flat_noise)
{
	double v[60];
	size_t cut[60];
	struct bb_changepoint cps[8];
	size_t n, found = 0;
	for (int r = 0; r < 200; r++) {
		series(v, cut, 20, 3, 1, 0, 0);
		CHECK_INT(bb_changepoints(v, cut, 60, 2, 0.0001, cps, 8, &n), ==, 0);
		found += n;
	}
	/* 200 flat series: a change point in at most 2% of them */
	fprintf(stderr, "flat series: %zu change points in 200 series of 20 kernels x 3 boots\n",
	        found);
	CHECK_INT(found, <=, 4);
}

TEST(changepoint_two_steps)
{
	double v[90];
	size_t cut[90];
	struct bb_changepoint cps[8];
	size_t n;
	series(v, cut, 30, 3, 1, 0, 0);
	for (size_t i = 30; i < 90; i++)
		v[i] *= 1.06; /* +6% from kernel 10 */
	for (size_t i = 60; i < 90; i++)
		v[i] *= 0.95; /* then -5% from kernel 20 */
	CHECK_INT(bb_changepoints(v, cut, 90, 2, 0.0001, cps, 8, &n), ==, 0);
	CHECK_INT(n, ==, 2);
	CHECK_INT(cps[0].at, ==, 30);
	CHECK_INT(cps[1].at, ==, 60);
}

TEST(changepoint_recall_by_step_size)
{
	/* steps of 2%, 3% and 5% at 1% noise, 20 kernels x 3 boots, the step at a random kernel
	 * 4..16: found at its exact place (recall), and change points elsewhere (precision) */
	static const double steps[] = {2, 3, 5};
	double v[60];
	size_t cut[60];
	struct bb_changepoint cps[8];
	for (size_t s = 0; s < 3; s++) {
		size_t exact = 0, near = 0, other = 0, n;
		for (int r = 0; r < 200; r++) {
			size_t at = 4 + (size_t)(uniform() * 13);
			series(v, cut, 20, 3, 1, steps[s], at);
			CHECK_INT(bb_changepoints(v, cut, 60, 2, 0.0001, cps, 8, &n), ==, 0);
			for (size_t i = 0; i < n; i++) {
				exact += cps[i].at == at * 3;
				near += cps[i].at == at * 3 - 3 || cps[i].at == at * 3 + 3;
				other += cps[i].at != at * 3 && cps[i].at + 3 != at * 3 &&
				         cps[i].at != at * 3 + 3;
			}
		}
		fprintf(
		    stderr,
		    "step %.0f%%: found at its place in %zu of 200 series, a kernel off in %zu, "
		    "elsewhere %zu\n",
		    steps[s], exact, near, other);
		if (steps[s] >= 3)
			CHECK_INT(exact, >=, 190);
		CHECK_INT(other, <=, 4);
	}
}

TEST(welch_p_values)
{
	const double a[] = {1, 2, 3, 4}, b[] = {1, 2, 3, 4}, c[] = {11, 12, 13, 14};
	CHECK_NEAR(bb_welch_p(a, 4, b, 4), 1, 1e-9);
	CHECK(bb_welch_p(a, 4, c, 4) < 1e-4);
	CHECK_NEAR(bb_welch_p(a, 1, c, 4), 1, 1e-9);
	/* t = 2.0 on 6 df (equal sizes and spread): p = 0.0924 */
	const double d[] = {1, 2, 3, 4}, e[] = {2.8257, 3.8257, 4.8257, 5.8257};
	CHECK_NEAR(bb_welch_p(d, 4, e, 4), 0.0924, 2e-3);
}
