/*
 * Benchmark statistics with LKP's names, computed from the raw outputs of a run's clients and
 * their rusages. Shared by the init (musl, plain C) and the host tools (re-parsing raw logs).
 *
 * Stat names, LKP's (see docs/jobs.md for the full table):
 *   netperf.Throughput_Mbps          mean over the clients (stream tests; UDP_STREAM: the
 *                                    sender's line), Mbit/s (10^6 bits)
 *   netperf.ThroughputRecv_Mbps      UDP_STREAM: mean of the receivers' lines
 *   netperf.ThroughputBoth_Mbps      the two added; _total_ variants: sums over the clients
 *   netperf.workload                 ThroughputBoth_total x elapsed, in messages or transactions
 *   netperf.*_tps                    the same for RR tests, transactions/s
 *   netperf.local_cpu_util_percent, ..._remote_..., ..._service_demand_...   benchboot's own
 *   stress-ng.<stressor>.pass/.fail  1 (0 bogo ops: fail)
 *   stress-ng.<stressor>.ops          bogo ops, summed over the clients
 *   stress-ng.<stressor>.ops_per_sec  bogo ops/s (real time), summed over the clients
 *   stress-ng.<stressor>.<unit>       a metric line, mean over the clients
 *   hackbench.throughput             KB (tasks x messages x bytes / 1024) / the best time,
 *                                    KB/s; _best, _avg, _worst (parse_hackbench.h)
 *   <suite>.time.NAME and time.NAME  GNU time's list as LKP's time parse names it: user_time,
 *     system_time, percent_of_cpu_this_job_got, elapsed_time, maximum_resident_set_size,
 *     major/minor_page_faults, (in)voluntary_context_switches, file_system_inputs/outputs,
 *     page_size (and swaps, socket_messages_*, signals_delivered when not 0)
 * Units are single words (they become LAVA's UNITS): Mbps, tps, %, us/KB, us/Tr, ops, ops/s, KB/s,
 * s, KB, or empty for counts.
 */
#ifndef BENCHBOOT_STATS_H
#define BENCHBOOT_STATS_H

#include <stddef.h>
#include <sys/resource.h>

#include "results/statset.h"

/*
 * Stats of one iteration from its clients' raw outputs and rusages, with LKP names (above).
 * suite: one of the parsers' table in stats.c (netperf, stress-ng, hackbench). rusages may be NULL
 * (no <suite>.time.* stats then). elapsed_s: wall time of the iteration (clients started to last
 * client reaped). Returns 0 or -errno: -EINVAL with a reason in err when a client's output cannot
 * be parsed (netperf's own error message is quoted), -ENOTSUP for an unknown suite, -ENOMEM. out is
 * appended to (initialise it to {0}); on error it may hold part of the stats.
 */
int stats_for_run(const char *suite, const char *const *client_outputs,
                  const struct rusage *rusages, size_t nclients, double elapsed_s,
                  struct bb_stats *out, char *err, size_t errlen);

#endif
