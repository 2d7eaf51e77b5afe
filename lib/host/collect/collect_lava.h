/*
 * `benchboot collect --lava URL JOBID...`: a finished LAVA job's results, from its log. The
 * log's console lines (lib/host/lab/lava_log.h) are read as `collect --console` reads a
 * serial log (the init's BENCHBOOT-FILE lines carry every result file), into
 * DIR/NNNN-BOOTID/ like a local run; DIR/run.json records, per boot, the LAVA server, job id,
 * device and how the job ended, and labels the boot bb_lava_job=ID, lava_device=NAME and (when
 * the job was written for a named kernel) kernel=NAME, as `benchboot run` labels its boots.
 *
 * A two-host job ran as a LAVA multinode job, one LAVA job per role: the client's job is
 * collected as above (its boot folder holds peer/env.json, the server host's environment), the
 * server's into DIR/server-host/ (with its own DIR/server-host/run.json), as `benchboot run`
 * collects a two-host boot; collect_lava_link then links the client's boot folder to it
 * (FOLDER/server-host -> ../server-host/SERVERFOLDER). Host only.
 */
#ifndef BENCHBOOT_HOST_COLLECT_LAVA_H
#define BENCHBOOT_HOST_COLLECT_LAVA_H

#include <stddef.h>

#include "host/collect/collect.h"
#include "strv.h"

struct lava_api;

struct collect_lava_job {
	long id;
	char state[32], health[32], device[128];
	char end[700];     /* how the job ended: Complete, or Incomplete/Canceled and why */
	char boot_id[128]; /* the boot its log holds ("" when none started) */
	char folder[300];  /* DIR/<folder> it was collected into ("" when nothing was) */
	char kernel[128];  /* its kernel label, from the definition's metadata */
	char role[32];     /* a multinode job's role: server or client ("" for one machine), as
	                    * bb_collect_boot_role says (the definition's without a collected boot) */
	char group[128];   /* and its target_group: the same for every role of one job */
	int complete;      /* the boot's `done` came back: every result file is there */
	int kernel_stalls; /* the kernel's lockup and stall reports in its log, and the first */
	char kernel_stall[512];
	/* every kernel report in its log as LKP's dmesg stat, with its first line (dmesg.h);
	 * owned: bb_collect_lava_job_free */
	struct bb_kvs dmesg;
};

/*
 * Collect one job into o->outdir and add it to DIR/run.json. Returns 0 (the job's outcome,
 * good or bad, in job; st counts files and problems), -EAGAIN when the job has not finished
 * (err says its state), -EMEDIUMTYPE when its log holds no result file (err says how the job
 * ended), or another -errno from the server (lava_api.h) or the disk.
 */
int bb_collect_lava_job(struct lava_api *api, const char *url, long id,
                        const struct collect_opts *o, struct collect_stats *st,
                        struct collect_lava_job *job, char *err, size_t errlen);

/* What bb_collect_lava_job allocated in job. */
void bb_collect_lava_job_free(struct collect_lava_job *job);

/*
 * Every client job of JOBS linked to the server job of its group (collect_lava_link), as the
 * jobs of a two-host LAVA job come in any order. A link that fails is told to MSG (its
 * message) and counted: returns how many failed.
 */
unsigned bb_collect_lava_link_groups(const char *url, const char *outdir,
                                     const struct collect_lava_job *jobs, size_t n,
                                     void (*msg)(void *ctx, const char *line), void *ctx);

#endif
