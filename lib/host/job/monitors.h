/*
 * The LKP monitors of a job (docs/jobs.md, "Monitors"): a monitor's name as a top-level key
 * (`vmstat:`, `proc-vmstat:`) turns it on, `category: benchmark` brings LKP's default set
 * (include/category/benchmark). Those benchboot implements (lib/parse_monitor.h) go into the
 * plan (`monitors=`) and run in every iteration; the others stay recorded only.
 */
#ifndef BENCHBOOT_HOST_JOB_MONITORS_H
#define BENCHBOOT_HOST_JOB_MONITORS_H

#include <stdio.h>

#include "host/job/job.h"
#include "strv.h"

/* The monitors the job asks for that run (*run) and those benchboot does not implement yet
 * (*missing), each once, in the job's order and then the default set's. 0 or -ENOMEM. */
int bb_job_monitors(const struct bb_job *job, struct bb_strv *run, struct bb_strv *missing);

/* `benchboot check`'s lines: the monitors that will run, those not implemented yet. */
void bb_job_print_monitors(FILE *f, const char *prefix, const struct bb_job *job);

#endif
