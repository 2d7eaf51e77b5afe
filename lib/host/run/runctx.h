/*
 * Inside `benchboot run` (run.c and pair.c only): what one boot needs, the state of the run,
 * and the steps both the one-host and the two-host boots use.
 */
#ifndef BENCHBOOT_HOST_RUN_RUNCTX_H
#define BENCHBOOT_HOST_RUN_RUNCTX_H

#include "host/job/cluster.h"
#include "host/run/progress.h"
#include "host/run/run.h"
#include "host/run/vcpus.h"
#include "host/collect/runjson.h"
#include "plan.h"

/* What one boot group needs on one kernel, and what its plan says about durations. */
struct bootspec {
	char vmlinuz[4096], initrd[4096], cmdline[4096], image[4096];
	int kernel, group;
	const struct bb_plan *plan; /* its group's plan (a job's boots), or NULL */
};

struct run {
	const struct bb_run_opts *o;
	struct bb_run_result *res;
	struct bb_run_kernel *kernels;
	size_t nk, ngroups;
	int repeat_to;          /* the job's LKP repeat_to: the rounds when --repeat is not given */
	struct bootspec *specs; /* ngroups * nk: group g on kernel k at g * nk + k */
	struct bootspec *sspecs; /* --server-kernel: the server host's, per group; else NULL */
	struct bb_plan *plans;   /* per group, parsed once (a job's boots) */
	int *have_plan;
	struct bb_run_booted *booted; /* per record: what it booted */
	struct bb_cluster cluster;    /* a two-host job's (res->two_host) */
	enum bb_accel use;
	int host_cpus;    /* online, read once at the start (0: unknown) */
	int vcpus_warned; /* the TCG oversubscription warning was said (once a run) */
	double allow;
	char stamp[32];
	struct jn *old; /* run.json of earlier invocations */
};

void bb_run_say(const struct run *r, enum bb_run_say to, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The vCPUs the run's boots have at once against the host's CPUs, under the accelerator in use
 * (host/run/vcpus.h). */
struct bb_vcpu_load bb_run_vcpu_load(const struct run *r);
/* A boot's accelerator and vCPU load into its record (run.json). */
void bb_run_record_accel(const struct run *r, struct bb_run_record *rec);
/* The command line of the res->nrecs-th boot into rec: base and the boot's turn of the run
 * order, benchboot.order.rotate=K for round K (a round: one boot of every kernel and group),
 * so every run of a plan comes first in as many boots (docs/plan.md "Run order"). */
void bb_run_boot_cmdline(const struct run *r, const char *base, struct bb_run_record *rec);
/* That turn, K: the res->nrecs-th boot's round. */
int bb_run_order_turn(const struct run *r);
/* Deadline of one boot from its plan: every iteration's runtime and grace, plus setup. */
double bb_run_deadline(const struct run *r, const struct bootspec *s);
/* After a boot: its results from disk (collected into outdir), else from its console log;
 * the disk preened when the boot did not end cleanly. folder: the boot's collected folder. */
void bb_run_collect(struct run *r, struct bb_progress *p, const char *disk, const char *outdir,
                    const char *console, const char *boot_id, int finished, char *folder,
                    size_t folderlen);

/* How a boot went (qr and q from bb_qemu_boot), said on p: its outcome and detail, failures
 * marked in r->res; *finished: powered off after boot-end. 0, or qr's -errno when QEMU could
 * not run. */
int bb_run_outcome(struct run *r, struct bb_progress *p, int qr, const struct bb_qemu_result *q,
                   const char *console, const char **outcome, char *detail, size_t dlen,
                   int *finished);

/* A two-host boot of group spec cs (the server: ss) as the res->nrecs-th boot (pair.c). */
void bb_pair_boot(struct run *r, const struct bootspec *cs, const struct bootspec *ss,
                  size_t nboots);

#endif
