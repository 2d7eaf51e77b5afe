/*
 * A LAVA server's REST API (v0.2, as lava-server 2023.01 serves it), over HTTP with libcurl:
 * submit a job definition, read a job's state, health and device, fetch its log. Every request
 * carries `Authorization: Token TOKEN`; the token comes from the environment or a file, never
 * from the command line (bb_lava_api_token).
 *
 *   POST /api/v0.2/jobs/            {"definition": YAML}  -> 201 {"job_ids": [N]}, or for a
 *                                   multinode job {"job_ids": ["N.0", "N.1", ...]}
 *   GET  /api/v0.2/jobs/N/          {"state", "health", "actual_device", "failure_comment", ...}
 *   GET  /api/v0.2/jobs/?target_group=G  the jobs of one multinode submission
 *   GET  /api/v0.2/jobs/N/logs/     the job log: YAML, one {dt, lvl, msg} per line
 *   GET  /api/v0.2/system/version/  {"version": "2023.01"}
 *
 * Returns are 0 or -errno with a message: -ECONNREFUSED (the server did not answer), -EACCES
 * (401/403: a wrong token), -ENOENT (404: no such job, or no log yet), -EINVAL (400: the
 * server refused the definition; its message is in err), -EPROTO (an answer that is not what
 * the API gives), -EIO (another HTTP status), -ENOMEM. Host only.
 */
#ifndef BENCHBOOT_HOST_LAB_LAVA_API_H
#define BENCHBOOT_HOST_LAB_LAVA_API_H

#include <stddef.h>
#include <stdio.h>

struct lava_api;

/* The token: $BENCHBOOT_LAVA_TOKEN, else the first line of file (when not NULL). */
#define LAVA_TOKEN_ENV "BENCHBOOT_LAVA_TOKEN"
int bb_lava_api_token(const char *file, char *out, size_t outlen, char *err, size_t errlen);

/* url: the server's base URL (http://host[:port][/mount]), a trailing '/' or not. token NULL or
 * "": anonymous (public jobs can be read so). */
int bb_lava_api_open(const char *url, const char *token, struct lava_api **out, char *err,
                     size_t errlen);
void bb_lava_api_close(struct lava_api *a);

/* The server's version string ("2023.01"). */
int bb_lava_api_version(struct lava_api *a, char *out, size_t outlen, char *err, size_t errlen);

/*
 * Submit one job definition: its id in *id and *njobs = 1; a multinode definition makes one job
 * per role and device: *njobs of them, *id the first's (bb_lava_api_group finds the others from
 * the target_group in its definition).
 */
int bb_lava_api_submit(struct lava_api *a, const char *definition, long *id, size_t *njobs,
                       char *err, size_t errlen);

/* The ids of the jobs of one multinode submission (its target_group), ascending; at most max. */
int bb_lava_api_group(struct lava_api *a, const char *target_group, long *ids, size_t max,
                      size_t *n, char *err, size_t errlen);

struct lava_job {
	long id;
	char state[32];    /* Submitted, Scheduling, Scheduled, Running, Canceling, Finished */
	char health[32];   /* Unknown (not finished), Complete, Incomplete, Canceled */
	char device[128];  /* actual_device ("" before it is scheduled) */
	char failure[512]; /* failure_comment ("" when none) */
	char *definition;  /* the job definition as the server keeps it (malloc'd, may be NULL) */
};
int bb_lava_api_job(struct lava_api *a, long id, struct lava_job *job, char *err, size_t errlen);
void bb_lava_job_free(struct lava_job *job);

/* Write the job's whole log to f. */
int bb_lava_api_log(struct lava_api *a, long id, FILE *f, char *err, size_t errlen);

#endif
