/*
 * A seeded simulator of a bisection's boots, behind the decision core's source interface
 * (host/bisect/decide.h): per-boot means with a boot-to-boot spread (CV), up to two steps at
 * known candidates, a slow drift over the bisection, outliers, failed boots and candidates
 * that do not build. The Monte-Carlo tests of the decision core and `make bench`'s cost of a
 * bisection (bench/bisect-cost.sh) drive the real decision code with it. Host only; no I/O.
 */
#ifndef BENCHBOOT_HOST_BISECT_SIMULATE_H
#define BENCHBOOT_HOST_BISECT_SIMULATE_H

#include <stddef.h>
#include <stdint.h>

#include "host/bisect/decide.h"

#define BB_SIM_MAX_CAND 64

struct bb_bisect_sim {
	uint64_t rng;
	size_t ncand;
	size_t step_at[2];
	double step[2];   /* relative change from step_at[k] on (e.g. -0.2); 0: none */
	double cv;        /* boot-to-boot CV of the per-boot mean (default 0.03) */
	double drift;     /* relative change per boot over the whole bisection */
	double p_outlier; /* a boot 15% slow */
	double p_fail;    /* a boot that fails */
	int unbuildable[BB_SIM_MAX_CAND];
	/* the host's share of the spread: one factor of this CV per boot, common to the two
	 * VMs of a pair booted side by side (they see the same host); 0: none */
	double cv_host;
	int pairs;              /* the source boots pairs (bb_bisect_sim_source's boot_pair) */
	size_t t, pairs_booted; /* boots so far; pairs of them side by side */
};

/* seed's simulator of ncand candidates, no step, CV 0.03. */
void bb_bisect_sim_init(struct bb_bisect_sim *s, uint64_t seed, size_t ncand);
/* Uniform on (0, 1) and standard normal draws from its generator. */
double bb_bisect_sim_uniform(struct bb_bisect_sim *s);
/* One boot of cand (3 values around its mean), as decide.h's source: 0, or 1 failed. */
int bb_bisect_sim_boot(void *sim, size_t cand, double *vals, size_t cap, size_t *n, char *err,
                       size_t errlen);
/* The source: boot, and boot_pair when s->pairs. */
struct bb_bisect_source bb_bisect_sim_source(struct bb_bisect_sim *s);

#endif
