/*
 * From a job to results (`benchboot run`): build the images of the job (the job parsed once,
 * one image per boot group and kernel), make the results disk if there is none, choose the
 * accelerator (one KVM probe), boot each image under QEMU (A, B, A, B with several kernels,
 * every round of `repeat`), follow the progress on the console, collect what finished after
 * every boot and keep DIR/run.json up to date. Library code: it prints nothing; the progress
 * goes to the caller's say() and status() callbacks, errors come back as -errno + message.
 */
#ifndef BENCHBOOT_HOST_RUN_H
#define BENCHBOOT_HOST_RUN_H

#include <signal.h>
#include <stddef.h>

#include "host/collect/runjson.h"
#include "host/vm/qemu.h"

#define BB_RUN_MAX_KERNELS 64 /* a bisection's candidates, too */
#define BB_RUN_UNTIL_MAX_BOOTS 20
#define BB_RUN_MAX_PARALLEL 64 /* --parallel: VMs at once, at most */

struct bb_strv;

struct bb_run_kernel {
	char name[128];      /* labels its boots (kernel=NAME); default the file name */
	const char *vmlinuz; /* NULL: the pinned kernel of the sysroot */
	const char *modules; /* its lib/modules/VERSION, or NULL */
	const char *append;  /* more kernel command line for its boots only, or NULL */
};

/* Where a line of progress goes: stdout, stderr as a warning of the verb, stderr as is. */
enum bb_run_say { BB_RUN_OUT, BB_RUN_WARN, BB_RUN_NOTE };

struct bb_run_opts {
	const char *job, *image, *initrd; /* what to boot: exactly one */
	const struct bb_strv *sets;       /* the job's --set KEY=VALUE overrides, or NULL */
	struct bb_run_kernel kernels[BB_RUN_MAX_KERNELS];
	size_t nkernels;          /* 0: the pinned kernel (or the image's own) */
	int repeat, cpus, mem_mb; /* 0: 1 round, 2 CPUs, 1024 MB */
	int no_disk, nic;
	int keep_scratch;   /* --keep: the VM's scratch disks stay in OUTDIR/scratch after a boot */
	const char *outdir; /* NULL: results/NAME (NAME from the job, image or initrd) */
	const char *disk;   /* NULL: OUTDIR/results.img */
	const char *blkdebug; /* QEMU blkdebug rules for the results disk (fault tests), or NULL */
	const char *images;   /* NULL: images */
	const char *append;   /* more kernel command line, or NULL */
	/* --monitors: the monitors every boot runs instead of its plan's, comma-separated ("":
	 * none), put on the command line as benchboot.monitors=; NULL: the plan's */
	const char *monitors;
	enum bb_accel accel;
	double deadline, allowance, silence; /* 0: from the plan and the accelerator */
	volatile sig_atomic_t *interrupt;    /* nonzero: stop the VM, collect, end */
	/*
	 * Repeat until sure (instead of `repeat` rounds): boots A, B, A, B ... until the 95%
	 * interval of the primary stat's %change between the two sides is within +/- until %
	 * of its estimate or excludes 0 by more than that (host/run/until.h), or max_boots
	 * boots, or no new boot after max_time seconds.
	 */
	double until;           /* %, 0: off */
	const char *until_by;   /* the key of the sides; NULL: kernel (two kernels needed) */
	const char *until_stat; /* NULL: the suite's primary stat */
	int max_boots;          /* 0: BB_RUN_UNTIL_MAX_BOOTS */
	double max_time;        /* seconds, 0: none */
	/*
	 * Side by side (host/run/parallel.c): up to this many VMs at once, each pinned to its own
	 * disjoint set of host CPUs (host/run/placement.h), as many as fit; each with its own
	 * results disk (OUTDIR/results.img, results-2.img, ...). 0 or 1: one at a time.
	 */
	int parallel;
	/*
	 * The boots decide something (bisect sets it; --until and --parallel 2+ imply it): with
	 * cpus 0 under TCG, when the default VM shape would crowd the host's CPUs, each VM gets
	 * fewer vCPUs, said before the first boot (host/run/vcpus.h, bb_vcpu_shape).
	 */
	int decide;
	/*
	 * A two-host job (its cluster has a server host and a client host): both hosts boot in
	 * parallel, each VM with its results disk and a virtio NIC on a private network between
	 * the two (host/run/pair.h).
	 */
	const char *only; /* "server" or "client": boot that host alone, or NULL */
	struct bb_run_kernel server_kernel; /* vmlinuz NULL: the server boots the client's kernel */
	const char *server_disk;            /* NULL: OUTDIR/server-host.img */
	void (*say)(void *ctx, enum bb_run_say to, const char *line);
	void (*status)(void *ctx, const char *line); /* the one-line status (a terminal), or NULL */
	void *ctx;
};

