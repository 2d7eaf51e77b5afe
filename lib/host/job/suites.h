/*
 * Suites: how one run of a suite becomes processes in the image (servers with a readiness
 * check, clients, their counts and CPU pinning), which kernel modules and which sysroot files
 * it needs. Each suite is one file in suites/ (suites/suite.h says what it holds; table.c
 * lists them); the parsers of their output run in the init (init/parse_SUITE.c).
 */
#ifndef BENCHBOOT_HOST_SUITES_H
#define BENCHBOOT_HOST_SUITES_H

#include <stddef.h>

#include "strv.h"

#include "host/job/stressng_opts.h"

/* What the plan says about one run (docs/plan.md run keys), from its parameters. */
struct bb_suite_run {
	const char *suite;
	int iterations;
	double runtime_s; /* watchdog bound of one iteration: -l x the -i maximum for netperf */
	double nominal_s; /* what one iteration is expected to take (for estimates) */
	double grace_s;
	int timed; /* its length is runtime (netperf -l, stress-ng --timeout); 0: a count of work
	            * (loops, iterations) that runtime only bounds */
	struct bb_strv modules;     /* needs.module */
	struct bb_strv sysctls;     /* "KEY=VALUE" */
	struct bb_strv server_argv; /* empty: no server */
	char server_ready[64];
	char *server_cpus;
	struct bb_strv client_argv;
	char client_count[16]; /* "N" or "P%" */
	char *client_cpus;
	struct bb_strv files; /* sysroot or build files the run needs, as image paths */
	/* the filesystem made on the boot's scratch devices before each iteration (storage.h):
	 * NULL, or its name, mkfs command (without the device) and mount options (or NULL) */
	const char *fs;
	struct bb_strv fs_mkfs;
	char *fs_mount;
};

/*
 * Fill sr from a run's parameters. 0, or -EINVAL with a message in err (a combination the job
 * validation could not see, e.g. nr_threads 0% of a count).
 */
int bb_suite_run(const char *suite, const struct bb_kvs *params, struct bb_suite_run *sr, char *err,
                 size_t errlen);
void bb_suite_run_free(struct bb_suite_run *sr);

/* 1 when benchboot runs the suite. */
int bb_suite_known(const char *suite);
/* The suites' names, ", "-separated ("netperf, stress-ng and hackbench"). */
const char *bb_suite_names(void);
/* Default runtime of a suite when the job gives none (LKP's: netperf 300 s, stress-ng's
 * testtime 1 s, hackbench 600 s). */
const char *bb_suite_default_runtime(const char *suite);
/* The overrides of a run's monitored iteration besides its length (netperf: one measurement)
 * into twin. 0, -EINVAL (message), -ENOMEM. */
int bb_suite_monitored(const char *suite, const struct bb_kvs *params, struct bb_kvs *twin,
                       char *err, size_t errlen);
/* Parameters a run of the suite gets when the job gives none: each into rp unless set. */
int bb_suite_defaults(const char *suite, struct bb_kvs *rp);
/* Kernel modules every boot of a job of the suite loads (netperf: dummy). */
int bb_suite_boot_modules(const char *suite, struct bb_strv *modules);
/* The source of a program the suite puts in the image: 0 with *src and *from_tree, or -1. */
int bb_suite_file_source(const char *image_path, const char **src, int *from_tree);
/* 1 when the client word at i of a run's command line is the server's address (127.0.0.1 or
 * ::1 after the suite's server_addr_opt), which a two-host job rewrites. */
int bb_suite_is_server_addr(const char *suite, const struct bb_strv *client_argv, size_t i);
/* 1 when name is the job key of a suite's server (`netserver:`, `iperf-server:`): a plan key
 * of its own, not a parameter that names runs. */
int bb_suite_is_server_key(const char *name);
/* compare's rank of a stat as a run's primary one (0 best), or -1: the suites' own. */
int bb_suite_primary_rank(const char *stat);
/* 1 when the stat is a suite's own ("SUITE.*"). */
int bb_suite_owns_stat(const char *stat);

#endif
