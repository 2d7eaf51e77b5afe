/*
 * Reading a collected results folder (see docs/results.md): either one boot folder
 * (NNNN-BOOTID/ with env.json, runs/RUNID/results.json, runs/RUNID/ITER/status, done) or a
 * folder holding several of them (what `benchboot collect -o DIR` writes). Host only.
 */
#ifndef BENCHBOOT_HOST_RESULTS_TREE_H
#define BENCHBOOT_HOST_RESULTS_TREE_H

#include <stddef.h>

#include "strv.h"

struct bb_res_stat {
	char *name;
	double *vals;
	size_t n;
};

struct bb_res_boot;

struct bb_res_run {
	char *id;
	struct bb_kvs params; /* run-level parameters */
	int params_derived;   /* 1: taken apart from the RUNID (no params.json/status) */
	struct bb_kvs env;    /* per-run environment read back (sysctls), flattened */
	struct bb_res_stat *stats;
	size_t nstats, stats_cap;
	size_t iterations, failed_iterations;
	size_t warmups;     /* warm-up iterations (warmup-K folders, or a status with "warmup"): not
	                     * counted in iterations, their values never read */
	size_t monitored;   /* monitored iterations (monitored-K folders): only their monitors'
	                     * stats are read, into stats beside the measured iterations' */
	int first_position; /* the position in its boot of the run's first measured iteration
	                     * (its status's "position", 1-based); 0 when no status says */
	size_t test_values; /* values of the test's own stats (no monitor's) of the measured
	                     * iterations: 0 with ok iterations is data missing, never "no
	                     * change" (bb_compare's missing) */
	struct bb_res_boot *boot;
};

struct bb_res_boot {
	char *path, *name;
	struct bb_kvs env;    /* env.json, flattened, sorted */
	struct bb_kvs params; /* boot-level parameters (boot.params) */
	struct bb_kvs labels; /* from DIR/run.json (kernel=NAME): selectable, not matched */
	int done;             /* the boot completed (a `done` file) */
	int env_missing;      /* no env.json, or one with nothing in it: its environment unknown */
	/* the kernel's lockup and stall reports during the boot, and the first (run.json's
	 * kernel_stalls and kernel_stall; 0 and NULL when it does not say) */
	int kernel_stalls;
	char *kernel_stall;
	/* every kernel report during the boot as LKP's dmesg stat (host/results/dmesg.h), with
	 * the first line that showed it: from the boot's kmsg.log (the init's copy of the kernel's
	 * log) and run.json's "dmesg" (its console log; a two-host boot's server host's too) */
	struct bb_kvs dmesg;
	int dmesg_read; /* one of those was read; else dmesg is unknown, not none */
	/* how it ended and its console log, from run.json (outcome, detail, console); NULL when
	 * it does not say */
	char *outcome, *detail, *console;
	/* `run --parallel`: the boots that ran side by side with it are those of equal ran_with
	 * (the least boot id of the boot and its partners in run.json's side_by_side); NULL: it
	 * ran alone, or run.json does not say */
	char *ran_with;
	/* the kernel file it booted, the job file it ran and the kernel's commit, as run.json
	 * records them (vmlinuz, job_file, commit); NULL when it does not say */
	char *vmlinuz, *job_file, *commit;
	struct bb_res_run *runs;
	size_t nruns;
};

struct bb_results {
	char *path;
	struct bb_res_boot *boots;
	size_t nboots;
	/* the boots DIR/run.json records that have no boot folder in DIR: boots that left no
	 * results (a panic before the results disk was written, a boot not collected). No runs;
	 * name and path "DIR/run.json entry N", and the entry's labels, kernel reports,
	 * outcome, detail and console. Only when DIR is a folder of boots. */
	struct bb_res_boot *bare;
	size_t nbare;
};

/*
 * Load a results folder. 0 on success; with a message in err: -ENOENT, -EACCES, -ENOTDIR (no
 * such folder, or not one), -EINVAL (a folder that holds no boot, an unreadable or malformed
 * JSON file, named with its path), or -ENOMEM.
 */
int bb_results_load(const char *path, struct bb_results *res, char *err, size_t errlen);
void bb_results_free(struct bb_results *res);
/*
 * The same folder one boot at a time, so that memory holds one boot whatever the folder: each
 * boot folder is loaded, given to fn (bare 0), and freed when fn returns; then each run.json
 * entry with no folder (bare 1, as bb_results.bare). fn may take the boot over by copying it
 * and zeroing *boot (its runs' boot pointers then need setting). A nonzero return of fn ends
 * the walk and is returned (fn says why in its own err); the errors otherwise are
 * bb_results_load's.
 */
typedef int (*bb_results_boot_fn)(struct bb_res_boot *boot, int bare, void *ctx);
int bb_results_each(const char *path, bb_results_boot_fn fn, void *ctx, char *err, size_t errlen);
/* How a boot ended, from run.json: "OUTCOME[: DETAIL][ (console log: PATH)]". */
void bb_boot_end_text(const struct bb_res_boot *b, char *out, size_t len);
/* Take a RUNID apart: "NAME.k=v.k=v" (a piece without '=' after k=v continues the value).
 * 0, or -ENOMEM. */
int bb_runid_params(const char *runid, struct bb_kvs *params);
const struct bb_res_stat *bb_run_stat(const struct bb_res_run *run, const char *name);

#endif