struct bb_run_result {
	char outdir[4096], consdir[4200], disk[4200];
	char server_disk[4200];   /* a two-host job: the server host's results disk */
	char server_outdir[4200]; /* ... and where its boots are collected (OUTDIR/server-host) */
	int two_host;
	struct bb_run_kernel kernels[BB_RUN_MAX_KERNELS]; /* as booted: names for the summary */
	size_t nkernels;
	size_t ngroups;             /* the job's boot groups (1 without a job) */
	char default_kernel[4300];  /* the pinned kernel, when no kernel was given */
	struct bb_run_record *recs; /* the boots done, in order */
	size_t nrecs;
	int any_failed;     /* a boot or a run failed */
	int system_failure; /* QEMU failed, or collecting did */
	int interrupted;
	int until_settled;    /* --until: the interval settled */
	int until_error;      /* --until: 0, or why no interval could be had (-EINVAL: bad key or
	                         stat), said in until_why */
	char until_why[1024]; /* --until: why the boots stopped */
	size_t side_by_side;  /* --parallel: the VMs booted at once (0 or 1: one at a time) */
};

/*
 * Run it. 0 when the boots ran (their outcomes in res, failures included); -EINVAL for bad
 * input (a bad job, two kernels of one name, a missing kernel or initramfs); another -errno
 * when the run could not start (sysroot, build, results disk). err says why. Free res with
 * bb_run_result_free either way.
 */
int bb_run(const struct bb_run_opts *o, struct bb_run_result *res, char *err, size_t errlen);
void bb_run_result_free(struct bb_run_result *res);

/*
 * One kernel at a time, as the caller decides (a bisection): open does what bb_run does before
 * its first boot (the kernels, the results folder and disk, the accelerator), building the
 * first kernel's images only; each bb_run_session_boot boots kernel k (its index in
 * o->kernels) once, in boot group 0, building its images at its first boot, and appends the
 * boot's record to res (res->recs[res->nrecs - 1]; run.json updated, the boot collected; its
 * progress "boot N: ..." through say and status). No --until, --parallel or --server-kernel.
 * open: as bb_run. boot: 0 when the boot ran (its outcome in the record; res->interrupted
 * after Ctrl-C), 1 when kernel k's images could not be built (err says why: a candidate that
 * cannot be tested), -ENOMEM. Close the session, then free res.
 */
struct bb_run_session;
int bb_run_session_open(const struct bb_run_opts *o, struct bb_run_result *res,
                        struct bb_run_session **s, char *err, size_t errlen);
int bb_run_session_boot(struct bb_run_session *s, size_t kernel, char *err, size_t errlen);
/*
 * Kernels ka and kb booted side by side (o->parallel 2: each VM on its own host CPUs, its own
 * results disk; host/run/parallel.c), their two records appended in that order, a pair in
 * run.json; one after the other when the host has no room for two (bb_run_session_pairs 0:
 * said at open) or the first was interrupted (then one record). 0 when booted; 1 when ka's
 * images could not be built, 2 when kb's could not (err says why; nothing booted), -errno.
 */
int bb_run_session_boot_pair(struct bb_run_session *s, size_t ka, size_t kb, char *err,
                             size_t errlen);
/* 1 when the session boots pairs side by side. */
int bb_run_session_pairs(const struct bb_run_session *s);
/* Kernel k's files from now on (a bisection's candidate, built from a tree only when it is
 * reached): its images are built at its next boot. The strings must outlive the session. */
void bb_run_session_set_kernel(struct bb_run_session *s, size_t k, const char *vmlinuz,
                               const char *modules);
void bb_run_session_close(struct bb_run_session *s);

#endif
