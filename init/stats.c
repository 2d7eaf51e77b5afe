/*
 * Stats of one iteration with LKP's names: the suite's parser per client, then aggregation
 * (mean and sum for netperf, sum for stress-ng), then <suite>.time.* from the rusages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse_fio.h"
#include "parse_fsmark.h"
#include "parse_hackbench.h"
#include "parse_iperf.h"
#include "parse_netperf.h"
#include "parse_perf_bench.h"
#include "parse_stressng.h"
#include "parse_sysbench.h"
#include "stats.h"

static double tv_seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* Add SUITE.time.NAME and time.NAME, as LKP's time parse and dump-stat name them. */
static int add_time(struct bb_stats *s, const char *suite, const char *name, double v,
                    const char *unit)
{
	char full[128];
	int rc;
	snprintf(full, sizeof full, "%s.time.%s", suite, name);
	if ((rc = bb_stats_add(s, full, v, unit)))
		return rc;
	snprintf(full, sizeof full, "time.%s", name);
	return bb_stats_add(s, full, v, unit);
}

/* The <suite>.time.* stats from the clients' rusages (see above). 0 or -ENOMEM. */
static int stats_add_rusage(struct bb_stats *s, const char *suite, const struct rusage *ru,
                            size_t nclients, double elapsed_s)
{
	double user = 0, sys = 0, vcs = 0, ivcs = 0, maxrss = 0, minflt = 0, majflt = 0, inb = 0,
	       oub = 0, swaps = 0, msgsnd = 0, msgrcv = 0, nsig = 0;
	for (size_t i = 0; i < nclients; i++) {
		user += tv_seconds(ru[i].ru_utime);
		sys += tv_seconds(ru[i].ru_stime);
		vcs += (double)ru[i].ru_nvcsw;
		ivcs += (double)ru[i].ru_nivcsw;
		minflt += (double)ru[i].ru_minflt;
		majflt += (double)ru[i].ru_majflt;
		inb += (double)ru[i].ru_inblock;
		oub += (double)ru[i].ru_oublock;
		swaps += (double)ru[i].ru_nswap;
		msgsnd += (double)ru[i].ru_msgsnd;
		msgrcv += (double)ru[i].ru_msgrcv;
		nsig += (double)ru[i].ru_nsignals;
		if ((double)ru[i].ru_maxrss > maxrss)
			maxrss = (double)ru[i].ru_maxrss;
	}
	/* GNU time -v's list as programs/time/parse names it; the ones Linux leaves at 0
	 * (average sizes, swaps, socket messages, signals) only when not 0, as dump-stat
	 * drops stats that are all 0 */
	const struct {
		const char *name;
		double value;
		const char *unit;
		int always;
	} t[] = {
	    {"user_time", user, "s", 1},
	    {"system_time", sys, "s", 1},
	    {"percent_of_cpu_this_job_got", elapsed_s > 0 ? 100.0 * (user + sys) / elapsed_s : 0,
	     "%", 1},
	    {"elapsed_time", elapsed_s, "s", 1},
	    {"maximum_resident_set_size", maxrss, "KB", 1},
	    {"major_page_faults", majflt, "", 1},
	    {"minor_page_faults", minflt, "", 1},
	    {"voluntary_context_switches", vcs, "", 1},
	    {"involuntary_context_switches", ivcs, "", 1},
	    {"swaps", swaps, "", 0},
	    {"file_system_inputs", inb, "", 1},
	    {"file_system_outputs", oub, "", 1},
	    {"socket_messages_sent", msgsnd, "", 0},
	    {"socket_messages_received", msgrcv, "", 0},
	    {"signals_delivered", nsig, "", 0},
	    {"page_size", (double)sysconf(_SC_PAGESIZE), "", 1},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (!t[i].always && t[i].value == 0)
			continue;
		int rc = add_time(s, suite, t[i].name, t[i].value, t[i].unit);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * netperf's stats as LKP's programs/netperf/parse computes them from all clients of one
 * iteration: Throughput_U the mean over the clients, ThroughputRecv_U the mean over the
 * receiver lines (UDP_STREAM), ThroughputBoth_U their sum; the _total_ ones are sums;
 * workload = ThroughputBoth_total x the elapsed time, in messages (stream: x 10^6 / 8 /
 * message size) or transactions. benchboot's own: CPU utilisation and service demand.
 */
static int netperf_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                         size_t errlen)
{
	double sum = 0, rsum = 0, lc = 0, rc_ = 0, lsd = 0, rsd = 0, time_s = 0, msg = 0;
	size_t nrecv = 0, ncpu = 0, nlc = 0, nrc = 0, nlsd = 0, nrsd = 0;
	int rr = -1, rc;

	if (n == 0) {
		snprintf(err, errlen, "netperf: no clients");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct bb_netperf_result r;
		char why[224];
		rc = parse_netperf(outs[i], &r, why, sizeof why);
		if (rc) {
			snprintf(err, errlen, "client %zu: %s", i, why);
			return rc;
		}
		if (rr >= 0 && rr != r.rr) {
			snprintf(err, errlen, "client %zu: mixes RR and stream results", i);
			return -EINVAL;
		}
		rr = r.rr;
		sum += r.throughput;
		if (r.has_recv)
			rsum += r.recv_throughput, nrecv++;
		time_s = r.elapsed_s; /* LKP: of the last data line */
		msg = r.msg_size;
		if (r.has_cpu) {
			ncpu++;
			/* netperf prints -1 for a side it did not measure */
			if (r.local_cpu >= 0)
				lc += r.local_cpu, nlc++;
			if (r.remote_cpu >= 0)
				rc_ += r.remote_cpu, nrc++;
			if (r.local_sd >= 0)
				lsd += r.local_sd, nlsd++;
			if (r.remote_sd >= 0)
				rsd += r.remote_sd, nrsd++;
		}
	}
	const char *u = rr ? "tps" : "Mbps";
	const char *sdu = rr ? "us_per_Tr" : "us_per_KB";
	double mean = sum / (double)n, rmean = nrecv ? rsum / (double)nrecv : 0;
	double workload = (sum + rsum) * time_s;
	if (!rr)
		workload = msg > 0 ? workload * 1e6 / 8.0 / msg : 0;
	const struct {
		const char *fmt;
		double v;
		int show;
	} t[] = {
	    {"netperf.Throughput_%s", mean, 1},
	    {"netperf.ThroughputRecv_%s", rmean, nrecv > 0},
	    {"netperf.ThroughputBoth_%s", mean + rmean, 1},
	    {"netperf.Throughput_total_%s", sum, 1},
	    {"netperf.ThroughputRecv_total_%s", rsum, nrecv > 0},
	    {"netperf.ThroughputBoth_total_%s", sum + rsum, 1},
	};
	char name[128];
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (!t[i].show)
			continue;
		snprintf(name, sizeof name, t[i].fmt, u);
		if ((rc = bb_stats_add(out, name, t[i].v, u)))
			return rc;
	}
	if ((rc = bb_stats_add(out, "netperf.workload", workload, "")))
		return rc;
	if (ncpu) {
		if (nlc && (rc = bb_stats_add(out, "netperf.local_cpu_util_percent",
		                              lc / (double)nlc, "%")))
			return rc;
		if (nrc && (rc = bb_stats_add(out, "netperf.remote_cpu_util_percent",
		                              rc_ / (double)nrc, "%")))
			return rc;
		snprintf(name, sizeof name, "netperf.local_service_demand_%s", sdu);
		if (nlsd &&
		    (rc = bb_stats_add(out, name, lsd / (double)nlsd, rr ? "us/Tr" : "us/KB")))
			return rc;
		snprintf(name, sizeof name, "netperf.remote_service_demand_%s", sdu);
		if (nrsd &&
		    (rc = bb_stats_add(out, name, rsd / (double)nrsd, rr ? "us/Tr" : "us/KB")))
			return rc;
	}
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* Every client's stress-ng stats by name: ops and ops_per_sec add up (instances spread over
 * clients), pass and fail are 1 when any client says so, other metrics are averaged. */
