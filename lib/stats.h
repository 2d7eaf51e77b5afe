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
 *   <suite>.time.NAME and time.NAME  GNU time's list as LKP's time parse names it: user_time,
 *     system_time, percent_of_cpu_this_job_got, elapsed_time, maximum_resident_set_size,
 *     major/minor_page_faults, (in)voluntary_context_switches, file_system_inputs/outputs,
 *     page_size (and swaps, socket_messages_*, signals_delivered when not 0)
 * Units are single words (they become LAVA's UNITS): Mbps, tps, %, us/KB, us/Tr, ops, ops/s,
 * s, KB, or empty for counts.
 */
#ifndef BENCHBOOT_STATS_H
#define BENCHBOOT_STATS_H

#include <stddef.h>
#include <sys/resource.h>

struct bb_stat {
	char name[128];
	double value;
	char unit[16];
};

struct bb_stats {
	struct bb_stat *v;
	size_t n, cap;
};

/*
 * Stats of one iteration from its clients' raw outputs and rusages, with LKP names (above).
 * suite: "netperf" or "stress-ng". rusages may be NULL (no <suite>.time.* stats then).
 * elapsed_s: wall time of the iteration (clients started to last client reaped).
 * Returns 0 or -errno: -EINVAL with a reason in err when a client's output cannot be parsed
 * (netperf's own error message is quoted), -ENOTSUP for an unknown suite, -ENOMEM.
 * out is appended to (initialise it to {0}); on error it may hold part of the stats.
 */
int bb_stats_for_run(const char *suite, const char *const *client_outputs,
                     const struct rusage *rusages, size_t nclients, double elapsed_s,
                     struct bb_stats *out, char *err, size_t errlen);
void bb_stats_free(struct bb_stats *s);

/* Append (name, value, unit); a name longer than 127 bytes is -ENAMETOOLONG. 0 or -errno. */
int bb_stats_add(struct bb_stats *s, const char *name, double value, const char *unit);
/* The stat called name, or NULL. */
const struct bb_stat *bb_stats_find(const struct bb_stats *s, const char *name);

/* The <suite>.time.* stats from the clients' rusages (see above). 0 or -ENOMEM. */
int bb_stats_add_rusage(struct bb_stats *s, const char *suite, const struct rusage *rusages,
                        size_t nclients, double elapsed_s);

/*
 * One netperf client's result (parse_netperf.c). Understands netperf 2.7's default output
 * (verbosity 1) with or without the test banner and headers (-P 0), with or without -c/-C,
 * for the stream tests (TCP_STREAM, TCP_MAERTS, TCP_SENDFILE, SCTP_STREAM, SCTP_STREAM_MANY),
 * UDP_STREAM (the receiver's line is the throughput) and the RR tests (TCP_RR, TCP_CRR,
 * UDP_RR, SCTP_RR, SCTP_RR_MANY), and the confidence-interval warnings of -i/-I.
 */
struct bb_netperf_result {
	int rr;            /* 1: transactions/s, 0: Mbit/s */
	double throughput; /* Mbit/s (converted from -f units when a header says so) or tps;
	                    * UDP_STREAM: the sender's line, as LKP's parse reads it */
	int has_recv;      /* UDP_STREAM: the receiver's line is in recv_throughput */
	double recv_throughput;
	double msg_size;   /* the send message size column (stream tests), for LKP's workload */
	double elapsed_s;  /* of the first data line (UDP_STREAM: the sender's) */
	int has_cpu;                  /* the four fields below are set */
	double local_cpu, remote_cpu; /* percent */
	double local_sd, remote_sd;   /* us/KB (stream) or us/Tr (RR) */
	int confidence_missed;        /* "Desired confidence was not achieved" */
};

/* 0, or -EINVAL with the reason in err (e.g. netperf's own "establish control: ..." line). */
int bb_parse_netperf(const char *output, struct bb_netperf_result *r, char *err, size_t errlen);

/*
 * stress-ng --metrics output of one client (parse_stressng.c): appends
 * stress-ng.<stressor>.ops and .ops_per_sec for every stressor in the metrics table.
 * 0, or -EINVAL with the reason in err (no metrics table, a stressor that failed or was
 * skipped: stress-ng's own message is quoted).
 */
int bb_parse_stressng(const char *output, struct bb_stats *out, char *err, size_t errlen);

#endif
