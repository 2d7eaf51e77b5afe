/*
 * The matrix: every list in a job is an axis; each job document expands to the Cartesian
 * product of its axes (the first axis in the file outermost). Runs that need the same boot
 * (equal boot-level parameters: kernel_cmdline, cgroup.*, cpufreq_governor) form one boot
 * group; everything else varies between runs within a boot.
 *
 * Run ids (docs/jobs.md): the run's test (netperf test or stress-ng stressor), then
 * ".NAME-VALUE" for every run-level parameter whose value is not the same in all runs of the
 * job, in the order the parameters first appear in the file. NAME is the last part of a
 * sysctl or stress-ng option name (prsctp_enable, vm-bytes), server_cpus/client_cpus for
 * affinity, else the parameter's name; VALUE has '%' written as "pct" and any character
 * outside [A-Za-z0-9._+-] as '_'. Example: SCTP_STREAM_MANY.nr_threads-25pct.prsctp_enable-1
 */
#ifndef BENCHBOOT_HOST_MATRIX_H
#define BENCHBOOT_HOST_MATRIX_H

#include <stddef.h>

#include "host/job/job.h"
#include "host/job/suites.h"

/* The matrix owns its ids and parameters (copies of the job's): bb_matrix_free frees them. */
struct bb_run {
	char *id;
	struct bb_kvs params; /* run-level, in file order, defaults last */
	int doc;              /* 1-based document number */
};

struct bb_boot {
	struct bb_kvs params; /* boot-level: cgroup.mode (default none), cgroup.controllers,
	                       * cgroup.limit.FILE, kernel_cmdline, cpufreq_governor */
	struct bb_run *runs;
	size_t nruns, runs_cap;
};

struct bb_matrix {
	const struct bb_job *job;
	struct bb_boot *boots;
	size_t nboots, boots_cap;
	size_t nruns; /* over all boots */
};

/* The most runs a job may make (all its documents and boots together): more is refused
 * before anything is expanded. */
#define BB_MATRIX_MAX_RUNS 10000

/* 0, or -EINVAL (a duplicate run, a run id over 200 bytes) / -ENOMEM with err set. */
int bb_matrix_expand(const struct bb_job *job, struct bb_matrix *m, char *err, size_t errlen);
void bb_matrix_free(struct bb_matrix *m);

/* Rough wall-time estimate in seconds: per boot BB_BOOT_OVERHEAD_S, per iteration its
 * expected duration plus BB_RUN_OVERHEAD_S (a warm-up iteration as the boot's longest run's; a
 * monitored iteration as its run's).
 * max: with netperf's -i maximum instead. */
/* Each run's monitored iterations in the boot (`monitored:`, default BB_MONITORED_DEFAULT:
 * docs/jobs.md "Monitors"), when the job runs monitors. */
int bb_boot_monitored(const struct bb_boot *boot);
/* The run as its monitored iterations run it when they are shorter than its runtime
 * (`monitored_runtime:`, default BB_MONITORED_RUNTIME_DEFAULT s): 1 with *sr filled (free it
 * with bb_suite_run_free), 0 when they run as the measured ones (sr untouched), or -errno
 * with err. */
int bb_run_monitored_suite(const char *suite, const struct bb_boot *boot, const struct bb_run *run,
                           struct bb_suite_run *sr, char *err, size_t errlen);
#define BB_BOOT_OVERHEAD_S 15.0
#define BB_RUN_OVERHEAD_S 2.0
int bb_matrix_estimate(const struct bb_matrix *m, double *min_s, double *max_s, char *err,
                       size_t errlen);

#endif
