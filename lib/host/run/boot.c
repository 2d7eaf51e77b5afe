/*
 * One boot's steps that the one-host boots (run.c) and the two-host boots (pair.c) share: what
 * `run` says, a boot's deadline, its outcome, collecting it (disk, else console log) and
 * repairing its results disk. See runctx.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "host/collect/collect.h"
#include "host/run/progress.h"
#include "host/run/runctx.h"
#include "host/collect/runjson.h"
#include "plan/plan.h"

void bb_run_say(const struct run *r, enum bb_run_say to, const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (r->o->say)
		r->o->say(r->o->ctx, to, line);
}

void bb_run_locked_say(void *ctx, enum bb_run_say to, const char *line)
{
	struct bb_run_shared *sh = ((struct bb_run_vm *)ctx)->sh;
	pthread_mutex_lock(&sh->mu);
	if (sh->o->say)
		sh->o->say(sh->o->ctx, to, line);
	pthread_mutex_unlock(&sh->mu);
}

void bb_run_locked_status(void *ctx, const char *line)
{
	struct bb_run_vm *vm = ctx;
	struct bb_run_shared *sh = vm->sh;
	char all[1024] = "";
	size_t shown = 0;
	pthread_mutex_lock(&sh->mu);
	snprintf(sh->status[vm->vm], sizeof(sh->status[vm->vm]), "%s", line);
	for (size_t i = 0; i < sh->nvms; i++)
		shown += !!*sh->status[i];
	/* each VM's part cut to its share of a 150-column line */
	int share = shown > 1 ? (int)(150 / shown) - 3 : 150;
	for (size_t i = 0; i < sh->nvms; i++) {
		size_t l = strlen(all);
		if (*sh->status[i])
			snprintf(all + l, sizeof(all) - l, "%s%.*s", l ? " | " : "", share,
			         sh->status[i]);
	}
	if (sh->o->status)
		sh->o->status(sh->o->ctx, all);
	pthread_mutex_unlock(&sh->mu);
}

struct bb_vcpu_load bb_run_vcpu_load(const struct run *r)
{
	int vms = r->res->two_host && !r->o->only ? 2 : r->nslots > 1 ? (int)r->nslots : 1;
	return bb_vcpu_load(r->use, r->cpus, vms, r->host_cpus);
}

void bb_run_record_accel(const struct run *r, struct bb_run_record *rec)
{
	struct bb_vcpu_load l = bb_run_vcpu_load(r);
	rec->accel = r->use == BB_ACCEL_KVM ? "kvm" : "tcg";
	rec->host_cpus = l.host_cpus;
	rec->vcpus = l.vcpus;
	rec->vcpus_oversubscribed = l.oversubscribed;
}

int bb_run_order_turn(const struct run *r, size_t idx)
{
	size_t per_round = r->ngroups * r->nk;
	return (int)(idx / (per_round ? per_round : 1));
}

void bb_run_boot_cmdline(const struct run *r, size_t idx, const char *base,
                         struct bb_run_record *rec)
{
	rec->order_rotate = bb_run_order_turn(r, idx);
	snprintf(rec->cmdline, sizeof(rec->cmdline), "%.4300s benchboot.order.rotate=%d", base,
	         rec->order_rotate);
}

double bb_run_deadline(const struct run *r, const struct bootspec *s)
{
	if (r->o->deadline > 0)
		return r->o->deadline;
	double t = r->allow, longest = 0;
	/* each run's monitored iterations, when monitors run (the plan's, or --monitors') */
	int monitors = s->plan && (r->o->monitors ? *r->o->monitors != 0 : s->plan->monitors.n > 0);
	int monitored = monitors ? s->plan->monitored : 0;
	for (size_t i = 0; s->plan && i < s->plan->nruns; i++) {
		double one = s->plan->runs[i].runtime + s->plan->runs[i].grace + 15;
		t += (s->plan->runs[i].iterations + monitored) * one;
		if (one > longest)
			longest = one;
	}
	/* the warm-up iterations run the boot's first run, whichever that is */
	return t + (s->plan ? s->plan->warmup : 0) * longest;
}

static void collect_msg(void *ctx, const char *line)
{
	bb_run_say(ctx, BB_RUN_NOTE, "collect: %s", line);
}

