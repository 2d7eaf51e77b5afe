/*
 * DIR/run.json, the results folder's record of its boots: what `benchboot run` (and
 * `benchboot collect --lava`) did, one entry per boot (kernel, image, command line,
 * accelerator, outcome, iterations ok and failed, console log), entries of earlier
 * invocations in the same folder kept first. Written whole after every boot (through a
 * temporary file, renamed).
 */
#ifndef BENCHBOOT_HOST_RESULTS_RUNJSON_H
#define BENCHBOOT_HOST_RESULTS_RUNJSON_H

#include <stddef.h>

#include "host/json.h"
#include "strv.h"

/* One boot, as run.json and the summary show it. */
struct bb_run_record {
	char boot_id[128], folder[300];
	int kernel, group;
	const char *outcome, *accel;
	/* the host's online CPUs (0: unknown), the vCPUs of the VMs that ran at once, and whether
	 * those crowded the host under TCG (host/run/vcpus.h) */
	int host_cpus, vcpus, vcpus_oversubscribed;
	char detail[512], console[4096];
	double wall;
	int ok, failed, finished;
	int stalls;           /* the kernel's lockup and stall reports on the console */
	char stall[512];      /* the first of them */
	char disk_error[512]; /* the init's results-disk-error line, "" for none */
	/* the boot's turn of the run order (plan key order.rotate, docs/plan.md "Run order") and
	 * the kernel command line it was booted with, that turn's argument included */
	int order_rotate;
	char cmdline[4400];
	/* a two-host boot: the fields above are the client host's (or the one host booted with
	 * --only), these the server host's; server_outcome NULL when it was not booted */
	const char *server_outcome;
	char server_boot_id[128], server_folder[300], server_detail[512], server_console[4096];
	int server_ok, server_failed, server_finished, server_stalls;
	char server_stall[512];
	double server_wall;
	/* `run --parallel`: the boot ran side by side with the other boots of its group (the VMs
	 * that ran at once, numbered from 0 in the invocation), on slot sbs_slot of the placement,
	 * pinned to the host CPUs sbs_cpus (a CPU list); sbs 0: it ran alone */
	int sbs;
	size_t sbs_group, sbs_slot;
	char sbs_cpus[256];
};

/* What a boot booted: copies, owned (a bisection's kernels and images are freed and made again
 * between its boots while run.json keeps naming the earlier ones); the command line is the
 * record's. */
struct bb_run_booted {
	char *kernel_name, *vmlinuz, *initrd;
	char *job_file; /* the job file's full path (the store's job identity), or NULL */
};

/* b's strings freed and replaced by copies of these (NULL stays NULL); -ENOMEM leaves NULLs,
 * written as null. 0 or -ENOMEM. */
int bb_run_booted_set(struct bb_run_booted *b, const char *kernel_name, const char *vmlinuz,
                      const char *initrd, const char *job_file);
void bb_run_booted_free(struct bb_run_booted *b);

/* 0 or -errno. old: the run.json found at the start (its boots are kept), or NULL. */
int bb_runjson_write(const char *outdir, const struct jn *old, const struct bb_run_record *recs,
                     const struct bb_run_booted *booted, size_t nrecs);

/*
 * Put one boot's entry into DIR/run.json, for a writer that learns of boots one at a time
 * (collect --lava): the file is read again now (an unreadable one is not replaced: -EINVAL),
 * every other boot's entry kept in its order, an earlier entry with the same boot_id dropped,
 * and the entry write_entry writes (one JSON object, "boot_id" first) appended; written through
 * DIR/.run.json.tmp-PID and renamed. 0 or -errno with err set.
 */
int bb_runjson_put(const char *outdir, const char *boot_id,
                   void (*write_entry)(struct jout *w, void *ctx), void *ctx, char *err,
                   size_t errlen);

/* An entry's member "dmesg": the kernel's reports as LKP's dmesg stats (host/results/dmesg.h),
 * stat -> the first line that showed it. */
void bb_runjson_dmesg(struct jout *w, const struct bb_kvs *stats);

/* The collected folder of a boot: OUTDIR/NNNN-BOOTID (NNNN of any width) -> "NNNN-BOOTID" in
 * out; 0, or -ENOENT. */
int bb_run_find_folder(const char *outdir, const char *boot_id, char *out, size_t len);

#endif
