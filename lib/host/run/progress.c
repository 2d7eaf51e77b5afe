/* The progress of one boot from its console; see progress.h. */
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "console_proto.h"
#include "host/console_reader.h"
#include "host/job/suites.h"
#include "host/run/progress.h"

double bb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const struct bb_plan_run *plan_run(const struct bb_plan *plan, const char *id)
{
	for (size_t i = 0; plan && i < plan->nruns; i++)
		if (!strcmp(plan->runs[i].id, id))
			return &plan->runs[i];
	return NULL;
}

/* "N/M", or "N" when the number of boots is open (nboots 0: a bisection's). */
static const char *boot_no(const struct bb_progress *p, char *buf, size_t len)
{
	if (p->nboots > 0)
		snprintf(buf, len, "%d/%d", p->boot_no, p->nboots);
	else
		snprintf(buf, len, "%d", p->boot_no);
	return buf;
}

void bb_progress_event(struct bb_progress *p, const char *fmt, ...)
{
	char line[2048], no[32];
	int n = snprintf(line, sizeof(line), "boot %s%s%s: ", boot_no(p, no, sizeof(no)),
	                 p->role ? " " : "", p->role ? p->role : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	*p->shown = 0;
	if (p->o->say)
		p->o->say(p->o->ctx, BB_RUN_OUT, line);
}

/*
 * An iteration kept apart (docs/plan.md): "warm-up" or "monitored", with its number k and how
 * many the boot has (the plan's, at least k); NULL for a measured iteration.
 */
static const char *kept_apart(const struct bb_progress *p, int warmup, int monitored, int *k,
                              int *n)
{
	*k = warmup ? warmup : monitored;
	*n = !p->plan ? 0 : warmup ? p->plan->warmup : p->plan->monitored;
	if (*n < *k)
		*n = *k;
	return warmup ? "warm-up" : monitored ? "monitored" : NULL;
}

/* The one-line status on a terminal: which run, time left, last result. */
void bb_progress_tick(void *ctx)
{
	struct bb_progress *p = ctx;
	if (!p->o->status)
		return;
	char line[1024], no[32];
	double t = bb_now();
	boot_no(p, no, sizeof(no));
	if (*p->run_id) {
		double left = p->run_start + p->runtime - t;
		char which[64];
		int k, n;
		const char *apart = kept_apart(p, p->warmup, p->monitored, &k, &n);
		if (apart)
			snprintf(which, sizeof(which), "%s %d/%d", apart, k, n);
		else
			snprintf(which, sizeof(which), "iter %d/%d", p->iter, p->niter);
		snprintf(line, sizeof(line),
		         "boot %s %.100s: run %d/%d %.200s %s, %s%.0f s left%s%.200s", no,
		         p->kernel_name, p->run_no, p->runs_total, p->run_id, which,
		         left < 0 ? "over by " : "", left < 0 ? -left : left,
		         *p->last ? ", last: " : "", p->last);
	} else if (p->boot_end_seen) {
		snprintf(line, sizeof(line), "boot %s %.100s: done, powering off", no,
		         p->kernel_name);
	} else if (*p->boot_id) {
		snprintf(line, sizeof(line), "boot %s %.100s: %d of %d iterations done%s%.200s", no,
		         p->kernel_name, p->ok + p->failed, p->iterations,
		         *p->last ? ", last: " : "", p->last);
	} else {
		snprintf(line, sizeof(line), "boot %s %.100s: booting, %.0f s", no, p->kernel_name,
		         t - p->boot_start);
	}
	if (!strcmp(line, p->shown))
		return;
	snprintf(p->shown, sizeof(p->shown), "%s", line);
	p->o->status(p->o->ctx, line);
}

static double run_start(struct bb_progress *p, const struct bb_console_event *ev)
{
	const struct bb_plan_run *r = plan_run(p->plan, ev->id);
	p->last_rank = INT_MAX; /* the iteration's first stat replaces the last one's */
	/* the init interleaves the runs' iterations: number a run by its place in the plan */
	if (r) {
		p->run_no = (int)(r - p->plan->runs) + 1;
	} else if (strcmp(p->counted_run, ev->id)) {
		p->run_no++;
		snprintf(p->counted_run, sizeof(p->counted_run), "%s", ev->id);
	}
	snprintf(p->run_id, sizeof(p->run_id), "%s", ev->id);
	p->iter = ev->iter;
	p->niter = ev->niter;
	p->warmup = ev->warmup;
	p->monitored = ev->monitored;
	p->runtime = ev->runtime;
	p->run_start = bb_now();
	/* the suite's parameters and the axes; not the LKP keys a 0-day job.yaml carries
	 * (lkp.testbox, lkp.submit_id, ...: forty of them bury what varies; env.json keeps them) */
	char params[1024] = "";
	for (size_t i = 0; r && i < r->params.n; i++)
		if (strncmp(r->params.v[i].key, "lkp.", 4))
			snprintf(params + strlen(params), sizeof(params) - strlen(params), " %s=%s",
			         r->params.v[i].key, r->params.v[i].value);
	int k, n;
	const char *apart = kept_apart(p, ev->warmup, ev->monitored, &k, &n);
	if (apart) /* kept apart (docs/plan.md, "Warm-up", "Monitored iterations") */
		bb_progress_event(p, "run %d/%d %s %s %d/%d (%g s)", p->run_no, p->runs_total,
		                  ev->id, apart, k, n, ev->runtime);
	else
		bb_progress_event(p, "run %d/%d %s iteration %d/%d (%g s)%s%s", p->run_no,
		                  p->runs_total, ev->id, ev->iter, ev->niter, ev->runtime,
		                  *params ? ":" : "", params);
	/* this limit holds until the run-end line, whatever is printed in between (a heartbeat
	 * may lengthen it, never shorten it) */
	double allow = ev->runtime + (r ? r->grace : 60) + 60;
	p->run_limit_at = p->run_start + allow;
	return allow;
}

double bb_progress_line(void *ctx, const char *line)
{
	struct bb_progress *p = ctx;
	struct bb_console_event ev;
	const char *pe = strstr(line, "BENCHBOOT plan-error ");
	if (pe) {
		bb_progress_event(p, "the init could not read its plan: %s",
		                  pe + strlen("BENCHBOOT plan-error "));
		return 0;
	}
	/* the init's results writer died: the rest of the boot's results are on the console */
	const char *wd = strstr(line, BB_CON_LINE(BB_CON_WRITER_DIED));
	if (wd) {
		p->writer_died = 1;
		bb_progress_event(p, "%s: the results go to the console from here",
		                  wd + strlen(BB_CON_PREFIX));
		return 0;
	}
	/* an I/O error on the results disk: the init gave it up, the rest is on the console */
	const char *de = strstr(line, BB_CON_LINE(BB_CON_RESULTS_DISK_ERROR));
	if (de) {
		if (!*p->disk_error)
			snprintf(p->disk_error, sizeof(p->disk_error), "%s",
			         de + strlen(BB_CON_PREFIX));
		bb_progress_event(p,
		                  "%s: the results disk was given up, the results go to the "
		                  "console from here",
		                  de + strlen(BB_CON_PREFIX));
		return 0;
	}
	/* a two-host boot: how this host met the other (docs/cluster.md) */
	static const char *const cluster_words[] = {BB_CON_LINE(BB_CON_PEER),
	                                            BB_CON_LINE(BB_CON_CLUSTER)};
	for (size_t i = 0; i < sizeof(cluster_words) / sizeof(*cluster_words); i++) {
		const char *cw = strstr(line, cluster_words[i]);
		if (cw) {
			bb_progress_event(p, "%s", cw + strlen(BB_CON_PREFIX));
			return 0;
		}
	}
	/* the init is at work (a run, a monitor's post-processing): the next heartbeat or line
	 * is due within BB_HEARTBEAT_SILENCE_S, or by the run's own limit if that is later */
	if (strstr(line, BB_CON_LINE(BB_CON_HEARTBEAT))) {
		double run_left = p->run_limit_at - bb_now();
		return run_left > BB_HEARTBEAT_SILENCE_S ? run_left : BB_HEARTBEAT_SILENCE_S;
	}
	if (!bb_console_event(line, &ev))
		return 0;
	switch (ev.kind) {
	case BB_EV_BOOT_START:
		snprintf(p->boot_id, sizeof(p->boot_id), "%.127s", ev.id);
		p->runs_total = ev.runs;
		p->iterations = ev.niter;
		bb_progress_event(p, "booted (%.0f s), boot id %s, %d run%s",
		                  bb_now() - p->boot_start, ev.id, ev.runs,
		                  ev.runs == 1 ? "" : "s");
		return 0;
	case BB_EV_RUN_START:
		return run_start(p, &ev);
	case BB_EV_RESULT: {
		/* the iteration's leading stat: its suite's primary one, else its first */
		int rank = bb_suite_primary_rank(ev.stat);
		rank = rank < 0 ? INT_MAX - 1 : rank;
		if (!*p->last || rank < p->last_rank) {
			snprintf(p->last, sizeof(p->last), "%s = %g %s", ev.stat, ev.value,
			         ev.unit);
			p->last_rank = rank;
		}
	}
		return 0;
	case BB_EV_RUN_END:
		p->run_limit_at = 0;
		if (ev.warmup || ev.monitored) {
			int k, n;
			const char *apart = kept_apart(p, ev.warmup, ev.monitored, &k, &n);
			bb_progress_event(p, "run %d/%d %s %s %d: %s in %.1f s%s%s", p->run_no,
			                  p->runs_total, ev.id, apart, k, ev.status, ev.elapsed,
			                  strcmp(ev.status, "ok") ? ": " : "",
			                  strcmp(ev.status, "ok") ? ev.reason : "");
			*p->run_id = 0;
			return p->default_silence;
		}
		if (!strcmp(ev.status, "ok"))
			p->ok++;
		else
			p->failed++;
		bb_progress_event(p, "run %d/%d %s iteration %d: %s in %.1f s%s%s", p->run_no,
		                  p->runs_total, ev.id, ev.iter, ev.status, ev.elapsed,
		                  strcmp(ev.status, "ok") ? ": " : (*p->last ? ", " : ""),
		                  strcmp(ev.status, "ok") ? ev.reason : p->last);
		*p->run_id = 0;
		return p->default_silence;
	case BB_EV_INIT_CRASH: {
		char text[600];
		bb_init_crash_text(&ev, text, sizeof(text));
		bb_progress_event(p, "%s", text);
		return 0;
	}
	case BB_EV_BOOT_END:
		p->boot_end_seen = 1;
		bb_progress_event(p, "all runs done: %d ok, %d failed", ev.ok, ev.failed);
		return 0;
	default:
		return 0;
	}
}
