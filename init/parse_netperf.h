/* netperf 2.7's output of one client, parsed (parse_netperf.c); stats.c makes LKP's stats of it. */
#ifndef BENCHBOOT_PARSE_NETPERF_H
#define BENCHBOOT_PARSE_NETPERF_H

#include <stddef.h>

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
	double msg_size;  /* the send message size column (stream tests), for LKP's workload */
	double elapsed_s; /* of the first data line (UDP_STREAM: the sender's) */
	int has_cpu;      /* the four fields below are set */
	double local_cpu, remote_cpu; /* percent */
	double local_sd, remote_sd;   /* us/KB (stream) or us/Tr (RR) */
	int confidence_missed;        /* "Desired confidence was not achieved" */
};

/* 0, or -EINVAL with the reason in err (e.g. netperf's own "establish control: ..." line). */
int parse_netperf(const char *output, struct bb_netperf_result *r, char *err, size_t errlen);

#endif
