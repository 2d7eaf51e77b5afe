/*
 * Submitting job definitions to a LAVA server and watching them to their end (lava_api.h
 * underneath): a multinode definition becomes one job per role; the watch polls every job
 * until each is Finished or the time is up, and says how each ended (for Incomplete and
 * Canceled jobs, LAVA's error from the job's log, lava_log.h). What `benchboot lava --submit`
 * does; the progress goes to callbacks, this code prints nothing. Host only.
 */
#ifndef BENCHBOOT_HOST_LAVA_WATCH_H
#define BENCHBOOT_HOST_LAVA_WATCH_H

#include <stddef.h>

struct lava_api;

struct lava_watch_job {
	long id;
	const void *user; /* the caller's: copied to every job of one definition */
	unsigned round;   /* the caller's, the same */
	char role[32];    /* a multinode job's role (server, client), "" for a one-device job */
	char state[32], health[32], device[128];
	int finished;
	char end[900]; /* how it ended: Complete, Incomplete (LAVA's error), Canceled, or why it
	                * was not waited for */
};

/*
 * Submit one definition: its job (a multinode job: every role's job, each with its role, from
 * the group the first job names) appended to *jobs (n used, cap allocated), each a copy of
 * proto with its id and role. 0, or -errno with err.
 */
int bb_lava_watch_submit(struct lava_api *api, const char *definition,
                         const struct lava_watch_job *proto, struct lava_watch_job **jobs,
                         size_t *cap, size_t *n, char *err, size_t errlen);

struct lava_watch_ops {
	/* a job's state or device changed (finished and end set when it is Finished) */
	void (*on_change)(void *ctx, const struct lava_watch_job *j);
	/* the server did not answer (err); asked again at the next poll */
	void (*on_retry)(void *ctx, const char *err);
	/* a minute without a change: how many finished, running, queued, minutes waited */
	void (*on_waiting)(void *ctx, size_t finished, size_t n, unsigned running, unsigned queued,
	                   long minutes);
	void *ctx;
};

/* How long the server may go on not answering before the watch gives up. */
#define LAVA_WATCH_NO_ANSWER_S 120

/*
 * Watch jobs[0..n) every poll_s seconds until all are Finished or minutes have passed (the
 * unfinished ones then get an end saying so; not an error). 0; -errno with err when the
 * server failed for good: an error that asking again does not mend, or no answer for
 * LAVA_WATCH_NO_ANSWER_S (-ETIMEDOUT).
 */
int bb_lava_watch(struct lava_api *api, struct lava_watch_job *jobs, size_t n, unsigned poll_s,
                  unsigned minutes, const struct lava_watch_ops *ops, char *err, size_t errlen);

#endif
