/*
 * results.json in LKP's shape: one JSON object, each member a stat name with an array of
 * numbers, one element per iteration, e.g.
 *
 *   {
 *     "netperf.Throughput_Mbps": [
 *       2353.31,
 *       2371.58
 *     ]
 *   }
 *
 * Plain C (the init appends an iteration after each one; the host tools read it back).
 * Members are written sorted by name; numbers in the shortest form that reads back exactly;
 * a value that is not finite is written as null and read back as NaN. A stat missing from an
 * iteration is not padded: arrays may differ in length (as in LKP).
 */
#ifndef BENCHBOOT_RESJSON_H
#define BENCHBOOT_RESJSON_H

#include <stddef.h>

#include "results/statset.h"

struct bb_resjson_series {
	char name[128];
	double *v;
	size_t n, cap;
};

/* A monitor's status line per iteration (results.json's "monitor_status"). */
struct bb_resjson_status {
	char name[128];
	char **v;
	size_t n, cap;
};

struct bb_resjson {
	struct bb_resjson_series *s;
	size_t n, cap;
	struct bb_resjson_status *st;
	size_t nst, capst;
};

/* Parse a results.json text ("" or NULL is an empty object). 0, -ENOMEM, or -EINVAL with
 * "line L col C: what" in err. r must be zeroed or freed before. */
int bb_resjson_parse(const char *text, struct bb_resjson *r, char *err, size_t errlen);
/* Append one iteration: every stat's value to its series (created when new). 0 or -errno. */
int bb_resjson_add(struct bb_resjson *r, const struct bb_stats *iteration);
/* The status lines of monitor name, or NULL. */
const struct bb_resjson_status *bb_resjson_get_status(const struct bb_resjson *r, const char *name);
/* The series called name, or NULL. */
const struct bb_resjson_series *bb_resjson_get(const struct bb_resjson *r, const char *name);
/* The text (malloc'd, ends with a newline), or NULL when out of memory. */
char *bb_resjson_format(const struct bb_resjson *r);
void bb_resjson_free(struct bb_resjson *r);

/* Convenience for the init: old text (may be NULL) + one iteration -> new malloc'd text in
 * *out. 0, -ENOMEM, or -EINVAL (old text unreadable, reason in err). */
int bb_resjson_append(const char *old, const struct bb_stats *iteration, char **out, char *err,
                      size_t errlen);
/* The same with the iteration's monitor status lines: names[i] has statuses[i] (n of them). */
int bb_resjson_append_status(const char *old, const struct bb_stats *iteration,
                             const char *const *names, const char *const *statuses, size_t n,
                             char **out, char *err, size_t errlen);

#endif
