/* A seeded simulator of a bisection's boots; see simulate.h. */
#include <math.h>
#include <string.h>

#include "host/bisect/simulate.h"

double bb_bisect_sim_uniform(struct bb_bisect_sim *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return ((double)(s->rng >> 11) + 0.5) / 9007199254740992.0;
}

static double bb_bisect_sim_normal(struct bb_bisect_sim *s)
{
	return sqrt(-2 * log(bb_bisect_sim_uniform(s))) * cos(2 * M_PI * bb_bisect_sim_uniform(s));
}

/* One boot of cand under the host factor host. */
static int boot_under(struct bb_bisect_sim *s, size_t cand, double host, double *vals, size_t cap,
                      size_t *n)
{
	s->t++;
	*n = 0;
	if ((cand < BB_SIM_MAX_CAND && s->unbuildable[cand]) ||
	    bb_bisect_sim_uniform(s) < s->p_fail)
		return 1;
	double m =
	    1000 * (1 + s->drift * (double)s->t) * (1 + s->cv * bb_bisect_sim_normal(s)) * host;
	for (int k = 0; k < 2; k++)
		if (s->step[k] && cand >= s->step_at[k])
			m *= 1 + s->step[k];
	if (bb_bisect_sim_uniform(s) < s->p_outlier)
		m *= 0.85;
	*n = 3 < cap ? 3 : cap;
	for (size_t i = 0; i < *n; i++)
		vals[i] = m * (1 + 0.005 * bb_bisect_sim_normal(s));
	return 0;
}

int bb_bisect_sim_boot(void *ctx, size_t cand, double *vals, size_t cap, size_t *n, char *err,
                       size_t errlen)
{
	struct bb_bisect_sim *s = ctx;
	double host = s->cv_host ? 1 + s->cv_host * bb_bisect_sim_normal(s) : 1;
	return boot_under(s, cand, host, vals, cap, n);
}

/* ref and cand side by side, sharing the host factor, as decide.h's boot_pair. */
static int bb_bisect_sim_boot_pair(void *ctx, size_t ref, size_t cand, double *vals[2], size_t cap,
                                   size_t n[2], int rc[2], char *err, size_t errlen)
{
	struct bb_bisect_sim *s = ctx;
	double host = s->cv_host ? 1 + s->cv_host * bb_bisect_sim_normal(s) : 1;
	s->pairs_booted++;
	rc[0] = boot_under(s, ref, host, vals[0], cap, &n[0]);
	rc[1] = boot_under(s, cand, host, vals[1], cap, &n[1]);
	return 0;
}

void bb_bisect_sim_init(struct bb_bisect_sim *s, uint64_t seed, size_t ncand)
{
	memset(s, 0, sizeof(*s));
	s->rng = seed * 2654435761u + 88172645463325252ull;
	s->ncand = ncand;
	s->cv = 0.03;
}

struct bb_bisect_source bb_bisect_sim_source(struct bb_bisect_sim *s)
{
	return (struct bb_bisect_source){.boot = bb_bisect_sim_boot,
	                                 .boot_pair = s->pairs ? bb_bisect_sim_boot_pair : NULL,
	                                 .ctx = s};
}
