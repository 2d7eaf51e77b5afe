/*
 * run --until's stop rule under repeated looks, on simulated A/A streams: boots alternate A and
 * B (both the same kernel: boot-to-boot noise only, 2 values a boot), the interval is looked at
 * after every boot from the fourth on, and the stream stops at the first look that settles
 * (bb_primary_settled) or at --max-boots. With each look at bb_until_confidence's level, the
 * streams that stop on a false "changed" stay within 5% (an upper binomial bound over the
 * streams, so a correct rule fails this test about once in 10^4 runs); with a plain 95% at every
 * look they do not, which shows that this test can fail. A known change of 5% is still found.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "host/compare/primary.h"
#include "host/run/until.h"
#include "test_rng.h"

#define STREAMS 2000
#define MAX_BOOTS 20

static uint64_t rng_state;

static double normal(void)
{
	return test_normal(&rng_state);
}

/* One stream: B's true change (in %), the spread of a boot's mean (in %), the stop rule's
 * target and each look's confidence. The boots it took into *boots, the last interval into
 * *last; the settled state. */
static enum bb_settled stream(double change, double boot_sd, double target, double confidence,
                              size_t *boots, struct bb_interval *last)
{
	double a[2 * MAX_BOOTS], b[2 * MAX_BOOTS];
	size_t boot_a[2 * MAX_BOOTS], boot_b[2 * MAX_BOOTS], na = 0, nb = 0;
	for (size_t i = 0; i < MAX_BOOTS; i++) {
		double level =
		    100 * (i % 2 ? 1 + change / 100 : 1) * (1 + boot_sd / 100 * normal());
		for (int k = 0; k < 2; k++) {
			double v = level * (1 + 0.01 * normal());
			if (i % 2) {
				b[nb] = v;
				boot_b[nb++] = i;
			} else {
				a[na] = v;
				boot_a[na++] = i;
			}
		}
		if (i < 3)
			continue;
		struct bb_primary p = {0};
		if (bb_change_interval(a, boot_a, na, b, boot_b, nb, NULL, confidence, &p.iv))
			return BB_UNSETTLED;
		enum bb_settled s = bb_primary_settled(&p, target);
		*last = p.iv;
		if (s != BB_UNSETTLED || i + 1 == MAX_BOOTS) {
			*boots = i + 1;
			return s;
		}
	}
	*boots = MAX_BOOTS;
	return BB_UNSETTLED;
}

/* Over STREAMS streams: the share that stopped on "changed", the share whose last interval
 * lies below 0 (a slowdown shown), and their mean boots. */
static double changed_share(double change, double boot_sd, double target, double confidence,
                            double *below, double *mean_boots)
{
	size_t changed = 0, neg = 0, total = 0;
	rng_state = 0x9e3779b97f4a7c15ULL;
	for (int s = 0; s < STREAMS; s++) {
		size_t boots;
		struct bb_interval iv = {0};
		changed +=
		    stream(change, boot_sd, target, confidence, &boots, &iv) == BB_SETTLED_CHANGED;
		neg += iv.bounded && iv.hi < 0;
		total += boots;
	}
	*below = (double)neg / STREAMS;
	*mean_boots = (double)total / STREAMS;
	return (double)changed / STREAMS;
}

TEST(until_confidence_spreads_alpha_over_the_looks)
{
	/* 20 boots: an interval after boots 4 to 20, 17 looks */
	CHECK_NEAR(bb_until_confidence(20), 1 - 0.05 / 17, 1e-12);
	CHECK_NEAR(bb_until_confidence(5), 1 - 0.05 / 2, 1e-12);
	CHECK_NEAR(bb_until_confidence(4), 0.95, 1e-12);
	CHECK_NEAR(bb_until_confidence(1), 0.95, 1e-12);
}

TEST(until_aa_false_changed_within_alpha_at_any_stop)
{
	double boots, plain_boots, below;
	/* a target far below the noise, so that streams rarely stop as narrow and every look is a
	 * chance of a false "changed" */
	double fp = changed_share(0, 5, 0.1, bb_until_confidence(MAX_BOOTS), &below, &boots);
	double plain = changed_share(0, 5, 0.1, 0.95, &below, &plain_boots);
	fprintf(stderr,
	        "A/A, %d streams of up to %d boots, 5%% boot noise, --until 0.1%%: false changed "
	        "%.2f%% with alpha spent over the looks (mean %.1f boots), %.2f%% at 95%% every "
	        "look\n",
	        STREAMS, MAX_BOOTS, 100 * fp, boots, 100 * plain);
	/* 5% plus 3.7 standard errors of a 5% share over STREAMS */
	double bound = 0.05 + 3.7 * sqrt(0.05 * 0.95 / STREAMS);
	CHECK(fp <= bound);
	/* the plain 95% interval at every look: well above 5%, so the check above can fail */
	CHECK(plain > bound);
}

TEST(until_finds_a_known_change)
{
	double boots, below;
	/* B 5% slower, 2% boot noise, --until 2%: it stops with an interval below 0 */
	double changed = changed_share(-5, 2, 2, bb_until_confidence(MAX_BOOTS), &below, &boots);
	double plain_below, plain_boots;
	double plain = changed_share(-5, 2, 2, 0.95, &plain_below, &plain_boots);
	fprintf(stderr,
	        "-5%% change, 2%% boot noise, --until 2%%: changed by more than 2%% in %.1f%% of "
	        "streams, the last interval below 0 in %.1f%%, mean %.1f boots (at 95%% every "
	        "look: %.1f%%, %.1f%%, %.1f boots)\n",
	        100 * changed, 100 * below, boots, 100 * plain, 100 * plain_below, plain_boots);
	CHECK(below > 0.9);
	CHECK(boots < MAX_BOOTS);
}
