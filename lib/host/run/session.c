/*
 * The boots of `benchboot run` in order (runctx.h): every round of every boot group on every
 * kernel (bb_run), or one kernel or one pair at a time (bb_run_session_*, for bisect); each
 * boot on one VM, side by side (parallel.c) or on two hosts (pair.c); --until after each.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/run/progress.h"
#include "host/run/run.h"
#include "host/run/runctx.h"
#include "host/run/until.h"

static void boot_one(struct run *r, const struct bootspec *s, size_t nboots)
{
	struct bb_run_result *res = r->res;
	size_t idx = res->nrecs;
	struct bb_progress p;
	struct bb_qemu_result qres;
	bb_run_boot_begin(r, s, idx, nboots, r->o, &p);
	int qr = bb_run_qemu(r, s, &p, &res->recs[idx], res->disk, NULL, &qres);
	res->nrecs++;
	if (!bb_run_boot_end(r, s, idx, &p, qr, &qres, res->disk))
		bb_run_write_json(r);
}

static void until_say(void *ctx, const char *line)
{
	bb_run_say(ctx, BB_RUN_OUT, "%s", line);
}

static size_t until_max_boots(const struct bb_run_opts *o)
{
	return (size_t)(o->max_boots > 0 ? o->max_boots : BB_RUN_UNTIL_MAX_BOOTS);
}

/* --until after a boot: 1 to stop (settled, or no interval can be had: said in res). */
static int until_done(struct run *r)
{
	const struct bb_run_opts *o = r->o;
	struct bb_run_result *res = r->res;
	char why[1024], err[1024];
	struct bb_until u = {.target = o->until,
	                     .key = o->until_by ? o->until_by : "kernel",
	                     .a = o->until_by ? NULL : r->kernels[0].name,
	                     .b = o->until_by ? NULL : r->kernels[1].name,
	                     .stat = o->until_stat,
	                     .confidence = bb_until_confidence(until_max_boots(o)),
	                     .say = until_say,
	                     .ctx = r};
	int rc = bb_until_check(&u, res->outdir, why, sizeof(why), err, sizeof(err));
	if (rc < 0) {
		res->until_error = rc;
		snprintf(res->until_why, sizeof(res->until_why), "no interval: %.900s", err);
		return 1;
	}
	res->until_settled = rc;
	snprintf(res->until_why, sizeof(res->until_why), "%s", why);
	return rc;
}

/*
 * Every round of every boot group on every kernel (A, B, A, B), until done, interrupted or
 * QEMU itself fails (a two-host boot: either host's QEMU); with --until, until the interval
 * settles or a limit is reached.
 */
static int boot_all(struct run *r, char *err, size_t errlen)
{
	const struct bb_run_opts *o = r->o;
	struct bb_run_result *res = r->res;
	size_t nboots = o->until > 0 ? until_max_boots(o)
	                             : (size_t)(o->repeat > 0      ? o->repeat
	                                        : r->repeat_to > 0 ? r->repeat_to
	                                                           : 1) *
	                                   r->ngroups * r->nk;
	if (o->until > 0)
		bb_run_say(r, BB_RUN_OUT,
		           "until %g%%: each interval at %.2f%% confidence: 95%% spread over the "
		           "%zu looks that --max-boots %zu allows, so that stopping at any of them "
		           "keeps 95%% (docs/compare.md)",
		           o->until, 100 * bb_until_confidence(nboots), nboots > 4 ? nboots - 3 : 1,
		           nboots);
	res->recs = calloc(nboots, sizeof(*res->recs));
	r->booted = calloc(nboots, sizeof(*r->booted));
	r->nbooted = r->booted ? nboots : 0;
	if (!res->recs || !r->booted)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	volatile sig_atomic_t *stop = o->interrupt;
	double start = bb_now();
	size_t width = r->nslots > 1 ? r->nslots : 1;
	for (size_t i = 0; i < nboots && !(stop && *stop); i = res->nrecs) {
		if (o->until > 0 && o->max_time > 0 && bb_now() - start >= o->max_time) {
			char last[1024];
			snprintf(last, sizeof(last), "%s", res->until_why);
			snprintf(res->until_why, sizeof(res->until_why),
			         "--max-time %.0f s reached after %zu boots; last: %.900s",
			         o->max_time, i, last);
			return 0;
		}
		const struct bootspec *s = &r->specs[i % (r->ngroups * r->nk)];
		size_t n = nboots - i < width ? nboots - i : width;
		if (r->res->two_host)
			bb_pair_boot(r, s, r->sspecs ? &r->sspecs[s->group] : s, nboots);
		else if (n > 1) {
			const struct bootspec *specs[BB_PLACE_MAX_SLOTS];
			for (size_t j = 0; j < n; j++)
				specs[j] = &r->specs[(i + j) % (r->ngroups * r->nk)];
			bb_parallel_boot(r, specs, n, nboots);
		} else
			boot_one(r, s, nboots);
		int qemu_failed = 0;
		for (size_t k = i; k < res->nrecs; k++) {
			const struct bb_run_record *rec = &res->recs[k];
			qemu_failed |=
			    !strcmp(rec->outcome, "qemu-failed") ||
			    (rec->server_outcome && !strcmp(rec->server_outcome, "qemu-failed"));
		}
		if (qemu_failed)
			break;
		if (o->until > 0 && until_done(r))
			break;
	}
	res->interrupted = stop && *stop;
	if (o->until > 0 && !res->until_settled && !res->until_error && !res->interrupted &&
	    res->nrecs == nboots) {
		char last[1024];
		snprintf(last, sizeof(last), "%s", res->until_why);
		snprintf(res->until_why, sizeof(res->until_why),
		         "--max-boots %zu reached; last: %.900s", nboots, last);
	}
	return 0;
}

