/*
 * The results store (docs/history.md): an index of every collected boot, kept in SQLite (one
 * file, no server, no root), so that a stream of kernels can be followed without opening each
 * results folder. The folders stay the source of truth: `store rebuild` makes the index again
 * from them. One versioned schema (schema.c), migrations applied on open; a store written by a
 * newer benchboot is refused. Every statement takes its values as bound parameters.
 *
 *     struct bb_store *st;
 *     char err[1024];
 *     if (bb_store_open(NULL, &st, err, sizeof err))      // BENCHBOOT_DB, else the default
 *             ...;                                          // -EINVAL: newer schema, damaged
 *     struct bb_store_added a;
 *     bb_store_add(st, "results/netperf", &a, err, sizeof err);   // a.boots_new, a.boots_known
 *     bb_store_close(st);
 *
 * Host only.
 */
#ifndef BENCHBOOT_HOST_STORE_H
#define BENCHBOOT_HOST_STORE_H

#include <stddef.h>

struct bb_store;

/* The store's schema version this benchboot writes. */
#define BB_STORE_SCHEMA 2

/* Open (creating the file and its folder when missing) and bring the schema up to date. 0,
 * -EINVAL (a newer schema, not a store, a damaged file: err says what and that `store rebuild`
 * makes it again), -errno. */
int bb_store_open(const char *spec, struct bb_store **out, char *err, size_t errlen);
void bb_store_close(struct bb_store *st);
/* The file the store is in. */
const char *bb_store_file(const struct bb_store *st);

struct bb_store_added {
	size_t boots_new, boots_known; /* known: a boot id the store has already (unchanged) */
	size_t runs, values;           /* of the new boots */
};
/* Add the boots of a results folder (a folder of boots, or one boot folder): one transaction
 * per boot, a boot the store has already (its boot id) left as it is. The folder is recorded
 * for `store rebuild`. 0, or -errno with err (the folder cannot be read: nothing added). */
int bb_store_add(struct bb_store *st, const char *dir, struct bb_store_added *out, char *err,
                 size_t errlen);

/* What the store holds, for `store list`. */
struct bb_store_kernel {
	char *name, *release, *cmdline;  /* a kernel: the name run gave it, its release, its
	                                  * command line (another command line, another kernel) */
	char *commit, *vmlinuz, *sha256; /* its identity, "" where not known (kernel_id.h) */
	size_t boots;
	long long id; /* bb_store_job_kernels: its row (bb_store_point.kernel_id) and label */
	char *label;
};
struct bb_store_job {
	char *name;
	size_t boots, runs;
};
struct bb_store_summary {
	size_t folders, boots, runs, values;
	struct bb_store_kernel *kernels;
	size_t nkernels;
	struct bb_store_job *jobs;
	size_t njobs;
};
int bb_store_summary(struct bb_store *st, struct bb_store_summary *out, char *err, size_t errlen);
void bb_store_summary_free(struct bb_store_summary *s);

/* One point of a trend: a boot of a kernel, its mean of the stat over its iterations. */
struct bb_store_point {
	char *kernel; /* the kernel's label: its name (run --kernel NAME=...), else its release;
	               * "#ID" added when two kernels would read the same */
	long long kernel_id;
	char *boot_id;
	double value;
	size_t nvals;
};
/* The series of a stat of one run (run_id) of a job: a point per boot, the kernels in the
 * order their first boots came, each kernel's boots together in order. 0 with *n points (0:
 * none), or -errno with err. */
int bb_store_series(struct bb_store *st, const char *job, const char *run_id, const char *stat,
                    struct bb_store_point **out, size_t *n, char *err, size_t errlen);
void bb_store_points_free(struct bb_store_point *p, size_t n);
/* The run ids of a job's boots (sorted), or a run's stats (sorted): into out. 0 or -errno. */
struct bb_strv;
int bb_store_runs(struct bb_store *st, const char *job, struct bb_strv *out, char *err,
                  size_t errlen);
int bb_store_stats(struct bb_store *st, const char *job, const char *run_id, struct bb_strv *out,
                   char *err, size_t errlen);

/* The kernels of a job's boots (in the order their first boots came; boots not counted),
 * each with its label as a trend's points name it. 0 or -errno with err. */
int bb_store_job_kernels(struct bb_store *st, const char *job, struct bb_store_kernel **out,
                         size_t *n, char *err, size_t errlen);
void bb_store_kernels_free(struct bb_store_kernel *k, size_t n);
/* The job file of the job's latest boot that records one (run.json's job_file), into out; ""
 * when none does. 0 or -errno with err. */
int bb_store_job_file(struct bb_store *st, const char *job, char *out, size_t len, char *err,
                      size_t errlen);

/* Make the index again from the folders it records: everything dropped, each folder added
 * again (a folder that is gone is said in err's list and left out). 0 or -errno. */
int bb_store_rebuild(struct bb_store *st, struct bb_store_added *out, char *missing,
                     size_t missinglen, char *err, size_t errlen);

#endif
