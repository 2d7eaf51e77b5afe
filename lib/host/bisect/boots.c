/* The boots of a bisection: booted through a run session, or replayed; see boots.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/bisect/bootlog.h"
#include "host/bisect/boots.h"
#include "host/bisect/bootvals.h"
#include "host/errbuf.h"

struct bb_bisect_boots {
	const struct bb_bisect_boots_opts *o;
	struct bb_run_opts ro;
	struct bb_run_result res;
	struct bb_run_session *session;
	char log[4200];
	struct bb_bootlog_entry *old; /* the log's entries (resume) */
	size_t nold, *next;           /* per candidate: where its next logged boot is sought */
	unsigned *boot_no;            /* per candidate: its boots so far */
	char *prepared;               /* per candidate: made by o->prepare */
	int pairs;                    /* the source boots pairs side by side */
	size_t replayed, booted, used;
	char stat[256];
};

static void say(const struct bb_bisect_boots *b, enum bb_run_say to, const char *line)
{
	if (b->o->say)
		b->o->say(b->o->ctx, to, line);
}

/* The log of an earlier invocation: refused without resume, read and checked with it. */
static int read_log(struct bb_bisect_boots *b, char *err, size_t errlen)
{
	const struct bb_bisect_boots_opts *o = b->o;
	struct stat st;
	char note[1024];
	if (stat(b->log, &st) || !st.st_size)
		return 0;
	if (!o->resume)
		return bb_errbuf_fail(
		    err, errlen, -EEXIST,
		    "%s holds the boots of an earlier bisection: --resume continues "
		    "it, another -o DIR starts anew",
		    b->log);
	int rc = bb_bootlog_read(b->log, &b->old, &b->nold, note, sizeof(note), err, errlen);
	if (rc)
		return rc;
	if (*note)
		say(b, BB_RUN_WARN, note);
	for (size_t i = 0; i < b->nold; i++) {
		const struct bb_bootlog_entry *e = &b->old[i];
		if (e->index >= o->ncand || strcmp(o->cands[e->index].name, e->name))
			return bb_errbuf_fail(
			    err, errlen, -EINVAL,
			    "%s: boot %zu is of candidate %zu '%s', which the "
			    "candidates %s: not the same bisection (another -o DIR "
			    "starts anew)",
			    b->log, i + 1, e->index, e->name,
			    e->index >= o->ncand ? "do not have" : "call otherwise");
		if (e->ok && o->stat && strcmp(o->stat, e->stat))
			return bb_errbuf_fail(
			    err, errlen, -EINVAL,
			    "%s: boot %zu followed %s, not %s: not the same bisection", b->log,
			    i + 1, e->stat, o->stat);
		if (e->ok && *b->stat && strcmp(b->stat, e->stat))
			return bb_errbuf_fail(err, errlen, -EINVAL,
			                      "%s: boot %zu followed %s, not %s", b->log, i + 1,
			                      e->stat, b->stat);
		if (e->ok)
			snprintf(b->stat, sizeof(b->stat), "%s", e->stat);
	}
	return 0;
}

int bb_bisect_boots_open(const struct bb_bisect_boots_opts *o, struct bb_bisect_boots **out,
                         char *err, size_t errlen)
{
	struct bb_bisect_boots *b = calloc(1, sizeof(*b));
	int rc = 0;
	*out = NULL;
	if (!b)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	b->o = o;
	if (o->ncand > BB_RUN_MAX_KERNELS)
		rc = bb_errbuf_fail(err, errlen, -EINVAL, "%zu candidates, at most %d", o->ncand,
		                    BB_RUN_MAX_KERNELS);
	else if (!(b->next = calloc(o->ncand, sizeof(*b->next))) ||
	         !(b->boot_no = calloc(o->ncand, sizeof(*b->boot_no))) ||
	         !(b->prepared = calloc(o->ncand, sizeof(*b->prepared))))
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	snprintf(b->log, sizeof(b->log), "%s/boots.jsonl", o->outdir);
	if (!rc)
		rc = read_log(b, err, errlen);
	struct bb_run_opts *ro = &b->ro;
	ro->job = o->job;
	ro->sets = o->sets;
	ro->outdir = o->outdir;
	ro->images = o->images;
	ro->accel = o->accel;
	ro->cpus = o->cpus;
	ro->mem_mb = o->mem_mb;
	ro->parallel = o->parallel >= 2 ? 2 : 0;
	ro->decide = 1;
	ro->interrupt = o->interrupt;
	ro->say = o->say;
	ro->status = o->status;
	ro->ctx = o->ctx;
	for (size_t i = 0; !rc && i < o->ncand; i++) {
		struct bb_run_kernel *k = &ro->kernels[ro->nkernels++];
		snprintf(k->name, sizeof(k->name), "%s", o->cands[i].name);
		k->vmlinuz = o->cands[i].vmlinuz;
		k->modules = o->cands[i].modules;
		k->append = o->cands[i].append;
	}
	if (!rc && o->prepare) {
		const char *vmlinuz = NULL, *modules = NULL;
		rc = o->prepare(o->prepare_ctx, 0, &vmlinuz, &modules, err, errlen);
		if (rc > 0)
			rc = -EINVAL; /* the good end must be testable: err says why not */
		ro->kernels[0].vmlinuz = vmlinuz;
		ro->kernels[0].modules = modules;
		if (!rc)
			b->prepared[0] = 1;
	}
	if (!rc)
		rc = bb_run_session_open(ro, &b->res, &b->session, err, errlen);
	if (!rc)
		b->pairs = o->parallel >= 2 && bb_run_session_pairs(b->session);
	if (!rc && b->res.ngroups > 1)
		rc = bb_errbuf_fail(err, errlen, -EINVAL,
		                    "%s has %zu boot groups: a bisection boots one (narrow the job "
		                    "with --set)",
		                    o->job, b->res.ngroups);
	if (rc) {
		bb_bisect_boots_close(b);
		return rc;
	}
	*out = b;
	return 0;
}

