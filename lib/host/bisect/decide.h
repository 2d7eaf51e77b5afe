/*
 * The decision core of a noise-aware performance bisection over an ordered list of candidates
 * (0 the good end, n-1 the bad end). Host only, no I/O: the boots come from a callback, so the
 * same code runs on a simulator and on real boots.
 *
 * 1. The ends: good against bad, interleaved (G B G B), at fixed looks, until the interval of
 *    the primary stat's %change (compare's, statistics.h: the boot is the unit) excludes 0 by
 *    more than min_change; else "no reproducible change". D: the change found.
 * 2. Each candidate M against fresh interleaved boots of the good end: "new" when the whole
 *    interval lies beyond D/2, "old" when it lies short of D/2, "part" (counted as new) when it
 *    straddles D/2 but excludes both 0 and D (M holds part of the change); else more boots at
 *    the next look, up to max_boots a side: then the range left is the answer.
 * 3. The culprit against its parent: the share of D it explains; "partial" when its interval
 *    lies short of 3/4 of D (and beyond 0).
 * Error budget: alpha is spread by a union bound over the planned comparisons (the ends, the
 * ceil(log2(n-1)) bisection steps, the verification and 2 spares for skips) and, within a
 * comparison, evenly over its looks: each look's interval has confidence 1 - alpha / (K L).
 * Comparisons past the plan spend a further share each; the bound printed is what was spent.
 * A candidate whose boots fail twice in a row is untestable: its neighbours are tried; when only
 * untestable candidates are left in the range, the range is the answer. A reference (the
 * good end, a culprit's parent) failing 4 times in a row aborts (-EIO).
 */
#ifndef BENCHBOOT_HOST_BISECT_DECIDE_H
#define BENCHBOOT_HOST_BISECT_DECIDE_H

#include <stddef.h>

#include "host/compare/statistics.h"

#define BB_BISECT_MAX_VALUES 64 /* values (iterations) a boot gives at most */
#define BB_BISECT_MAX_LOOKS 8

struct bb_bisect_source {
	/* Boot candidate i once: 0 with its value(s) of the primary stat in vals[0..*n) (1 <= *n
	 * <= cap), 1 when the boot (or the candidate's build) failed, -errno to abort (err set). */
	int (*boot)(void *ctx, size_t cand, double *vals, size_t cap, size_t *n, char *err,
	            size_t errlen);
	/*
	 * Or NULL: boot ref and cand side by side (a pair), each side as boot says (rc[k] 0 with
	 * its values in vals[k][0..n[k]), or 1 failed). 0 when the pair ran, -errno to abort.
	 * Both sides of a pair get one boot id, so when every boot of a comparison is in a whole
	 * pair the interval pairs them (host/compare/statistics.h).
	 */
	int (*boot_pair)(void *ctx, size_t ref, size_t cand, double *vals[2], size_t cap,
	                 size_t n[2], int rc[2], char *err, size_t errlen);
	void *ctx;
};

enum bb_bisect_verdict {
	BB_V_UNDECIDED = 0,
	BB_V_OLD,
	BB_V_NEW,
	BB_V_PART,           /* between the ends: part of the change (counted as new) */
	BB_V_UNTESTABLE,     /* its boots failed twice */
	BB_V_CHANGED,        /* the ends: a change */
	BB_V_NO_CHANGE,      /* the ends: none beyond min_change */
	BB_V_CONFIRMED,      /* verify: explains the change */
	BB_V_PARTIAL,        /* verify: explains clearly less: more than one change */
	BB_V_NOT_REPRODUCED, /* verify: no change told apart from its parent */
};
const char *bb_bisect_verdict_name(enum bb_bisect_verdict v);

/* Which rule judges a comparison: the ends', a step's, the verification's (above). */
enum bb_bisect_rule { BB_RULE_ENDS, BB_RULE_STEP, BB_RULE_VERIFY };

struct bb_bisect_step {
	enum bb_bisect_rule rule;
	size_t ref, cand;
	size_t boots_ref, boots_cand;
	struct bb_interval iv;
	enum bb_bisect_verdict verdict;
	size_t lo, hi; /* what is left after it: the change is in (lo, hi] */
};

enum bb_bisect_outcome {
	BB_B_NO_CHANGE = 0, /* the ends show no reproducible change */
	BB_B_CULPRIT,       /* hi is the first new candidate, lo its parent */
	BB_B_RANGE,         /* untestable candidates leave (lo, hi] */
	BB_B_UNDECIDED,     /* a step was still unclear at max_boots: (lo, hi] left */
	BB_B_ENDS_UNTESTABLE,
};

struct bb_bisect_opts {
	size_t ncand;      /* >= 2 */
	double alpha;      /* total error bound (0: 0.05) */
	double min_change; /* % (0: 1) */
	int max_boots;     /* boots a side in one comparison (0: 20) */
	int first_look;    /* boots a side at the first look (0: 3) */
	void (*on_step)(void *ctx, const struct bb_bisect_step *s); /* or NULL */
	void *ctx;
};

struct bb_bisect_result {
	enum bb_bisect_outcome outcome;
	size_t lo, hi;
	double change;                 /* D, % */
	struct bb_interval ends;       /* its interval */
	enum bb_bisect_verdict verify; /* BB_V_UNDECIDED when not verified */
	struct bb_interval verify_iv;
	double share, share_lo, share_hi; /* of D the culprit explains, % */
	int part_seen;                    /* a candidate held part of the change */
	struct bb_bisect_step *steps;
	size_t nsteps;
	size_t boots, failed_boots;
	double alpha_look;         /* 1 - confidence of each look */
	double bound;              /* the error bound spent: comparisons x their share */
	unsigned char *untestable; /* per candidate */
};

/* The plan of the comparisons: the looks (boots a side at each), the comparisons planned (K),
 * each comparison's share of alpha and each look's. */
struct bb_bisect_plan {
	int looks[BB_BISECT_MAX_LOOKS];
	size_t nlooks, planned;
	double alpha_cmp, alpha_look;
};
void bb_bisect_plan(const struct bb_bisect_opts *o, struct bb_bisect_plan *p);

/*
 * One comparison on its own, as bb_bisect makes them (for `benchboot bisect-step`, where git
 * drives the bisection): cand against fresh interleaved boots of ref at o's looks, each look
 * at o's plan's confidence, judged by rule against D = change (% ; not used by the ends'
 * rule). 0 with st filled (BB_V_UNTESTABLE when cand's boots failed twice), and the boots
 * made and failed; the callback's -errno, or -EIO when ref failed 4 times in a row.
 */
int bb_bisect_compare(const struct bb_bisect_opts *o, const struct bb_bisect_source *src,
                      enum bb_bisect_rule rule, double change, size_t ref, size_t cand,
                      struct bb_bisect_step *st, size_t *boots, size_t *failed, char *err,
                      size_t errlen);

/* Bisect: 0 with *res filled (free with bb_bisect_result_free), or the callback's -errno
 * (err says why), -EINVAL for bad options, -ENOMEM. */
int bb_bisect(const struct bb_bisect_opts *o, const struct bb_bisect_source *src,
              struct bb_bisect_result *res, char *err, size_t errlen);
void bb_bisect_result_free(struct bb_bisect_result *res);

#endif
