/* A job file's warnings (keys LKP would drop, with a did-you-mean; stressors the image's
 * stress-ng lacks) and its LKP keys not acted on, printed alike by check, build and run. */
#ifndef BENCHBOOT_JOBWARNINGS_H
#define BENCHBOOT_JOBWARNINGS_H

#include <stdio.h>

struct bb_job;
struct bb_strv;

/* Each warning of a parsed job on stderr: "benchboot VERB: warning: ...". */
void bb_job_print_warnings(const char *verb, const struct bb_job *job);
/* The keys recorded but not acted on, one line per kind, each line starting with prefix. */
void bb_job_print_notes(FILE *f, const char *prefix, const struct bb_job *job);
/* Parse the job at path with its --set overrides (sets, NULL for none) and print its
 * warnings and notes on stderr; a job that does not parse prints nothing here (the verb
 * reports it). */
void bb_job_file_warnings(const char *verb, const char *path, const struct bb_strv *sets);

#endif
