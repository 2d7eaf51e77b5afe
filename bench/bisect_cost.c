/*
 * usage: bisect-cost CV BOOT_SECONDS [RUNS]
 *
 * The cost of a bisection (bench/bisect-cost.sh): among 8 and 16 candidates, with a step of
 * each size at a random candidate, RUNS simulated bisections (host/bisect/simulate.h, the
 * boot-to-boot spread CV and the boot length measured here) are decided three ways on the same
 * boots' generator: benchboot's decision core (host/bisect/decide.h, the defaults: alpha 0.05,
 * looks 3 5 8 13 20), a bisection by hand with one boot a candidate (the ends once each, a
 * candidate new when its boot lies nearer the bad end's), and LKP's rule with 3 boots a
 * candidate (a candidate new when its min..max range is apart from the good end's on the bad
 * side, lib/changed_stat.rb's separation). Each line: the culprit found, wrong, or none named
 * (benchboot only: the range left, or no reproducible change), the boots and the wall time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/bisect/decide.h"
#include "host/bisect/simulate.h"

struct tally {
	size_t found, wrong, none, boots;
};

/* One boot's mean, retried on a failed boot. */
static double boot_mean(struct bb_bisect_sim *s, size_t cand, size_t *boots)
{
	double v[8];
	size_t n = 0;
	char err[64];
	for (int tries = 0; tries < 20; tries++) {
		++*boots;
		if (!bb_bisect_sim_boot(s, cand, v, 8, &n, err, sizeof(err)) && n) {
			double m = 0;
			for (size_t i = 0; i < n; i++)
				m += v[i];
			return m / (double)n;
		}
	}
	return 0;
}

/* The classic bisection: lo old, hi new; is(cand) says new. */
static size_t bisect_by(size_t ncand, int (*is_new)(void *, size_t), void *ctx)
{
	size_t lo = 0, hi = ncand - 1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (is_new(ctx, mid))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

struct hand {
	struct bb_bisect_sim *s;
	size_t boots;
	double good, bad;
};

static int hand_new(void *c, size_t cand)
{
	struct hand *h = c;
	double m = boot_mean(h->s, cand, &h->boots);
	return (m - h->good) * (m - h->good) > (m - h->bad) * (m - h->bad);
}

struct lkp {
	struct bb_bisect_sim *s;
	size_t boots;
	double good_min, good_max, bad_mid;
};

static void range3(struct lkp *l, size_t cand, double *min, double *max, double *mean)
{
	*min = 1e300;
	*max = -1e300;
	*mean = 0;
	for (int i = 0; i < 3; i++) {
		double m = boot_mean(l->s, cand, &l->boots);
		*min = m < *min ? m : *min;
		*max = m > *max ? m : *max;
		*mean += m / 3;
	}
}

static int lkp_new(void *c, size_t cand)
{
	struct lkp *l = c;
	double min, max, mean;
	range3(l, cand, &min, &max, &mean);
	int below = l->bad_mid < l->good_min;
	return below ? max < l->good_min : min > l->good_max;
}

static void run_one(size_t ncand, double step, double cv, unsigned seed, struct tally t[3])
{
	struct bb_bisect_sim s;
	bb_bisect_sim_init(&s, seed, ncand);
	s.cv = cv;
	s.step_at[0] = 1 + (size_t)(bb_bisect_sim_uniform(&s) * (double)(ncand - 1));
	s.step[0] = step;
	s.p_fail = 0.02;
	size_t at = s.step_at[0];
	struct bb_bisect_sim start = s;

	/* benchboot */
	struct bb_bisect_opts o = {.ncand = ncand};
	struct bb_bisect_result res;
	struct bb_bisect_source src = bb_bisect_sim_source(&s);
	char err[256];
	if (bb_bisect(&o, &src, &res, err, sizeof(err)) == 0) {
		t[0].boots += res.boots;
		if (res.outcome == BB_B_CULPRIT)
			res.hi == at ? t[0].found++ : t[0].wrong++;
		else
			t[0].none++;
	}
	bb_bisect_result_free(&res);

	/* by hand, one boot a candidate */
	s = start;
	struct hand h = {.s = &s};
	h.good = boot_mean(&s, 0, &h.boots);
	h.bad = boot_mean(&s, ncand - 1, &h.boots);
	size_t got = bisect_by(ncand, hand_new, &h);
	t[1].boots += h.boots;
	got == at ? t[1].found++ : t[1].wrong++;

	/* LKP's separation, 3 boots a candidate */
	s = start;
	struct lkp l = {.s = &s};
	double bmin, bmax, mean;
	range3(&l, 0, &l.good_min, &l.good_max, &mean);
	range3(&l, ncand - 1, &bmin, &bmax, &l.bad_mid);
	got = bisect_by(ncand, lkp_new, &l);
	t[2].boots += l.boots;
	got == at ? t[2].found++ : t[2].wrong++;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bisect-cost CV BOOT_SECONDS [RUNS]\n");
		return 100;
	}
	double cv = atof(argv[1]), boot_s = atof(argv[2]);
	size_t runs = argc > 3 ? (size_t)atol(argv[3]) : 1000;
	const double steps[] = {-0.02, -0.05, -0.10, -0.20, -0.50};
	const char *who[] = {"benchboot", "by hand, 1 boot", "LKP rule, 3 boots"};
	printf("%zu bisections a line; boot-to-boot CV %.1f%%, %.0f s a boot\n", runs, 100 * cv,
	       boot_s);
	printf("%-5s %-6s %-18s %7s %7s %7s %8s %9s\n", "cands", "step", "decided by", "found",
	       "wrong", "none", "boots", "wall");
	for (size_t nc = 8; nc <= 16; nc *= 2)
		for (size_t k = 0; k < sizeof(steps) / sizeof(*steps); k++) {
			struct tally t[3];
			memset(t, 0, sizeof(t));
			for (size_t i = 0; i < runs; i++)
				run_one(nc, steps[k], cv, (unsigned)(i * 7919 + nc * 104729 + k),
				        t);
			for (int w = 0; w < 3; w++) {
				double b = (double)t[w].boots / (double)runs;
				printf(
				    "%-5zu %+5.0f%% %-18s %6.1f%% %6.1f%% %6.1f%% %8.1f %7.1f m\n",
				    nc, 100 * steps[k], who[w],
				    100.0 * (double)t[w].found / (double)runs,
				    100.0 * (double)t[w].wrong / (double)runs,
				    100.0 * (double)t[w].none / (double)runs, b, b * boot_s / 60);
			}
		}
	return 0;
}
