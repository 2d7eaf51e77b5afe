/* `perf bench` outputs parsed into LKP's stat names (parse_perf_bench.c). */
#ifndef BENCHBOOT_PARSE_PERF_BENCH_H
#define BENCHBOOT_PARSE_PERF_BENCH_H

#include <stddef.h>

#include "results/statset.h"

/* perf-bench-sched-pipe.ops_per_sec: the "N ops/sec" line, as LKP's parse reads it. 0, or
 * -EINVAL with the reason in err (perf's own first line quoted). */
int parse_perf_bench_sched_pipe(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                                size_t errlen);
/* perf-bench-sched-messaging.total_time_sec: the "Total time: S [sec]" line. */
int parse_perf_bench_sched_messaging(const char *const *outs, size_t n, struct bb_stats *out,
                                     char *err, size_t errlen);

#endif
