/* iperf3's JSON output (-J), parsed into LKP's stat names (parse_iperf.c). */
#ifndef BENCHBOOT_PARSE_IPERF_H
#define BENCHBOOT_PARSE_IPERF_H

#include <stddef.h>

#include "results/statset.h"

/*
 * The stats of an iteration's clients' outputs, each one or more JSON documents of iperf3 -J
 * one after the other, as LKP's programs/iperf/parse reads them: a document with
 * end.sum.bits_per_second is a UDP session (iperf.udp.bps), else end.sum_sent and
 * end.sum_received are a TCP session's sender and receiver (iperf.tcp.sender.bps,
 * iperf.tcp.receiver.bps); each stat the mean over the sessions that have it, in bits/s. 0,
 * or -EINVAL with the reason in err (iperf3's own "error" member quoted when it has one).
 */
int parse_iperf_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                      size_t errlen);

#endif