/* e2fsck -p on the results disk after a boot that did not end cleanly, said so. */
static void repair_disk(struct bb_progress *p, const char *disk)
{
	bb_progress_event(p, "repairing the results disk %s (e2fsck -p) for the next boots", disk);
	int r = 0, err = bb_collect_repair_disk(disk, &r);
	if (err)
		bb_progress_event(p,
		                  "unable to run e2fsck -p on %s: %s: the next boots may refuse it "
		                  "and send their results over the console",
		                  disk, strerror(-err));
	else if (r == 0)
		bb_progress_event(p, "results disk %s: clean", disk);
	else if (r < 4)
		bb_progress_event(p, "results disk %s: repaired (e2fsck -p exit %d)", disk, r);
	else
		bb_progress_event(
		    p,
		    "results disk %s: e2fsck -p could not repair it (exit %d): the "
		    "next boots send their results over the console; run e2fsck on it "
		    "by hand",
		    disk, r);
}

void bb_run_collect(struct run *r, struct bb_progress *p, const char *disk, const char *outdir,
                    const char *console, const char *boot_id, int finished, char *folder,
                    size_t folderlen)
{
	int writer_died = p->writer_died || *p->disk_error; /* the rest on the console */
	struct collect_opts co = {.outdir = outdir, .msg = collect_msg, .ctx = r};
	struct collect_stats cs;
	*folder = 0;
	if (*disk) {
		memset(&cs, 0, sizeof(cs));
		int cr = bb_collect_disk(disk, &co, &cs);
		if (cr && cr != -EMEDIUMTYPE) {
			bb_run_say(r, BB_RUN_WARN, "unable to collect %s: %s", disk, strerror(-cr));
			r->res->system_failure = 1;
		} else if (cs.problems) {
			bb_run_say(r, BB_RUN_WARN, "collect found %u problem%s", cs.problems,
			           cs.problems == 1 ? "" : "s");
		}
		bb_run_find_folder(outdir, boot_id, folder, folderlen);
	}
	/* nothing on the disk (no disk, or the image could not use it), or only what was synced
	 * before the init's results writer died: the results the init printed on the console
	 * (every file from the writer's death on; collect replaces an incomplete folder) */
	if ((!*folder || writer_died) && *boot_id) {
		memset(&cs, 0, sizeof(cs));
		int cr = bb_collect_console(console, &co, &cs);
		if (!cr && cs.boots_collected)
			bb_run_say(r, BB_RUN_OUT, "collected boot %s from the console log",
			           boot_id);
		else if (cr && cr != -EMEDIUMTYPE)
			bb_run_say(r, BB_RUN_WARN, "unable to collect the console log %s: %s",
			           console, strerror(-cr));
		bb_run_find_folder(outdir, boot_id, folder, folderlen);
	}
	if (*disk && (!finished || *p->disk_error)) /* a given-up disk is left not clean */
		repair_disk(p, disk);
}

int bb_run_outcome(struct run *r, struct bb_progress *p, int qr, const struct bb_qemu_result *q,
                   const char *console, const char **outcome, char *detail, size_t dlen,
                   int *finished)
{
	struct bb_run_result *res = r->res;
	snprintf(detail, dlen, "%s", q->detail);
	*finished = 0;
	if (qr) {
		*outcome = "qemu-failed";
		bb_progress_event(p, "FAILED: unable to run QEMU: %s", q->detail);
		res->system_failure = 1;
		return qr < 0 ? qr : -ENOEXEC;
	}
	*outcome = bb_boot_outcome_name(q->outcome);
	*finished = q->outcome == BB_BOOT_POWEROFF && p->boot_end_seen;
	if (q->outcome == BB_BOOT_POWEROFF && !p->boot_end_seen)
		snprintf(detail, dlen, "the VM stopped before the init reported boot-end");
	if (q->stalls)
		bb_progress_event(p,
		                  "the kernel reported %d lockup or stall report%s, the first: %s",
		                  q->stalls, q->stalls == 1 ? "" : "s", q->stall);
	if (*finished) {
		bb_progress_event(p, "finished in %.0f s", q->wall_s);
	} else {
		res->any_failed = 1;
		bb_progress_event(p, "FAILED (%s after %.0f s)%s%s; console: %s", *outcome,
		                  q->wall_s, *detail ? ": " : "", detail, console);
		if (q->outcome == BB_BOOT_QEMU_FAILED)
			res->system_failure = 1;
	}
	if (p->failed)
		res->any_failed = 1;
	return 0;
}
