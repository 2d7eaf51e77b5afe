/*
 * The boots of a bisection: each candidate booted once at a time through a run session
 * (host/run/run.h: the job's images built once per candidate, at its first boot, the boots
 * collected into DIR with run.json), its primary stat's values taken from the collected boot
 * (host/bisect/bootvals.h), every boot logged in DIR/boots.jsonl (host/bisect/bootlog.h). With
 * resume, the log's boots are handed back first, candidate by candidate in their order, and
 * only then are candidates booted anew. The decision core (decide.h) gets them through
 * bb_bisect_boots_source. Host only; progress through the run's say and status callbacks.
 */
#ifndef BENCHBOOT_HOST_BISECT_BOOTS_H
#define BENCHBOOT_HOST_BISECT_BOOTS_H

#include <signal.h>
#include <stddef.h>

#include "host/bisect/decide.h"
#include "host/bisect/kernels.h"
#include "host/run/run.h"

struct bb_bisect_boots_opts {
	const char *job;
	const struct bb_strv *sets; /* --set overrides of the job, or NULL */
	const struct bb_bisect_cand *cands;
	size_t ncand;
	const char *stat;   /* NULL: the suite's primary stat */
	const char *outdir; /* boots, run.json, console/, results.img, boots.jsonl */
	const char *images; /* NULL: images */
	enum bb_accel accel;
	int cpus, mem_mb; /* 0: run's defaults */
	/* 2: a comparison's two sides booted side by side in pairs (run --parallel 2's placement:
	 * each VM on its own host CPUs; one at a time when the host has no room), 0: one at a
	 * time */
	int parallel;
	int resume; /* replay DIR/boots.jsonl first; else a non-empty log is -EEXIST */
	volatile sig_atomic_t *interrupt; /* nonzero: the VM stopped, the bisection ends */
	/*
	 * Candidates made on demand (built from a tree), or NULL: called for candidate 0 at open
	 * and for any other before its first boot made now (not for replayed ones), it gives the
	 * candidate's vmlinuz and modules (strings it keeps until close). 0 made; 1 it cannot be
	 * made (err says why: the candidate is untestable, as a failed build); -errno ends the
	 * bisection (-EINTR: interrupted).
	 */
	int (*prepare)(void *ctx, size_t cand, const char **vmlinuz, const char **modules,
	               char *err, size_t errlen);
	void *prepare_ctx;
	void (*say)(void *ctx, enum bb_run_say to, const char *line);
	void (*status)(void *ctx, const char *line);
	void *ctx;
};

struct bb_bisect_boots;

/*
 * Open: the run session (as bb_run_session_open; a job with more than one boot group is
 * -EINVAL), the log read when resuming (a log of another bisection, whose candidate at an
 * index has another name, or another stat, is -EINVAL). 0, or -errno with err.
 */
int bb_bisect_boots_open(const struct bb_bisect_boots_opts *o, struct bb_bisect_boots **b,
                         char *err, size_t errlen);
/* Its source for bb_bisect / bb_bisect_compare: a boot's values, 1 for a failed boot or a
 * candidate that does not build, -EINTR when interrupted, -ENOEXEC when QEMU cannot run,
 * -EINVAL when the boot has not the stat (or more than one run with it), -errno else. */
struct bb_bisect_source bb_bisect_boots_source(struct bb_bisect_boots *b);

struct bb_bisect_boots_count {
	size_t replayed, booted;         /* boots from the log; boots made now */
	size_t replay_left;              /* log entries not asked for (yet) */
	char stat[256];                  /* the stat followed ("" before the first boot) */
	char accel[8];                   /* "kvm" or "tcg" (of the last boot made; "" none) */
	const struct bb_run_result *run; /* the session's boots */
};
void bb_bisect_boots_count(const struct bb_bisect_boots *b, struct bb_bisect_boots_count *c);
void bb_bisect_boots_close(struct bb_bisect_boots *b);

#endif
