/*
 * The options of LKP's monitors as a job's top-level keys give them (`vmstat: {interval: 2}`,
 * docs/jobs.md "Monitors"): which monitors are LKP's, whose options benchboot checks, and what
 * each option is to benchboot. The job's reader (job.h) checks a monitor's key with these; the
 * monitors a job runs are monitors.h's.
 */
#ifndef BENCHBOOT_HOST_JOB_MONITOR_OPTIONS_H
#define BENCHBOOT_HOST_JOB_MONITOR_OPTIONS_H

#include <stddef.h>

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

#endif
