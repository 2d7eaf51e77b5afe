/* hackbench's output, parsed into LKP's stat names (parse_hackbench.c). */
#ifndef BENCHBOOT_PARSE_HACKBENCH_H
#define BENCHBOOT_PARSE_HACKBENCH_H

#include <stddef.h>

#include "results/statset.h"

/*
 * The stats of an iteration's clients' outputs (one client: LKP's run script runs hackbench
 * one or more times), as LKP's programs/hackbench/parse computes them: KB = tasks x messages
 * x bytes / 1024 (of the last run's lines), hackbench.throughput = KB / the best time (KB/s),
 * and throughput_best, throughput_avg (rounded to 2 places), throughput_worst. 0, or -EINVAL
 * with the reason in err (no "Time:" line: hackbench's own message is quoted).
 */
int parse_hackbench_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                          size_t errlen);

#endif
