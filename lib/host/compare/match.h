/*
 * Selecting the runs of each side from loaded results, and the key by which a run of A is
 * matched with the runs of B (its run and boot parameters, the compared axis left out).
 * Host only.
 */
#ifndef BENCHBOOT_HOST_RESULTS_MATCH_H
#define BENCHBOOT_HOST_RESULTS_MATCH_H

#include <stddef.h>

#include "host/compare/results_tree.h"

/* A side of the comparison: runs picked from loaded results, and the boots without a run
 * (bb_results.bare, and boot folders with no run in them) whose labels meet the same
 * conditions. */
struct bb_side {
	char *label;
	struct bb_res_run **runs;
	size_t nruns, runs_cap;
	struct bb_res_boot **bare;
	size_t nbare, bare_cap;
};

/*
 * The value of KEY for a run: a run parameter, a boot parameter, a label from run.json
 * (kernel=NAME), an environment field (env.json, flattened with dots) or the run's environment
 * read back, in that order; KEY may also be the
 * last dotted part of a name when that is unique ("prsctp_enable" for
 * "sysctl.net.sctp.prsctp_enable"), or "kernel", "cgroup", "boot". *resolved (if asked) gets the
 * name found, prefixed by "param:", "boot:", "label:", "env:" or "runenv:". NULL when absent.
 */
const char *bb_run_lookup(const struct bb_res_run *run, const char *key, const char **resolved);
/* Add the runs of res whose every condition KEY=VALUE holds (conds may be NULL), and its boots
 * without a run for which they hold (looked up as for a run with no parameters of its own). */
int bb_side_add(struct bb_side *side, const struct bb_results *res, const struct bb_kvs *conds);
void bb_side_free(struct bb_side *side);
/* The distinct boots of a side's runs, in order, into out (room: nruns); how many. */
size_t bb_side_boots(const struct bb_side *s, const struct bb_res_boot **out);

/* The matching key of a run: its run and boot parameters without the axis, "k=v\n...";
 * kept (if given) gets those parameters. malloc'ed, NULL when out of memory. */
char *bb_match_key(const struct bb_res_run *run, const char *const *axis, size_t naxis,
                   const struct bb_side *const sides[2], struct bb_kvs *kept);
/* The parameters whose values differ between the sides: "k (A: x; B: y), ..." */
char *bb_param_differences(const struct bb_side *a, const struct bb_side *b);

/* The distinct values of KEY over the runs of res (pointers into res), sorted by
 * bb_value_cmp; *missing counts the runs without KEY. 0, or -ENOMEM. free(*vals). */
int bb_key_values(const struct bb_results *res, const char *key, const char ***vals, size_t *n,
                  size_t *missing);

/* --by KEY: the two values of KEY over the runs of res as the conditions KEY=x (ca) and KEY=y
 * (cb); *missing counts the runs without KEY (left out). 0; -EINVAL with a message when no run
 * has KEY or KEY has not two values; -ENOMEM. */
int bb_split_by(const struct bb_results *res, const char *key, struct bb_kvs *ca, struct bb_kvs *cb,
                size_t *missing, char *err, size_t errlen);

/*
 * The two sides of a comparison: side s gets the runs of res[nres == 2 ? s : 0] whose
 * conditions conds[s] hold, labelled "paths[s] [k=v ...]" (two folders) or "k=v ..." (one folder);
 * with one folder the condition keys join axis (*naxis of at most maxaxis). 0; -EINVAL with a
 * message when a side has no run; -ENOMEM. The sides are the caller's to free either way.
 */
int bb_sides_select(const struct bb_results *res, const char *const paths[2], size_t nres,
                    const struct bb_kvs *const conds[2], struct bb_side side[2], const char **axis,
                    size_t *naxis, size_t maxaxis, char *err, size_t errlen);

#endif
