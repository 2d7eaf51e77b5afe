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
#include "host/job/monitor_options.h"
#include "strv.h"

/* Why LKP's monitor name, which benchboot does not run, could not run here anyway (numa-*,
 * turbostat), or NULL. */
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
