/*
 * The records of an iteration (init/run.c has the sequence): its status (ITER/status), the
 * clients' rusages, the stats of their outputs, the run's results.json (or, kept apart, the
 * iteration's own), the sync to the results disk before its run-end line, and its lines on the
 * console (LAVA's test cases too).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <unistd.h>

#include "console_proto.h"
#include "init.h"
#include "kernel_log.h"
#include "json.h"
#include "listening.h"
#include "monitor.h"
#include "monitor_perf.h"
#include "results/resdisk.h"
#include "results.h"
#include "results/resjson.h"
#include "run.h"
#include "setuptime.h"
#include "spawn.h"
#include "stats.h"
#include "writer.h"

#define LAVA_ID_MAX 100

static void write_rusage(const char *path, const struct proc *p)
{
	struct ijw w = {0};
	const struct rusage *r = &p->ru;
	ijw_open(&w, NULL, '{');
	ijw_int(&w, "pid", p->pid);
	ijw_num(&w, "user_time", (double)r->ru_utime.tv_sec + (double)r->ru_utime.tv_usec / 1e6);
	ijw_num(&w, "system_time", (double)r->ru_stime.tv_sec + (double)r->ru_stime.tv_usec / 1e6);
	ijw_num(&w, "elapsed_time", (p->end_ms - p->start_ms) / 1e3);
	ijw_int(&w, "max_resident_set_size", r->ru_maxrss);
	ijw_int(&w, "minor_page_faults", r->ru_minflt);
	ijw_int(&w, "major_page_faults", r->ru_majflt);
	ijw_int(&w, "file_system_inputs", r->ru_inblock);
	ijw_int(&w, "file_system_outputs", r->ru_oublock);
	ijw_int(&w, "voluntary_context_switches", r->ru_nvcsw);
	ijw_int(&w, "involuntary_context_switches", r->ru_nivcsw);
	ijw_close(&w, '}');
	ijw_save(&w, path);
	ijw_free(&w);
}

void describe_exit(const struct proc *p, char *buf, size_t len)
{
	if (!p->exited)
		snprintf(buf, len, "still running");
	else if (WIFEXITED(p->status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(p->status));
	else if (WIFSIGNALED(p->status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(p->status),
		         strsignal(WTERMSIG(p->status)));
	else
		snprintf(buf, len, "status 0x%x", p->status);
}

static void proc_json(struct ijw *w, const struct proc *p, int check_cgroup)
{
	char how[96];
	ijw_open(w, NULL, '{');
	ijw_int(w, "index", p->index);
	ijw_int(w, "pid", p->pid);
	if (p->exited && WIFEXITED(p->status))
		ijw_int(w, "exit_code", WEXITSTATUS(p->status));
	else
		ijw_raw(w, "exit_code", "null");
	if (p->exited && WIFSIGNALED(p->status))
		ijw_int(w, "signal", WTERMSIG(p->status));
	describe_exit(p, how, sizeof(how));
	ijw_str(w, "exit", how);
	ijw_str(w, "cpus", p->cpus);
	ijw_str(w, "cgroup", p->cgroup_seen);
	if (check_cgroup)
		ijw_bool(w, "in_job_cgroup", p->cgroup_inside);
	else
		ijw_raw(w, "in_job_cgroup", "null");
	ijw_close(w, '}');
}

/* A TEST_CASE_ID LAVA accepts: [A-Za-z0-9._-], at most 100 characters. */
static void lava_id(const char *run, int iter, int iters, const char *stat, char *out, size_t len)
{
	char suffix[160] = "", base[256];
	if (iters > 1)
		snprintf(suffix, sizeof(suffix), ".i%d", iter);
	if (stat)
		snprintf(suffix + strlen(suffix), sizeof(suffix) - strlen(suffix), ".%s", stat);
	snprintf(base, sizeof(base), "%s", run);
	size_t max = LAVA_ID_MAX - strlen(suffix);
	if (strlen(base) > max && max > 10) {
		unsigned h = 2166136261u;
		for (const char *p = run; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		snprintf(base + max - 9, sizeof(base) - (max - 9), "-%08x", h);
	}
	snprintf(out, len, "%s%s", base, suffix);
	for (char *p = out; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			*p = '_';
}

/*
 * Whether the monitors run in this iteration: with plan `monitored` N > 0 only in the runs' N
 * monitored iterations, so the measured ones stay clean; with 0 in every iteration, as LKP.
 */
int monitors_run_in(const struct boot *b, const struct iteration *it)
{
	if (!b->plan.monitors.n)
		return 0;
	return b->plan.monitored ? it->monitored > 0 : 1;
}

/* An iteration kept apart (a warm-up, a monitored one): its stats in its own folder. */
int kept_apart(const struct iteration *it)
{
	return it->warmup || it->monitored;
}

/* What the console calls it ("warm-up", "monitored", "iteration"), its number and count. */
const char *iter_kind(const struct boot *b, const struct iteration *it, int *k, int *n)
{
	if (it->warmup) {
		*k = it->warmup, *n = b->plan.warmup;
		return "warm-up";
	}
	if (it->monitored) {
		*k = it->monitored, *n = b->plan.monitored;
		return "monitored";
	}
	*k = it->iter, *n = it->run->iterations;
	return "iteration";
}

/* " warmup=K" or " monitored=K" (the console's mark of an iteration kept apart), or "". */
void apart_tag(const struct iteration *it, char *buf, size_t len)
{
	*buf = 0;
	if (it->warmup)
		snprintf(buf, len, " warmup=%d", it->warmup);
	else if (it->monitored)
		snprintf(buf, len, " monitored=%d", it->monitored);
}

void set_failed(struct iteration *it, const char *fmt, ...)
{
	va_list ap;
	if (strcmp(it->status, "ok"))
		return; /* keep the first reason */
	snprintf(it->status, sizeof(it->status), "failed");
	va_start(ap, fmt);
	vsnprintf(it->reason, sizeof(it->reason), fmt, ap);
	va_end(ap);
}

static void compute_stats(struct iteration *it)
{
	const char **outputs = calloc(it->nclients, sizeof(*outputs));
	struct rusage *ru = calloc(it->nclients, sizeof(*ru));
	size_t n = 0;
	if (!outputs || !ru) {
		snprintf(it->stats_error, sizeof(it->stats_error), "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < it->nprocs; i++) {
		struct proc *p = &it->procs[i];
		char path[600];
		if (p->role != CLIENT)
			continue;
		snprintf(path, sizeof(path), "%s/client.%d.out", it->dir, p->index);
		outputs[n] = init_read(path, NULL);
		if (!outputs[n])
			outputs[n] = strdup("");
		ru[n++] = p->ru;
	}
	int r = stats_for_run(it->run->suite, outputs, ru, n, (it->t_end - it->t_release) / 1e3,
	                      &it->stats, it->stats_error, sizeof(it->stats_error));
	if (r && !*it->stats_error)
		snprintf(it->stats_error, sizeof(it->stats_error), "%s", strerror(-r));
	if (r)
		set_failed(it, "results: %s", it->stats_error);
	it->ntest_stats = it->stats.n;
	for (size_t i = 0; i < n; i++)
		free((char *)outputs[i]);
out_free:
	free(outputs);
	free(ru);
}

/* The other host's side of an iteration (docs/results.md): null when it was not asked. */
static void peer_json(struct ijw *w, const struct boot *b, const struct iteration *it)
{
	if (!it->peer_asked) {
		ijw_raw(w, "peer", "null");
		return;
	}
	ijw_open(w, "peer", '{');
	ijw_str(w, "status", *it->peer_status ? it->peer_status : NULL);
	ijw_str(w, "reason", *it->peer_reason ? it->peer_reason : NULL);
	if (b->cluster.role == BB_ROLE_CLIENT) {
		ijw_open(w, "sysctl", '{');
		for (size_t i = 0; i < it->peer_sysctls.n; i++)
			ijw_str(w, it->peer_sysctls.v[i].key, it->peer_sysctls.v[i].actual);
		ijw_close(w, '}');
	}
	ijw_close(w, '}');
}

static void write_status(struct boot *b, struct iteration *it)
{
	struct ijw w = {0};
	char path[600];
	const struct bb_plan_run *run = it->run;

	ijw_open(&w, NULL, '{');
	ijw_str(&w, "run", run->id);
	ijw_int(&w, "iteration", it->iter);
	ijw_int(&w, "iterations", run->iterations);
	if (it->warmup) /* a warm-up iteration: its stats are not in the run's results.json */
		ijw_int(&w, "warmup", it->warmup);
	if (it->monitored) /* a monitored iteration: nor are these */
		ijw_int(&w, "monitored", it->monitored);
	/* where it ran in the boot: 1 is the boot's first iteration */
	ijw_int(&w, "position", it->position);
	ijw_int(&w, "positions", b->positions ? b->positions : it->position);
	ijw_str(&w, "order", bb_order_name(b->plan.order));
	ijw_str(&w, "status", it->status);
	ijw_str(&w, "reason", *it->reason ? it->reason : NULL);
	ijw_str(&w, "suite", run->suite);
	ijw_open(&w, "params", '{');
	for (size_t i = 0; i < run->params.n; i++)
		ijw_str(&w, run->params.v[i].key, run->params.v[i].value);
	ijw_close(&w, '}');
	ijw_num(&w, "runtime", run->runtime);
	ijw_num(&w, "grace", run->grace);
	ijw_bool(&w, "timed_out", it->timed_out);
	ijw_num(&w, "elapsed_s", it->t_release ? (it->t_end - it->t_release) / 1e3 : 0);
	ijw_num(&w, "start_boottime_s", it->t_release / 1e3);
	ijw_int(&w, "init_cpu_ticks", it->init_ticks);
	ijw_int(&w, "init_cpu_ns", it->init_cpu_ns);
	ijw_int(&w, "monitors_cpu_us", it->monitors_cpu_us);
	ijw_int(&w, "clients_requested", (long long)it->nclients);
	ijw_int(&w, "leftover_processes_killed", it->leftovers);
	ijw_open(&w, "sysctl", '{');
	for (size_t i = 0; i < it->sysctls.n; i++) {
		struct sysctl_entry *e = &it->sysctls.v[i];
		ijw_open(&w, e->key, '{');
		ijw_str(&w, "requested", e->requested);
		ijw_str(&w, "actual", e->actual);
		ijw_str(&w, "boot_value", e->original);
		ijw_close(&w, '}');
	}
	ijw_close(&w, '}');
	int check = b->cgroup.mode != BB_CGROUP_NONE;
	int all_inside = 1;
	for (size_t i = 0; i < it->nprocs; i++)
		all_inside &= it->procs[i].cgroup_inside;
	ijw_open(&w, "cgroup", '{');
	ijw_str(&w, "mode", bb_cgroup_mode_name(b->cgroup.mode));
	char jobcg[256];
	snprintf(jobcg, sizeof(jobcg), "/%s",
	         *b->cgroup.path ? b->cgroup.path : bb_plan_cgroup_path(&b->plan));
	ijw_str(&w, "job_cgroup", check ? jobcg : NULL);
	if (check)
		ijw_bool(&w, "all_in_job_cgroup", all_inside && it->nprocs > 0);
	else
		ijw_raw(&w, "all_in_job_cgroup", "null");
	ijw_close(&w, '}');
	for (int role = SERVER; role <= CLIENT; role++) {
		ijw_open(&w, role == SERVER ? "servers" : "clients", '[');
		for (size_t i = 0; i < it->nprocs; i++)
			if ((int)it->procs[i].role == role)
				proc_json(&w, &it->procs[i], check);
		ijw_close(&w, ']');
	}
	if (*it->stats_error)
		ijw_str(&w, "stats_error", it->stats_error);
	if (monitors_run_in(b, it)) /* each monitor's status file (init/monitor_status.h) */
		monitor_status_json(&w, &b->plan.monitors, it->dir);
	if (b->cluster.role != BB_ROLE_NONE)
		peer_json(&w, b, it);
	ijw_close(&w, '}');
	snprintf(path, sizeof(path), "%s/status", it->dir);
	ijw_save(&w, path);
	ijw_free(&w);
}

/*
 * Add the iteration's stats to results.json. Returns 1 when it was rewritten (*old: its
 * previous text, NULL when there was none, for take_back_results), else 0.
 */
static int append_results(struct iteration *it, const struct bb_strv *monitors, char **old)
{
	char path[600], err[256];
	char *text = NULL, **status = NULL;
	snprintf(path, sizeof(path), INIT_RESULTS_DIR "/runs/%s/results.json", it->run->id);
	*old = init_read(path, NULL);
	/* the monitors' status lines beside their stats: "monitor_status" */
	int r = monitor_status_lines(monitors, it->dir, &status);
	if (!r)
		r = bb_resjson_append_status(*old, &it->stats, (const char *const *)monitors->v,
		                             (const char *const *)status, monitors->n, &text, err,
		                             sizeof(err));
	if (status)
		monitor_status_lines_free(status, monitors->n);
	if (r)
		say("%s: cannot update results.json: %s", it->run->id,
		    r == -EINVAL ? err : strerror(-r));
	else if ((r = init_write(path, text, 1)))
		say("%s: cannot write results.json: %s", it->run->id, strerror(-r));
	free(text);
	return !r;
}

/*
 * The stats of an iteration kept apart (a warm-up, a monitored iteration): its own folder's
 * results.json, never the run's; a monitored one's with its monitors' status lines (monitors
 * NULL: none ran).
 */
static void write_own_results(struct iteration *it, const struct bb_strv *monitors)
{
	char path[600], err[256];
	char *text = NULL, **status = NULL;
	int r = 0;
	snprintf(path, sizeof(path), "%s/results.json", it->dir);
	if (monitors)
		r = monitor_status_lines(monitors, it->dir, &status);
	if (!r && monitors)
		r = bb_resjson_append_status(NULL, &it->stats, (const char *const *)monitors->v,
		                             (const char *const *)status, monitors->n, &text, err,
		                             sizeof(err));
	else if (!r)
		r = bb_resjson_append(NULL, &it->stats, &text, err, sizeof(err));
	if (status)
		monitor_status_lines_free(status, monitors->n);
	if (!r)
		r = init_write(path, text, 1);
	if (r)
		say("%s: cannot write %s: %s", it->run->id, path,
		    r == -EINVAL ? err : strerror(-r));
	free(text);
}

/* results.json lists ok iterations only: put back the text it had before this iteration. */
static void take_back_results(struct iteration *it, const char *old)
{
	char path[600];
	int r;
	snprintf(path, sizeof(path), INIT_RESULTS_DIR "/runs/%s/results.json", it->run->id);
	if (old)
		r = init_write(path, old, 1);
	else
		r = unlink(init_path("%s", path)) ? -errno : 0;
	if (r)
		say("%s: cannot take iteration %d out of results.json: %s", it->run->id, it->iter,
		    strerror(-r));
}

static void report_iteration(struct boot *b, struct iteration *it)
{
	const struct bb_plan_run *run = it->run;
	char id[256];
	for (size_t i = 0; i < it->ntest_stats; i++) {
		const struct bb_stat *s = &it->stats.v[i];
		size_t sl = strlen(run->suite);
		if (!strncmp(s->name, run->suite, sl) && !strncmp(s->name + sl, ".time.", 6))
			continue;
		int k, n;
		const char *kind = iter_kind(b, it, &k, &n);
		if (kept_apart(it)) /* not "iteration": the host reads those lines as results */
			say("%s %s %d: %s = %.6g %s", run->id, kind, k, s->name, s->value, s->unit);
		else
			say("%s iteration %d: %s = %.6g %s", run->id, it->iter, s->name, s->value,
			    s->unit);
	}
	if (b->plan.console_lava && !kept_apart(it)) {
		char line[512];
		for (size_t i = 0; !strcmp(it->status, "ok") && i < it->ntest_stats; i++) {
			const struct bb_stat *s = &it->stats.v[i];
			lava_id(run->id, it->iter, run->iterations, s->name, id, sizeof(id));
			snprintf(line, sizeof(line),
			         "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=pass UNITS=%s "
			         "MEASUREMENT=%.10g>\n",
			         id, *s->unit ? s->unit : "none", s->value);
			console_raw(line);
		}
		lava_id(run->id, it->iter, run->iterations, NULL, id, sizeof(id));
		snprintf(line, sizeof(line), "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s>\n",
		         id, strcmp(it->status, "ok") ? "fail" : "pass");
		console_raw(line);
	}
	char reason[800];
	snprintf(reason, sizeof(reason), "%s", *it->reason ? it->reason : "-");
	for (char *p = reason; *p; p++)
		if (*p == '\n')
			*p = ' ';
	char tag[32], wtag[34] = "";
	apart_tag(it, tag, sizeof(tag));
	if (*tag) /* "monitored=K " after iter=0 */
		snprintf(wtag, sizeof(wtag), "%s ", tag + 1);
	machine(BB_CON_RUN_END " id=%s iter=%d %sstatus=%s elapsed=%.2f init_ticks=%ld "
	                       "init_cpu_us=%lld monitors_cpu_us=%lld reason=%s",
	        run->id, it->iter, wtag, it->status,
	        it->t_release ? (it->t_end - it->t_release) / 1e3 : 0.0, it->init_ticks,
	        it->init_cpu_ns < 0 ? -1 : it->init_cpu_ns / 1000, it->monitors_cpu_us, reason);
	int k, n;
	const char *kind = iter_kind(b, it, &k, &n);
	say("run %zu/%zu %s %s %d/%d: %s%s%s", it->runidx + 1, b->plan.nruns, run->id, kind, k, n,
	    it->status, *it->reason ? ": " : "", it->reason);
}

/*
 * The clients' rusages, then the stats and results.json of an iteration that ran ok (kept
 * apart: its own folder's). 1 when the run's results.json was rewritten (*old: its text before,
 * for take_back_results), else 0.
 */
int record_results(struct boot *b, struct iteration *it, char **old)
{
	static const struct bb_strv none; /* the monitors of an iteration that runs none */
	int server_host = b->cluster.role == BB_ROLE_SERVER, appended = 0;
	for (size_t i = 0; i < it->nprocs; i++) {
		struct proc *p = &it->procs[i];
		char path[600];
		if (p->role != CLIENT || !p->pid)
			continue;
		snprintf(path, sizeof(path), "%s/client.%d.rusage", it->dir, p->index);
		write_rusage(path, p);
	}
	/* the server host has no clients: the stats are the client host's */
	if (!strcmp(it->status, "ok") && !server_host)
		compute_stats(it);
	if (!strcmp(it->status, "ok") && !server_host && monitors_run_in(b, it))
		monitor_stats(&b->plan.monitors, it->dir, &it->stats);
	if (!strcmp(it->status, "ok") && kept_apart(it) && !server_host)
		write_own_results(it, monitors_run_in(b, it) ? &b->plan.monitors : NULL);
	else if (!strcmp(it->status, "ok") && !server_host)
		appended =
		    append_results(it, monitors_run_in(b, it) ? &b->plan.monitors : &none, old);
	return appended;
}

/*
 * The iteration's status, then its files to the disk before its run-end line: one whose results
 * could not be written there (disk full, I/O error) is failed, with the reason, and is taken out
 * of results.json (appended: it was added, old: the text before); its status is rewritten, and
 * retried at the next sync.
 */
void record_iteration(struct boot *b, struct iteration *it, int appended, const char *old)
{
	int r;
	write_status(b, it);
	kernel_log_update();
	if ((r = writer_sync(0, NULL, NULL))) {
		const char *what = bb_resdisk_strerror(r);
		if (!strcmp(it->status, "ok"))
			set_failed(it, "results not written to the results disk: %s", what);
		else
			snprintf(it->reason + strlen(it->reason),
			         sizeof(it->reason) - strlen(it->reason),
			         "; results not written to the results disk: %s", what);
		if (appended)
			take_back_results(it, old);
		write_status(b, it);
	}
	report_iteration(b, it);
}
