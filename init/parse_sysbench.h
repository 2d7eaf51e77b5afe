/* sysbench's output, parsed into LKP's stat names (parse_sysbench.c). */
#ifndef BENCHBOOT_PARSE_SYSBENCH_H
#define BENCHBOOT_PARSE_SYSBENCH_H

#include <stddef.h>

#include "results/statset.h"

/*
 * The stats of an iteration's clients' outputs (one sysbench each; sysbench-memory's
 * nr_processes are several), named SUITE.STAT as LKP's programs/sysbench/parse names them:
 * summed over the clients, throughput_ops/s and throughput_MB/s (sysbench memory's "Total
 * operations" and "transferred" lines) and workload (the events); the mean of the clients,
 * throughput_events/s, throughput_time, latency_ms.avg, latency_ms.95th, events/thread.avg,
 * events/thread.stddev, runtime/thread.avg, runtime/thread.stddev; the least
 * latency_ms.min; the greatest latency_ms.max. sysbench 1.0's "total time:" stands for the
 * "time elapsed:" of the sysbench LKP builds, and events / total time for its "events/s
 * (eps):". 0, or -EINVAL with the reason in err (sysbench's own first line quoted).
 */
int parse_sysbench_stats(const char *suite, const char *const *outs, size_t n, struct bb_stats *out,
                         char *err, size_t errlen);

/* The four suites of stats.c's table. */
int parse_sysbench_cpu(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                       size_t errlen);
int parse_sysbench_memory(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                          size_t errlen);
int parse_sysbench_threads(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                           size_t errlen);
int parse_sysbench_mutex(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                         size_t errlen);

#endif
