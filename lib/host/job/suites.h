/*
 * Suite definitions: how one run of a suite becomes processes in the image (servers with a
 * readiness check, clients, their counts and CPU pinning), which kernel modules and which
 * sysroot files it needs. The matching output parsers are in lib/ (stats.h), shared with the
 * init.
 *
 *   netperf:   server `netserver -4 -D` (ready when tcp:127.0.0.1:12865 accepts), nr_threads
 *              clients `netperf -4 -H 127.0.0.1 -t TEST -c -C -l RUNTIME [global options]
 *              -- [-m SEND_SIZE] [-s N -S N] [test options]`, all at once. SCTP tests need the
 *              sctp module (its dependencies are resolved by the image builder).
 *   stress-ng: one client `stress-ng --timeout T --times --verify --metrics --no-rand-seed
 *              --log-file /proc/self/fd/1 --STRESSOR N [--OPTION VALUE...]` (the log copy
 *              puts the metrics on stdout); nr_threads N gives N instances, 100% gives
 *              0 (stress-ng: one per online CPU), another P% gives P% clients of 1 instance.
 */
#ifndef BENCHBOOT_HOST_SUITES_H
#define BENCHBOOT_HOST_SUITES_H

#include <stddef.h>

#include "strv.h"

#include "host/job/stressng_opts.h"

struct bb_netperf_test {
	const char *name;
	int rr;   /* request/response: throughput in transactions/s */
	int sctp; /* needs the sctp module */
};

extern const struct bb_netperf_test bb_netperf_tests[];
extern const size_t bb_netperf_ntests;
const struct bb_netperf_test *bb_netperf_test_find(const char *name);
/* A stress-ng long option or stressor of the pinned version, or NULL. */
const struct bb_sng_opt *bb_sng_opt_find(const char *name);

/* What the plan says about one run (docs/plan.md run keys), from its parameters. */
struct bb_suite_run {
	const char *suite;
	int iterations;
	double runtime_s; /* watchdog bound of one iteration: -l x the -i maximum for netperf */
	double nominal_s; /* what one iteration is expected to take (for estimates) */
	double grace_s;
	struct bb_strv modules;     /* needs.module */
	struct bb_strv sysctls;     /* "KEY=VALUE" */
	struct bb_strv server_argv; /* empty: no server */
	char server_ready[64];
	char *server_cpus;
	struct bb_strv client_argv;
	char client_count[16]; /* "N" or "P%" */
	char *client_cpus;
	struct bb_strv files; /* sysroot or build files the run needs, as image paths */
};

/*
 * Fill sr from a run's parameters (suite = "netperf" or "stress-ng"). 0, or -EINVAL with a
 * message in err (a combination the job validation could not see, e.g. send_size on an RR
 * test is fine, but nr_threads 0% of a count is not).
 */
int bb_suite_run(const char *suite, const struct bb_kvs *params, struct bb_suite_run *sr, char *err,
                 size_t errlen);
void bb_suite_run_free(struct bb_suite_run *sr);
/* netperf's global options OPTS without its confidence options (-i MAX[,MIN], -I LEVEL[,WIDTH]),
 * as a monitored iteration runs them (one measurement: docs/jobs.md "Monitors") into OUT: 1
 * when some were dropped, 0 when there were none, -ENAMETOOLONG when OUT is too small. */
int bb_netperf_without_confidence(const char *opts, char *out, size_t len);

/* Default runtime (s) of a suite when the job gives none: netperf 300, stress-ng
 * 1 (LKP's testtime default). */
const char *bb_suite_default_runtime(const char *suite);

#endif