static int stressng_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                          size_t errlen)
{
	size_t first = out->n;
	if (n == 0) {
		snprintf(err, errlen, "stress-ng: no clients");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct bb_stats one = {0};
		char why[224];
		int rc = parse_stressng(outs[i], &one, why, sizeof why);
		if (rc) {
			snprintf(err, errlen, "client %zu: %s", i, why);
			bb_stats_free(&one);
			return rc;
		}
		for (size_t k = 0; k < one.n; k++) {
			struct bb_stat *have = NULL;
			for (size_t j = first; j < out->n; j++)
				if (!strcmp(out->v[j].name, one.v[k].name))
					have = &out->v[j];
			if (have && (ends_with(have->name, ".ops") ||
			             ends_with(have->name, ".ops_per_sec"))) {
				have->value += one.v[k].value;
			} else if (have && (ends_with(have->name, ".pass") ||
			                    ends_with(have->name, ".fail"))) {
				have->value = 1;
			} else if (have) {
				/* running mean over the clients that reported it */
				have->value += (one.v[k].value - have->value) / (double)(i + 1);
			} else if ((rc = bb_stats_add(out, one.v[k].name, one.v[k].value,
			                              one.v[k].unit))) {
				bb_stats_free(&one);
				return rc;
			}
		}
		bb_stats_free(&one);
	}
	return 0;
}

/* Each suite's parser (the host's suites are lib/host/job/suites/table.c). */
static const struct {
	const char *suite;
	int (*stats)(const char *const *outs, size_t n, struct bb_stats *out, char *err,
	             size_t errlen);
} parsers[] = {
    {"netperf", netperf_stats},
    {"stress-ng", stressng_stats},
    {"hackbench", parse_hackbench_stats},
    {"perf-bench-sched-pipe", parse_perf_bench_sched_pipe},
    {"perf-bench-sched-messaging", parse_perf_bench_sched_messaging},
    {"perf-bench-futex", parse_perf_bench_futex},
    {"fsmark", parse_fsmark_stats},
    {"sysbench-cpu", parse_sysbench_cpu},
    {"sysbench-memory", parse_sysbench_memory},
    {"sysbench-threads", parse_sysbench_threads},
    {"sysbench-mutex", parse_sysbench_mutex},
    {"iperf", parse_iperf_stats},
    {"fio-basic", parse_fio_stats},
};

int stats_for_run(const char *suite, const char *const *client_outputs,
                  const struct rusage *rusages, size_t nclients, double elapsed_s,
                  struct bb_stats *out, char *err, size_t errlen)
{
	int rc;
	if (errlen)
		err[0] = 0;
	size_t k = 0;
	while (k < sizeof parsers / sizeof parsers[0] && strcmp(parsers[k].suite, suite))
		k++;
	if (k == sizeof parsers / sizeof parsers[0]) {
		snprintf(err, errlen, "unknown suite '%s'", suite);
		return -ENOTSUP;
	}
	rc = parsers[k].stats(client_outputs, nclients, out, err, errlen);
	if (rc)
		return rc;
	if (rusages)
		return stats_add_rusage(out, suite, rusages, nclients, elapsed_s);
	return 0;
}
