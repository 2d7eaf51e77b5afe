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

/* perf-bench-futex: LKP's parse of `perf bench futex` (hash and lock-pi: "Averaged N
 * operations/sec (+- P%)" -> ops/s and stddev%; wake: "Wokeup ... in T ms (+-P%)" ->
 * wokeup_time_ms; requeue: requeued_time_ms; wake-parallel: "Avg per-thread latency ..." ->
 * avg_per_thread_latency_ms; each with stddev%). */
int parse_perf_bench_futex(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                           size_t errlen);

#endif
