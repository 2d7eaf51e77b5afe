/* Submitting to a LAVA server and watching the jobs; see bb_lava_watch.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "grow.h"
#include "host/errbuf.h"
#include "host/lab/lava_api.h"
#include "host/lab/lava_log.h"
#include "host/lab/lava_watch.h"

int bb_lava_watch_submit(struct lava_api *api, const char *definition,
                         const struct lava_watch_job *proto, struct lava_watch_job **jobs,
                         size_t *cap, size_t *nj, char *err, size_t errlen)
{
	long id, ids[16];
	size_t njobs, n = 1;
	struct lava_job lj;
	struct lava_job_meta meta;
	int r = bb_lava_api_submit(api, definition, &id, &njobs, err, errlen);
	if (r)
		return r;
	ids[0] = id;
	if (njobs > 1) {
		/* the first job's definition names the group; the group lists them all */
		if ((r = bb_lava_api_job(api, id, &lj, err, errlen)))
			return r;
		r = !lj.definition || bb_lava_definition_meta(lj.definition, &meta) ||
		    !*meta.target_group;
		bb_lava_job_free(&lj);
		if (r)
			return bb_errbuf_fail(err, errlen, -EPROTO,
			                      "job %ld: a multinode job whose definition names no "
			                      "target_group",
			                      id);
		if ((r = bb_lava_api_group(api, meta.target_group, ids, 16, &n, err, errlen)))
			return r;
		if (n != njobs)
			return bb_errbuf_fail(
			    err, errlen, -EPROTO,
			    "job %ld: LAVA made %zu jobs of it, its group %s lists %zu", id, njobs,
			    meta.target_group, n);
	}
	if (bb_grow(jobs, cap, *nj + n, sizeof(**jobs)))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t k = 0; k < n; k++) {
		struct lava_watch_job *x = &(*jobs)[*nj + k];
		*x = *proto;
		x->id = ids[k];
		if (njobs > 1) {
			if ((r = bb_lava_api_job(api, ids[k], &lj, err, errlen)))
				return r;
			if (lj.definition && !bb_lava_definition_meta(lj.definition, &meta))
				snprintf(x->role, sizeof(x->role), "%s", meta.role);
			bb_lava_job_free(&lj);
		}
	}
	*nj += n;
	return 0;
}

/* How a finished job ended: Complete; Incomplete with LAVA's error type and message (from the
 * job log's last result); Canceled. */
static void ended(struct lava_api *api, struct lava_watch_job *j, const struct lava_job *lj)
{
	if (!strcmp(lj->health, "Incomplete") || !strcmp(lj->health, "Canceled")) {
		struct lava_log_info info = {0};
		char err[512] = "";
		FILE *f = tmpfile();
		int r = f ? bb_lava_api_log(api, j->id, f, err, sizeof(err)) : -errno;
		if (!r) {
			rewind(f);
			r = bb_lava_log_console(f, NULL, &info, err, sizeof(err));
		}
		if (f)
			fclose(f);
		if (r)
			snprintf(j->end, sizeof(j->end), "%s (its log: %s)", lj->health, err);
		else
			bb_lava_job_end_text(lj->health, lj->failure, &info, j->end,
			                     sizeof(j->end));
	} else {
		snprintf(j->end, sizeof(j->end), "%s", lj->health);
	}
}

/* One look at every unfinished job. 0; 1 when the server did not answer (ask again later;
 * *failing_since set when it was not); -errno with err when it failed for good. An answer
 * clears *failing_since. */
static int look(struct lava_api *api, struct lava_watch_job *jobs, size_t n, size_t *left,
                const struct lava_watch_ops *ops, char *err, size_t errlen, int *changed,
                time_t *failing_since)
{
	for (size_t i = 0; i < n; i++) {
		struct lava_watch_job *j = &jobs[i];
		struct lava_job lj;
		if (j->finished)
			continue;
		int r = bb_lava_api_job(api, j->id, &lj, err, errlen);
		if (r) {
			/* the server may restart or be busy: asked again */
			if (r != -ECONNREFUSED && r != -EIO)
				return r;
			if (!*failing_since)
				*failing_since = time(NULL);
			return 1;
		}
		*failing_since = 0;
		if (strcmp(lj.state, j->state) || strcmp(lj.device, j->device)) {
			snprintf(j->state, sizeof(j->state), "%s", lj.state);
			snprintf(j->device, sizeof(j->device), "%s", lj.device);
			snprintf(j->health, sizeof(j->health), "%s", lj.health);
			if (!strcmp(lj.state, "Finished")) {
				ended(api, j, &lj);
				j->finished = 1;
				(*left)--;
			}
			if (ops->on_change)
				ops->on_change(ops->ctx, j);
			*changed = 1;
		}
		bb_lava_job_free(&lj);
	}
	return 0;
}

int bb_lava_watch(struct lava_api *api, struct lava_watch_job *jobs, size_t n, unsigned poll_s,
                  unsigned minutes, const struct lava_watch_ops *ops, char *err, size_t errlen)
{
	time_t start = time(NULL), last_note = start, failing_since = 0;
	size_t left = 0;
	for (size_t i = 0; i < n; i++)
		left += !jobs[i].finished;
	while (left) {
		int changed = 0;
		int r = look(api, jobs, n, &left, ops, err, errlen, &changed, &failing_since);
		if (r < 0)
			return r;
		if (r) {
			if (ops->on_retry)
				ops->on_retry(ops->ctx, err);
			if (time(NULL) - failing_since > LAVA_WATCH_NO_ANSWER_S)
				return bb_errbuf_fail(err, errlen, -ETIMEDOUT,
				                      "no answer from the server for two minutes");
		}
		if (changed)
			last_note = time(NULL);
		if (!left)
			break;
		time_t now = time(NULL);
		if (now - start > (time_t)minutes * 60) {
			for (size_t i = 0; i < n; i++)
				if (!jobs[i].finished)
					snprintf(jobs[i].end, sizeof(jobs[i].end),
					         "not finished after %u minutes (still %s): not "
					         "waited for",
					         minutes, jobs[i].state);
			break;
		}
		if (now - last_note >= 60) {
			unsigned running = 0, queued = 0;
			for (size_t i = 0; i < n; i++)
				if (!jobs[i].finished)
					strcmp(jobs[i].state, "Running") ? queued++ : running++;
			if (ops->on_waiting)
				ops->on_waiting(ops->ctx, n - left, n, running, queued,
				                (long)(now - start) / 60);
			last_note = now;
		}
		sleep(poll_s);
	}
	return 0;
}