int bb_run(const struct bb_run_opts *o, struct bb_run_result *res, char *err, size_t errlen)
{
	struct run r = {.o = o, .res = res};
	int rc = bb_run_open(&r, 0, err, errlen);
	if (!rc)
		rc = boot_all(&r, err, errlen);
	bb_run_close(&r);
	return rc;
}

struct bb_run_session {
	struct run r; /* r.nbooted: records (and booted entries) allocated */
};

int bb_run_session_open(const struct bb_run_opts *o, struct bb_run_result *res,
                        struct bb_run_session **out, char *err, size_t errlen)
{
	struct bb_run_session *s = calloc(1, sizeof(*s));
	*out = NULL;
	if (!s)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	s->r.o = o;
	s->r.res = res;
	int rc = o->until > 0 || o->parallel > 2 || o->server_kernel.vmlinuz
	             ? bb_errbuf_fail(err, errlen, -EINVAL,
	                              "a run booted one kernel (or one pair) at a time has no "
	                              "--until, --parallel above 2 or --server-kernel")
	             : bb_run_open(&s->r, 1, err, errlen);
	if (rc) {
		bb_run_close(&s->r);
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* Room for n more records. */
static int session_room(struct bb_run_session *s, size_t n, char *err, size_t errlen)
{
	struct run *r = &s->r;
	struct bb_run_result *res = r->res;
	while (res->nrecs + n > r->nbooted) {
		size_t cap = r->nbooted ? 2 * r->nbooted : 16;
		struct bb_run_record *recs = realloc(res->recs, cap * sizeof(*recs));
		if (recs)
			res->recs = recs;
		struct bb_run_booted *booted = realloc(r->booted, cap * sizeof(*booted));
		if (booted)
			r->booted = booted;
		if (!recs || !booted)
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		memset(res->recs + r->nbooted, 0, (cap - r->nbooted) * sizeof(*recs));
		memset(r->booted + r->nbooted, 0, (cap - r->nbooted) * sizeof(*booted));
		r->nbooted = cap;
	}
	return 0;
}

int bb_run_session_boot(struct bb_run_session *s, size_t kernel, char *err, size_t errlen)
{
	struct run *r = &s->r;
	if (kernel >= r->nk)
		return bb_errbuf_fail(err, errlen, -EINVAL, "no kernel %zu (%zu kernels)", kernel,
		                      r->nk);
	int rc = bb_run_build_kernel(r, kernel, err, errlen);
	if (rc)
		return rc == -ENOMEM ? rc : 1;
	if ((rc = session_room(s, 1, err, errlen)))
		return rc;
	const struct bootspec *spec = &r->specs[kernel]; /* boot group 0 */
	if (r->res->two_host)
		bb_pair_boot(r, spec, spec, 0);
	else
		boot_one(r, spec, 0);
	r->res->interrupted = r->o->interrupt && *r->o->interrupt;
	return 0;
}

int bb_run_session_pairs(const struct bb_run_session *s)
{
	return s->r.nslots >= 2 && !s->r.res->two_host;
}

int bb_run_session_boot_pair(struct bb_run_session *s, size_t ka, size_t kb, char *err,
                             size_t errlen)
{
	struct run *r = &s->r;
	size_t k[2] = {ka, kb};
	int rc = 0, bad[2] = {0, 0};
	if (ka >= r->nk || kb >= r->nk)
		return bb_errbuf_fail(err, errlen, -EINVAL, "no kernel %zu (%zu kernels)",
		                      ka >= r->nk ? ka : kb, r->nk);
	for (int j = 0; j < 2; j++) {
		rc = bb_run_build_kernel(r, k[j], err, errlen);
		if (rc == -ENOMEM)
			return rc;
		bad[j] = rc != 0;
	}
	if (bad[0] || bad[1])
		return bad[0] ? 1 : 2;
	if ((rc = session_room(s, 2, err, errlen)))
		return rc;
	const struct bootspec *specs[2] = {&r->specs[ka], &r->specs[kb]};
	if (bb_run_session_pairs(s)) {
		bb_parallel_boot(r, specs, 2, 0);
	} else {
		boot_one(r, specs[0], 0);
		if (!(r->o->interrupt && *r->o->interrupt))
			boot_one(r, specs[1], 0);
	}
	r->res->interrupted = r->o->interrupt && *r->o->interrupt;
	return 0;
}

void bb_run_session_set_kernel(struct bb_run_session *s, size_t k, const char *vmlinuz,
                               const char *modules)
{
	if (k >= s->r.nk)
		return;
	s->r.kernels[k].vmlinuz = vmlinuz;
	s->r.kernels[k].modules = modules;
	s->r.built[k] = 0;
}

void bb_run_session_close(struct bb_run_session *s)
{
	if (!s)
		return;
	bb_run_close(&s->r);
	free(s);
}
