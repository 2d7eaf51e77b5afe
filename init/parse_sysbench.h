/* sysbench's output, parsed into LKP's stat names (parse_sysbench.c). */
#ifndef BENCHBOOT_PARSE_SYSBENCH_H
#define BENCHBOOT_PARSE_SYSBENCH_H

#include <stddef.h>

#include "results/statset.h"

/* The four suites of stats.c's table: the stats of an iteration's clients' outputs (one
 * sysbench each) named as LKP's programs/sysbench/parse names them (parse_sysbench.c). */
int parse_sysbench_cpu(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                       size_t errlen);
int parse_sysbench_memory(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                          size_t errlen);
int parse_sysbench_threads(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                           size_t errlen);
int parse_sysbench_mutex(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                         size_t errlen);

#endif