/* The candidate's next boot from the log, or NULL. */
static const struct bb_bootlog_entry *replay(struct bb_bisect_boots *b, size_t cand)
{
	for (size_t i = b->next[cand]; i < b->nold; i++)
		if (b->old[i].index == cand) {
			b->next[cand] = i + 1;
			b->used++;
			return &b->old[i];
		}
	b->next[cand] = b->nold;
	return NULL;
}

/* Log e (cand's next boot); a log that cannot be written ends the bisection. */
static int log_boot(struct bb_bisect_boots *b, size_t cand, struct bb_bootlog_entry *e, char *err,
                    size_t errlen)
{
	snprintf(e->name, sizeof(e->name), "%s", b->o->cands[cand].name);
	e->index = cand;
	e->boot = ++b->boot_no[cand];
	e->ok = !strcmp(e->outcome, "ok");
	b->booted++;
	return bb_bootlog_append(b->log, e, err, errlen);
}

/* The boot just made (the session's last record) into e: 0 (e->outcome "ok" or how it
 * failed), or -errno to end the bisection. */
static int take_record(struct bb_bisect_boots *b, size_t idx, struct bb_bootlog_entry *e, char *err,
                       size_t errlen)
{
	const struct bb_run_record *rec = &b->res.recs[idx];
	char dir[4400];
	snprintf(e->folder, sizeof(e->folder), "%s", rec->folder);
	snprintf(e->detail, sizeof(e->detail), "%s", rec->detail);
	if (b->res.interrupted)
		return bb_errbuf_fail(err, errlen, -EINTR, "interrupted");
	if (!strcmp(rec->outcome, "qemu-failed"))
		return bb_errbuf_fail(err, errlen, -ENOEXEC, "unable to run QEMU: %s", rec->detail);
	if (!rec->finished || !*rec->folder) {
		snprintf(e->outcome, sizeof(e->outcome), "%s",
		         !rec->finished ? rec->outcome : "no-results");
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/%s", b->res.outdir, rec->folder);
	char stat[256];
	int rc = bb_boot_values(dir,
	                        b->o->stat ? b->o->stat
	                        : *b->stat ? b->stat
	                                   : NULL,
	                        e->vals, BB_BISECT_MAX_VALUES, &e->n, stat, sizeof(stat), e->detail,
	                        sizeof(e->detail));
	if (rc == -ENODATA) {
		snprintf(e->outcome, sizeof(e->outcome), "failed-runs");
		return 0;
	}
	if (rc)
		return bb_errbuf_fail(err, errlen, rc, "%s", e->detail);
	snprintf(e->outcome, sizeof(e->outcome), "ok");
	snprintf(e->stat, sizeof(e->stat), "%s", stat);
	snprintf(b->stat, sizeof(b->stat), "%s", stat);
	*e->detail = 0;
	return 0;
}

/* Candidate cand made (o->prepare) before its first boot: 0, 1 untestable, -errno. */
static int prepare(struct bb_bisect_boots *b, size_t cand, char *err, size_t errlen)
{
	if (!b->o->prepare || b->prepared[cand])
		return 0;
	const char *vmlinuz = NULL, *modules = NULL;
	int rc = b->o->prepare(b->o->prepare_ctx, cand, &vmlinuz, &modules, err, errlen);
	if (rc)
		return rc;
	b->prepared[cand] = 1;
	bb_run_session_set_kernel(b->session, cand, vmlinuz, modules);
	return 0;
}

static int boot(void *ctx, size_t cand, double *vals, size_t cap, size_t *n, char *err,
                size_t errlen)
{
	struct bb_bisect_boots *b = ctx;
	const struct bb_bootlog_entry *old = replay(b, cand);
	struct bb_bootlog_entry e;
	char line[4800];
	int rc;
	*n = 0;
	if (old) {
		b->replayed++;
		b->boot_no[cand] = old->boot > b->boot_no[cand] ? old->boot : b->boot_no[cand];
		snprintf(line, sizeof(line), "replayed: %s boot %u from %.4300s: %s", old->name,
		         old->boot, b->log, old->ok ? "ok" : old->outcome);
		say(b, BB_RUN_OUT, line);
		if (!old->ok)
			return 1;
		*n = old->n < cap ? old->n : cap;
		memcpy(vals, old->vals, *n * sizeof(*vals));
		return 0;
	}
	if (b->o->interrupt && *b->o->interrupt)
		return bb_errbuf_fail(err, errlen, -EINTR, "interrupted");
	memset(&e, 0, sizeof(e));
	rc = prepare(b, cand, err, errlen);
	if (!rc)
		rc = bb_run_session_boot(b->session, cand, err, errlen);
	if (rc < 0)
		return rc;
	if (rc > 0) {
		snprintf(line, sizeof(line), "candidate %s cannot be tested: %.4000s",
		         b->o->cands[cand].name, err);
		say(b, BB_RUN_WARN, line);
		snprintf(e.outcome, sizeof(e.outcome), "build-failed");
		snprintf(e.detail, sizeof(e.detail), "%s", err);
	} else if ((rc = take_record(b, b->res.nrecs - 1, &e, err, errlen))) {
		return rc;
	}
	if ((rc = log_boot(b, cand, &e, err, errlen)))
		return rc;
	if (!e.ok)
		return 1;
	*n = e.n < cap ? e.n : cap;
	memcpy(vals, e.vals, *n * sizeof(*vals));
	return 0;
}

/* Both sides one after the other, as single boots. */
static int boot_pair_single(struct bb_bisect_boots *b, const size_t k[2], double *vals[2],
                            size_t cap, size_t n[2], int rc[2], char *err, size_t errlen)
{
	for (int j = 0; j < 2; j++) {
		int r = boot(b, k[j], vals[j], cap, &n[j], err, errlen);
		if (r < 0)
			return r;
		rc[j] = r;
	}
	return 0;
}

/* A logged boot's values handed to the core. */
static void hand(const struct bb_bootlog_entry *e, double *vals, size_t cap, size_t *n, int *rc)
{
	*rc = !e->ok;
	*n = e->ok ? (e->n < cap ? e->n : cap) : 0;
	memcpy(vals, e->vals, *n * sizeof(*vals));
}

static int boot_pair(void *ctx, size_t ref, size_t cand, double *vals[2], size_t cap, size_t n[2],
                     int rc[2], char *err, size_t errlen)
{
	struct bb_bisect_boots *b = ctx;
	size_t k[2] = {ref, cand};
	int r;
	/* a side the log holds (a resumed bisection), or one that has to be built first: the two
	 * one after the other, as single boots */
	int single = 0;
	for (int j = 0; j < 2; j++) {
		size_t at = b->next[k[j]];
		while (at < b->nold && b->old[at].index != k[j])
			at++;
		single |= at < b->nold || (b->o->prepare && !b->prepared[k[j]]);
	}
	if (single)
		return boot_pair_single(b, k, vals, cap, n, rc, err, errlen);
	if (b->o->interrupt && *b->o->interrupt)
		return bb_errbuf_fail(err, errlen, -EINTR, "interrupted");
	size_t first = b->res.nrecs;
	r = bb_run_session_boot_pair(b->session, ref, cand, err, errlen);
	if (r < 0)
		return r;
	if (r > 0) /* images that cannot be built: the sides one at a time, as boot says it */
		return boot_pair_single(b, k, vals, cap, n, rc, err, errlen);
	for (int j = 0; j < 2; j++) {
		struct bb_bootlog_entry e;
		memset(&e, 0, sizeof(e));
		rc[j] = 1;
		n[j] = 0;
		if (first + (size_t)j >= b->res.nrecs)
			return bb_errbuf_fail(err, errlen, -EINTR, "interrupted");
		if ((r = take_record(b, first + (size_t)j, &e, err, errlen)) ||
		    (r = log_boot(b, k[j], &e, err, errlen)))
			return r;
		hand(&e, vals[j], cap, &n[j], &rc[j]);
	}
	return 0;
}

struct bb_bisect_source bb_bisect_boots_source(struct bb_bisect_boots *b)
{
	return (struct bb_bisect_source){
	    .boot = boot, .boot_pair = b->pairs ? boot_pair : NULL, .ctx = b};
}

void bb_bisect_boots_count(const struct bb_bisect_boots *b, struct bb_bisect_boots_count *c)
{
	memset(c, 0, sizeof(*c));
	c->replayed = b->replayed;
	c->booted = b->booted;
	c->replay_left = b->nold - b->used;
	snprintf(c->stat, sizeof(c->stat), "%s", b->stat);
	if (b->res.nrecs && b->res.recs[b->res.nrecs - 1].accel)
		snprintf(c->accel, sizeof(c->accel), "%s", b->res.recs[b->res.nrecs - 1].accel);
	c->run = &b->res;
}

void bb_bisect_boots_close(struct bb_bisect_boots *b)
{
	if (!b)
		return;
	bb_run_session_close(b->session);
	bb_run_result_free(&b->res);
	free(b->old);
	free(b->next);
	free(b->boot_no);
	free(b->prepared);
	free(b);
}
