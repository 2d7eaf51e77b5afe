/*
 * The LKP monitors of a job (docs/jobs.md, "Monitors"): a monitor's name as a top-level key
 * turns it on (`vmstat:`, `proc-vmstat:`), with its options under it (`vmstat: {interval: 2}`),
 * `category: benchmark` brings LKP's default set (include/category/benchmark; the job's own
 * keys add to it, and `NAME-:` takes one out, as LKP's minus keys do). Those benchboot
 * implements (lib/parse/parse_monitor.h) go into the plan (`monitors=`, their options as
 * `monitor.NAME.OPTION=`) and run in each run's monitored iterations, kept apart after the
 * measured ones (`monitored: N`, default 1; `monitored: 0`: in every measured iteration, as
 * LKP runs them); the others stay recorded only.
 */
#ifndef BENCHBOOT_HOST_JOB_MONITORS_H
#define BENCHBOOT_HOST_JOB_MONITORS_H

#include <stddef.h>
#include <stdio.h>

#include "host/job/job.h"
#include "strv.h"

/* What an option of a monitor is to benchboot. */
enum bb_monopt {
	BB_MONOPT_UNKNOWN,  /* not an option of this monitor in LKP (LKP ignores it) */
	BB_MONOPT_SECONDS,  /* a time > 0 in seconds, into the plan (interval, duration) */
	BB_MONOPT_DELAY,    /* a time >= 0 in seconds, into the plan (delay) */
	BB_MONOPT_TEXT,     /* one line of text, into the plan (perf's events) */
	BB_MONOPT_RECORDED, /* an option of LKP's monitor benchboot does not act on: recorded */
};

/* 1 when name is one of LKP's monitors (its programs/NAME/monitor, or the default set). */
int bb_monitor_is_lkp(const char *name);
/* 1 when benchboot knows the options of monitor name (the others' are recorded only). */
int bb_monitor_has_options(const char *name);
/* What option is to monitor name. */
enum bb_monopt bb_monitor_option(const char *name, const char *option);
/* The options of monitor name, ", "-separated, into buf ("" for none). */
void bb_monitor_option_names(const char *name, char *buf, size_t len);
/* The option of monitor name nearest to a misspelt one, or NULL. */
const char *bb_monitor_option_nearest(const char *name, const char *option);

/* Why LKP's monitor name, which benchboot does not run, could not run here anyway (numa-*,
 * turbostat, perf-* without its part in this build), or NULL. */
const char *bb_monitor_unavailable(const char *name);

/* The monitors the job asks for that run (*run) and those benchboot does not implement yet
 * (*missing), each once, in the job's order and then the default set's, without those a
 * `NAME-:` key takes out. 0 or -ENOMEM. */
int bb_job_monitors(const struct bb_job *job, struct bb_strv *run, struct bb_strv *missing);

/* 1 when the job runs a monitor (one benchboot implements), 0 when not, -ENOMEM. */
int bb_job_runs_monitors(const struct bb_job *job);

/*
 * The list of `benchboot run --monitors`: `none`, `default` (those of LKP's default set that
 * benchboot runs) or names separated by commas, each a monitor benchboot runs. The names into
 * *out (emptied first). 0; -EINVAL with the reason in err; -ENOMEM.
 */
int bb_monitors_from_list(const char *list, struct bb_strv *out, char *err, size_t errlen);

/* `benchboot check`'s lines: the monitors that will run (and their options), those that are
 * unavailable here and why, those benchboot does not implement. */
void bb_job_print_monitors(FILE *f, const char *prefix, const struct bb_job *job);

#endif
