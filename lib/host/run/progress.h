/*
 * The progress of one boot read from its serial console (the init's BENCHBOOT lines): one
 * line per event ("boot 2/4: run 1/2 ID iteration 1/3 (5 s): PARAMS") and a status line for a
 * terminal (which run, time left, the last result), handed to the caller's callbacks. Its
 * line handler sets the console silence allowed: runtime + grace + 60 s from a run's
 * run-start to its run-end, the default outside runs.
 */
#ifndef BENCHBOOT_HOST_RUN_PROGRESS_H
#define BENCHBOOT_HOST_RUN_PROGRESS_H

#include "host/run/run.h"
#include "plan/plan.h"

struct bb_progress {
	const struct bb_run_opts *o; /* say, status, ctx */
	int boot_no, nboots;
	const struct bb_plan *plan; /* the boot's plan, or NULL */
	const char *kernel_name;
	const char *role; /* a two-host boot: "server" or "client" (in every line), else NULL */
	char boot_id[128];
	int runs_total, run_no, ok, failed;
	char run_id[256], counted_run[256];
	int iter, niter;
	int warmup; /* the run in progress is the boot's warmup-th warm-up iteration (0: measured)
	             */
	int monitored; /* ... or its run's monitored-th monitored iteration (0: measured) */
	double run_start, runtime, boot_start;
	double run_limit_at; /* bb_now() time: the running run's silence limit ends (0: none) */
	char last[256];      /* the last iteration's leading stat ("NAME = V UNIT") */
	int last_rank;       /* its rank (bb_suite_primary_rank), INT_MAX at a run's start */
	int boot_end_seen, iterations;
	int writer_died; /* the init's results writer died: its results went to the console */
	/* the init's results-disk-error line (without "BENCHBOOT "), "" for none: the disk was
	 * given up, the results went to the console from then on */
	char disk_error[512];
	char shown[1024];
	double default_silence;
};

/* A "boot N/M: ..." line. */
void bb_progress_event(struct bb_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* bb_qemu_opts.on_line and on_tick, with the progress as ctx. */
double bb_progress_line(void *ctx, const char *line);
void bb_progress_tick(void *ctx);

double bb_now(void); /* CLOCK_MONOTONIC seconds */

#endif
