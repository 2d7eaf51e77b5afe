/*
 * Inside `benchboot run` (run.c, session.c, boot.c, pair.c and parallel.c only): what one boot
 * needs, the state of the run, and the steps the one-host, two-host and side-by-side boots use.
 */
#ifndef BENCHBOOT_HOST_RUN_RUNCTX_H
#define BENCHBOOT_HOST_RUN_RUNCTX_H

#include <pthread.h>

#include "host/job/cluster.h"
#include "host/job/jobimage.h"
#include "host/run/placement.h"
#include "host/run/progress.h"
#include "host/run/run.h"
#include "host/run/vcpus.h"
#include "host/collect/runjson.h"
#include "plan/plan.h"

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
	struct bb_jobimage *groups;   /* per group: what its images hold (a job's boots), or NULL */
	unsigned char *built;         /* per kernel: its images built, its specs filled */
	struct bb_run_booted *booted; /* per record: what it booted */
	size_t nbooted;               /* booted's entries allocated */
	struct bb_cluster cluster;    /* a two-host job's (res->two_host) */
	enum bb_accel use;
	int host_cpus;    /* online, read once at the start (0: unknown) */
	int cpus;         /* each VM's vCPUs: o->cpus, or the shape chosen for it (bb_vcpu_shape) */
	int vcpus_warned; /* the TCG oversubscription warning was said (once a run) */
	double allow;
	char stamp[32];
	struct jn *old; /* run.json of earlier invocations */
	/* --parallel: where the VMs that run at once go (nslots of them, 0 or 1: one at a
	 * time), each VM's results disk (disks[0] is res->disk), the groups booted so far */
	struct bb_placement place;
	size_t nslots;
	char (*disks)[4200];
	size_t sbs_groups;
};

/*
 * VMs that run at once (a two-host boot, --parallel) say their lines through one lock, one
 * line at a time; the status line shows the last status of each VM that has one, side by side.
 * Each VM's bb_run_opts has say = bb_run_locked_say, status = bb_run_locked_status (or NULL)
 * and ctx = its struct bb_run_vm.
 */
struct bb_run_shared {
	pthread_mutex_t mu;
	const struct bb_run_opts *o;
	char status[BB_RUN_MAX_PARALLEL][200];
	size_t nvms;
};
struct bb_run_vm {
	struct bb_run_shared *sh;
	size_t vm; /* its place in sh->status */
};
void bb_run_locked_say(void *ctx, enum bb_run_say to, const char *line);
void bb_run_locked_status(void *ctx, const char *line);

void bb_run_say(const struct run *r, enum bb_run_say to, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The vCPUs the run's boots have at once against the host's CPUs, under the accelerator in use
 * (host/run/vcpus.h). */
struct bb_vcpu_load bb_run_vcpu_load(const struct run *r);
/* A boot's accelerator and vCPU load into its record (run.json). */
void bb_run_record_accel(const struct run *r, struct bb_run_record *rec);
/* The command line of the idx-th boot into rec: base and the boot's turn of the run
 * order, benchboot.order.rotate=K for round K (a round: one boot of every kernel and group),
 * so every run of a plan comes first in as many boots (docs/plan.md "Run order"). */
void bb_run_boot_cmdline(const struct run *r, size_t idx, const char *base,
                         struct bb_run_record *rec);
/* That turn, K: the idx-th boot's round. */
int bb_run_order_turn(const struct run *r, size_t idx);
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

/* One boot's three steps (run.c): its progress p and record (the idx-th, of nboots; p's
 * callbacks from po); its QEMU run on disk ("" none), pinned to affinity (NULL: not pinned);
 * its record, outcome and collection from disk. bb_run_boot_end returns nonzero when QEMU
 * could not run (nothing to collect). Then res->nrecs and run.json are the caller's. */
void bb_run_boot_begin(struct run *r, const struct bootspec *s, size_t idx, size_t nboots,
                       const struct bb_run_opts *po, struct bb_progress *p);
int bb_run_qemu(struct run *r, const struct bootspec *s, struct bb_progress *p,
                struct bb_run_record *rec, const char *disk, const struct bb_cpuset *affinity,
                struct bb_qemu_result *qres);
int bb_run_boot_end(struct run *r, const struct bootspec *s, size_t idx, struct bb_progress *p,
                    int qr, const struct bb_qemu_result *qres, const char *disk);
/* What the idx-th record booted, kept (copies) for every later write of run.json; a warning
 * when out of memory. */
void bb_run_keep_booted(struct run *r, size_t idx, const char *kernel_name, const char *vmlinuz,
                        const char *initrd);
/* DIR/run.json with the boots so far (a warning when it cannot be written). */
void bb_run_write_json(struct run *r);

/* Everything before the first boot (run.c): the kernels, the output folder, the images (lazy:
 * a kernel's when it is first booted, bb_run_build_kernel), the accelerator, the vCPUs, the
 * placement of side-by-side VMs and the results disks; what the VM may not hold is said. 0 or
 * -errno with err. bb_run_close frees what it made. */
int bb_run_open(struct run *r, int lazy, char *err, size_t errlen);
void bb_run_close(struct run *r);
/* Kernel k's images, unless built already: 0, -ENOMEM, or another -errno with err. */
int bb_run_build_kernel(struct run *r, size_t k, char *err, size_t errlen);

/* n boots side by side, specs[j] the res->nrecs + j-th, as group r->sbs_groups
 * (parallel.c). */
void bb_parallel_boot(struct run *r, const struct bootspec *const *specs, size_t n, size_t nboots);

/* A two-host boot of group spec cs (the server: ss) as the res->nrecs-th boot (pair.c). */
void bb_pair_boot(struct run *r, const struct bootspec *cs, const struct bootspec *ss,
                  size_t nboots);

#endif
