/*
 * One run of the plan, iteration by iteration: sysctls, servers (started first, ready when
 * their port listens, listening.h), clients (N or P% of online CPUs, all released at once),
 * each in the job cgroup (checked in /proc/PID/cgroup before it may run) with its affinity and
 * its own stdout/stderr files; then the watchdog (SIGTERM at runtime + grace, SIGKILL 5 s
 * later), the rusages from wait4, the stats, the records and a results_sync, so every finished
 * iteration is on the disk before the next one starts (or, when it could not be written
 * there, failed with the reason before its run-end line).
 *
 * Children are forked "gated": each blocks on a pipe until the init has placed it in the job
 * cgroup and set its affinity, so nothing of the benchmark runs outside its environment and
 * the clients start together. The clients are forked while the first server starts, and wait
 * on their gate until every server is ready. While the benchmark runs the init sleeps in
 * poll() on a signalfd.
 *
 * This file has the sequence and the steps of an iteration; init/run_wait.c its processes
 * (forked, placed, waited for, stopped, reaped), init/run_record.c its records (status, rusage,
 * stats, results.json, console lines); init/run.h what the three share.
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
#include "monitor_cpu.h"
#include "monitor_perf.h"
#include "results/resdisk.h"
#include "results.h"
#include "results/resjson.h"
#include "run.h"
#include "setuptime.h"
#include "spawn.h"
#include "stats.h"
#include "writer.h"

/*
 * Servers one after the other, each ready before the next starts; while the first server
 * starts, the clients are forked (they wait on their gate) and the boot's results disk work is
 * done (setup_deferred_run). The server host of a two-host plan forks no clients. 0 or -1.
 */
static int start_servers(struct boot *b, struct iteration *it, int gate[2])
{
	const struct bb_plan_run *run = it->run;
	int sgate[2] = {-1, -1}, clients = b->cluster.role != BB_ROLE_SERVER;
	size_t nservers = run->nservers;

	for (size_t s = 0; s < nservers; s++) {
		struct proc *p = &it->procs[it->nprocs++];
		p->role = SERVER;
		p->index = (int)s;
		if (open_gate(it, sgate))
			return -1;
		int r = start_proc(b, it, p, &run->servers[s].argv, run->servers[s].cpus, sgate);
		release_gate(sgate);
		if (r)
			return -1;
		if (s == 0) {
			first_path_mark(&first_path.server_fork);
			if (clients && start_clients(b, it, gate))
				return -1;
			/* the boot's results disk work, while the server starts, beside it */
			setup_deferred_run_beside(b, p->pid);
		}
		if (run->servers[s].ready) {
			char why[256];
			if (wait_ready(b, run->servers[s].ready, p,
			               init_now_ms() + run->grace * 1e3, why, sizeof(why))) {
				set_failed(it, "%s", why);
				return -1;
			}
		}
	}
	if (!nservers && clients && start_clients(b, it, gate))
		return -1;
	if (nservers)
		first_path_mark(&first_path.server_ready);
	/* the boot's results disk work is done before any client runs (no server: now) */
	setup_deferred_run(b);
	return 0;
}

/*
 * The client host of a two-host plan: its results disk work first (the server host's wait is
 * bounded), then the server host starts the run's servers (docs/cluster.md), then the clients
 * are forked. 0 or -1 (reason set).
 */
static int ask_peer(struct boot *b, struct iteration *it, int gate[2])
{
	char why[512];
	setup_deferred_run(b);
	it->peer_asked = 1;
	int r = cluster_iter_start(b, it->run, it->iter, it->warmup, it->monitored, it->position,
	                           b->positions ? b->positions : it->position, &it->peer_sysctls,
	                           why, sizeof(why));
	if (r) {
		snprintf(it->peer_status, sizeof(it->peer_status), "failed");
		snprintf(it->peer_reason, sizeof(it->peer_reason), "%s", why);
		set_failed(it, r < 0 ? "%s" : "peer: %s", why);
		return -1;
	}
	it->peer_started = 1;
	snprintf(it->peer_status, sizeof(it->peer_status), "ok");
	return start_clients(b, it, gate);
}

/* The client host: tell the server host the clients are done; its side of the iteration. */
static void end_peer(struct boot *b, struct iteration *it)
{
	int r = cluster_iter_end(b, it->status, it->reason, it->peer_status,
	                         sizeof(it->peer_status), it->peer_reason, sizeof(it->peer_reason));
	if (r < 0)
		set_failed(it, "%s", it->peer_reason);
	else if (r > 0)
		set_failed(it, "peer: %s", it->peer_reason);
}

/*
 * The server host: answer the client host's `start` (sysctls read back, status), then, when
 * its servers are ready, wait for the client's `end` (bounded): the benchmark window seen from
 * here. A server that died during it fails the iteration.
 */
static void serve_window(struct boot *b, struct iteration *it)
{
	it->peer_asked = 1;
	if (cluster_serve_started(b, &it->sysctls, it->status, it->reason)) {
		set_failed(it, "%s", cluster_down(b));
		return;
	}
	if (strcmp(it->status, "ok"))
		return;
	it->peer_started = 1;
	long long ns0 = self_cpu_ns();
	long ticks0 = self_ticks();
	it->t_release = init_now_ms();
	if (cluster_serve_wait_end(b, it->run, it->peer_status, sizeof(it->peer_status),
	                           it->peer_reason, sizeof(it->peer_reason)))
		set_failed(it, "%s", cluster_down(b));
	it->t_end = init_now_ms();
	it->init_ticks = self_ticks() - ticks0;
	long long ns1 = self_cpu_ns();
	it->init_cpu_ns = ns0 < 0 || ns1 < 0 ? -1 : ns1 - ns0;
	run_reap();
	for (size_t i = 0; i < it->nprocs; i++) {
		struct proc *p = &it->procs[i];
		char how[96];
		if (!p->exited || (WIFEXITED(p->status) && !WEXITSTATUS(p->status)))
			continue;
		describe_exit(p, how, sizeof(how));
		set_failed(it, "server %d: %s during the run", p->index, how);
	}
}

/*
 * Start the servers (here, or on the server host of a two-host plan), then with every server
 * ready let the clients go together and watch them (runtime + grace, then SIGTERM, SIGKILL).
 * The server host of a two-host plan only starts its servers.
 */
static void execute(struct boot *b, struct iteration *it)
{
	const struct bb_plan_run *run = it->run;
	int gate[2] = {-1, -1};
	int r;

	if (open_gate(it, gate))
		return;
	r = b->cluster.role == BB_ROLE_CLIENT ? ask_peer(b, it, gate) : start_servers(b, it, gate);
	if (r || b->cluster.role == BB_ROLE_SERVER)
		goto fail; /* the server host: its servers run until the client host's `end` */
	/* env.json and init.log are on the disk before any client runs: the first sync's answer */
	double asked = init_now_ms();
	writer_sync_wait(NULL);
	if (!first_path.release && !first_path.disk_synced) {
		first_path_mark(&first_path.disk_synced);
		first_path.sync_wait_ms = first_path.disk_synced - asked;
	}
	if (!b->t_first_client_ms)
		kmsg_mark(KMSG_FIRST_CLIENT);
	/* the monitors start before the clients are released; perf record first gets ready */
	it->monitor_pid = 0;
	if (monitors_run_in(b, it)) {
		monitor_use_plan(&b->plan);
		monitor_perf_window(&b->plan, run->runtime);
		monitor_perf_run(run->id);
		it->monitor_pid = monitor_start(&b->plan.monitors, it->dir);
		monitor_perf_wait_ready();
	}
	/* the schedstat read before times(): the tick count leaves it out */
	long long ns0 = self_cpu_ns(), ns1 = ns0;
	long ticks0 = self_ticks(), ticks1 = ticks0;
	it->oom_kills0 = cgroup_oom_kills(&b->cgroup);
	it->t_release = init_now_ms();
	release_gate(gate);
	if (it->monitor_pid < 0)
		say("%s iteration %d: monitors not started: fork: %s", run->id, it->iter,
		    strerror((int)-it->monitor_pid));
	if (!first_path.release)
		first_path.release = it->t_release;
	if (!b->t_first_client_ms)
		b->t_first_client_ms = it->t_release;

	double deadline = it->t_release + (run->runtime + run->grace) * 1e3;
	if (!wait_clients(b, it, deadline, &ticks1, &ns1)) {
		it->timed_out = 1;
		snprintf(it->status, sizeof(it->status), "timeout");
		snprintf(it->reason, sizeof(it->reason),
		         "clients still running after runtime %gs + grace %gs: SIGTERM",
		         run->runtime, run->grace);
		say("%s iteration %d: watchdog: SIGTERM to the clients", run->id, it->iter);
		for (size_t i = 0; i < it->nprocs; i++)
			if (it->procs[i].role == CLIENT)
				kill_group(&it->procs[i], SIGTERM);
		if (!wait_role(b, it->procs, it->nprocs, CLIENT, init_now_ms() + KILL_AFTER_MS)) {
			say("%s iteration %d: watchdog: SIGKILL to the clients", run->id, it->iter);
			snprintf(it->reason + strlen(it->reason),
			         sizeof(it->reason) - strlen(it->reason),
			         ", then SIGKILL after %gs", KILL_AFTER_MS / 1e3);
			for (size_t i = 0; i < it->nprocs; i++)
				if (it->procs[i].role == CLIENT)
					kill_group(&it->procs[i], SIGKILL);
			wait_role(b, it->procs, it->nprocs, CLIENT, init_now_ms() + KILL_AFTER_MS);
		}
		ticks1 = self_ticks(); /* the watchdog's work counts */
		ns1 = self_cpu_ns();
	}
	it->t_end = init_now_ms();
	monitor_stop(it->monitor_pid);
	it->monitors_cpu_us = it->monitor_pid > 0 ? monitor_cpu_us() : -1;
	it->init_ticks = ticks1 - ticks0;
	it->init_cpu_ns = ns0 < 0 || ns1 < 0 ? -1 : ns1 - ns0;
	for (size_t i = 0; i < it->nprocs; i++) {
		struct proc *p = &it->procs[i];
		char how[96];
		if (p->role != CLIENT || !p->exited ||
		    (WIFEXITED(p->status) && !WEXITSTATUS(p->status)))
			continue;
		describe_exit(p, how, sizeof(how));
		/* a SIGKILL the watchdog did not send, with the job cgroup's OOM count up: the OOM
		 * killer's (its kernel log line says which process it chose) */
		long oom =
		    it->timed_out || !WIFSIGNALED(p->status) || WTERMSIG(p->status) != SIGKILL
		        ? -1
		        : cgroup_oom_kills(&b->cgroup);
		if (oom > 0 && it->oom_kills0 >= 0 && oom > it->oom_kills0)
			set_failed(it, "client %d: %s by the OOM killer (job cgroup oom_kill +%ld)",
			           p->index, how, oom - it->oom_kills0);
		else
			set_failed(it, "client %d: %s", p->index, how);
	}
	return;
fail:
	drop_clients(it);
	release_gate(gate);
}

/* The iteration's folder, its number in the boot and its run-start line on the console. */
static void iteration_start(struct boot *b, struct iteration *it)
{
	const struct bb_plan_run *run = it->run;
	int r, server_host = b->cluster.role == BB_ROLE_SERVER;
	char step[32];
	it->position = ++b->position;
	snprintf(step, sizeof(step), "run-%d", it->position);
	init_step(step, run->id, it->iter);
	first_path_start();
	snprintf(it->status, sizeof(it->status), "ok");
	if (it->warmup)
		snprintf(it->dir, sizeof(it->dir), INIT_RESULTS_DIR "/runs/%s/warmup-%d", run->id,
		         it->warmup);
	else if (it->monitored)
		snprintf(it->dir, sizeof(it->dir), INIT_RESULTS_DIR "/runs/%s/monitored-%d",
		         run->id, it->monitored);
	else
		snprintf(it->dir, sizeof(it->dir), INIT_RESULTS_DIR "/runs/%s/%d", run->id,
		         it->iter);
	if ((r = init_mkdirs(it->dir, 0755)))
		say("mkdir %s: %s", it->dir, strerror(-r));
	it->nclients = server_host ? 0 : (size_t)bb_plan_clients(run, b->ncpu);
	char wtag[32];
	apart_tag(it, wtag, sizeof(wtag));
	machine(BB_CON_RUN_START " id=%s iter=%d/%d runtime=%g clients=%zu pos=%d/%d%s", run->id,
	        it->iter, run->iterations, run->runtime, it->nclients, it->position,
	        b->positions ? b->positions : it->position, wtag);
	{
		char params[512] = "";
		for (size_t i = 0; i < run->params.n; i++)
			snprintf(params + strlen(params), sizeof(params) - strlen(params), " %s=%s",
			         run->params.v[i].key, run->params.v[i].value);
		int k, n;
		const char *kind = iter_kind(b, it, &k, &n);
		say("run %zu/%zu %s %s %d/%d:%s", it->runidx + 1, b->plan.nruns, run->id, kind, k,
		    n, *params ? params : " (no parameters)");
	}
}

/* What keeps the iteration from running (the plan, the other host, the boot's setup, a
 * module: failed with the reason); then its sysctls, applied and said on the console. */
static void iteration_check(struct boot *b, struct iteration *it)
{
	const struct bb_plan_run *run = it->run;
	int server_host = b->cluster.role == BB_ROLE_SERVER;
	char why[256];
	if (*b->plan_error)
		set_failed(it, "plan: %s", b->plan_error);
	else if (cluster_down(b))
		set_failed(it, "%s", cluster_down(b));
	else if (!it->nclients && !server_host)
		set_failed(it,
		           "nr_threads %d%% of %u CPUs is 0: the run is dropped, as LKP drops "
		           "such a job",
		           run->client_percent, b->ncpu);
	else if (!b->cgroup.ok)
		set_failed(it, "boot setup: cgroup: %s", b->cgroup.error);
	else if (!b->cpufreq.ok)
		set_failed(it, "boot setup: cpufreq: %s", b->cpufreq.error);
	for (size_t i = 0; i < run->needs_modules.n; i++)
		if (!module_available(&b->modules, run->needs_modules.v[i], why, sizeof(why)))
			set_failed(it, "needs %s", why);
	if (!strcmp(it->status, "ok") &&
	    sysctl_apply(&run->sysctls, &it->sysctls, why, sizeof(why)))
		set_failed(it, "%s", why);
	for (size_t i = 0; i < it->sysctls.n; i++) {
		char req[256], act[256];
		machine(BB_CON_SYSCTL " run=%s key=%s requested=%s actual=%s", run->id,
		        it->sysctls.v[i].key,
		        console_word(it->sysctls.v[i].requested, req, sizeof(req)),
		        console_word(it->sysctls.v[i].actual, act, sizeof(act)));
	}
	first_path_mark(&first_path.sysctls);
	if (!strcmp(it->status, "ok") && scratch_prepare(b, it, why, sizeof(why)))
		set_failed(it, "%s", why);
}

/* Iteration iter of plan run runidx; warmup K > 0: the boot's K-th warm-up instead (iter 0);
 * monitored K > 0: the run's K-th monitored iteration instead (iter 0). */
static void iteration(struct boot *b, size_t runidx, int iter, int warmup, int monitored)
{
	const struct bb_plan_run *run = &b->plan.runs[runidx];
	/* a monitored iteration runs for the plan's monitored.runtime, when it has one (a job's
	 * monitored_runtime): the same run with its own length and client command */
	struct bb_plan_run shortened;
	if (monitored && run->monitored_argv.n) {
		shortened = *run;
		shortened.runtime = run->monitored_runtime;
		shortened.client_argv = run->monitored_argv;
		run = &shortened;
	}
	struct iteration it = {
	    .run = run, .runidx = runidx, .iter = iter, .warmup = warmup, .monitored = monitored};
	char *old_results = NULL;
	int appended = 0;
	int server_host = b->cluster.role == BB_ROLE_SERVER;

	iteration_start(b, &it);
	it.procs = calloc(run->nservers + it.nclients, sizeof(*it.procs));
	if (!it.procs) {
		set_failed(&it, "out of memory");
		goto out_record;
	}
	run_track(it.procs, run->nservers + it.nclients);

	iteration_check(b, &it);
	if (!strcmp(it.status, "ok"))
		execute(b, &it);
	if (server_host && !cluster_down(b))
		serve_window(b, &it);
	stop_all(b, &it);
	scratch_release(b, &it);
	if (it.peer_started && !server_host)
		end_peer(b, &it);
	if (!it.t_end)
		it.t_end = init_now_ms();
	appended = record_results(b, &it, &old_results);
	/* keep the sysctls as read back for env.json, then put the boot values back */
	if (it.sysctls.n && !b->run_sysctls[runidx].n) {
		struct sysctl_set *keep = &b->run_sysctls[runidx];
		if ((keep->v = calloc(it.sysctls.n, sizeof(keep->v[0])))) {
			memcpy(keep->v, it.sysctls.v, it.sysctls.n * sizeof(keep->v[0]));
			keep->n = it.sysctls.n;
		}
	}
	sysctl_restore(&it.sysctls);
out_record:
	/* an iteration that failed before its servers: the boot's deferred setup comes first */
	setup_deferred_run(b);
	record_iteration(b, &it, appended, old_results);
	if (it.peer_started && server_host)
		cluster_serve_ended(b, it.status, it.reason);
	if (strcmp(it.status, "ok") && !kept_apart(&it))
		b->run_failed[runidx]++;
	run_track(NULL, 0);
	free(old_results);
	free(it.procs);
	sysctl_free(&it.sysctls);
	free(it.peer_sysctls.v);
	bb_stats_free(&it.stats);
}

void run_iteration(struct boot *b, size_t runidx, int iter, int warmup, int monitored)
{
	iteration(b, runidx, iter, warmup, monitored);
	run_reap();
}

/* The monitored iterations (plan `monitored`), after the measured ones: each run's, in the
 * order the runs first came in the sequence (seq, n), or in the plan's order (seq NULL). */
static void run_monitored(struct boot *b, const struct bb_plan_step *seq, size_t n)
{
	if (!b->plan.monitored || !b->plan.monitors.n)
		return;
	for (size_t i = 0; i < (seq ? n : b->plan.nruns); i++) {
		size_t r = seq ? seq[i].run : i, j;
		for (j = 0; seq && j < i && seq[j].run != r; j++)
			;
		if (seq && j < i)
			continue; /* not the run's first place in the sequence */
		for (int k = 1; k <= b->plan.monitored; k++) {
			iteration(b, r, 0, 0, k);
			run_reap();
		}
	}
}

/* The monitored iterations the boot will run: each run's plan `monitored`, when it has any. */
static int monitored_positions(const struct boot *b)
{
	return b->plan.monitors.n ? (int)b->plan.nruns * b->plan.monitored : 0;
}

void run_sequence(struct boot *b)
{
	struct bb_plan_step *seq;
	size_t n;
	if (bb_plan_sequence(&b->plan, b->order_seed, &seq, &n)) {
		say("out of memory for the run order: running the runs one after the other");
		for (size_t i = 0; i < b->plan.nruns; i++)
			run_one(b, i);
		run_monitored(b, NULL, 0);
		return;
	}
	b->positions = (int)n + (n ? b->plan.warmup + monitored_positions(b) : 0);
	/* the warm-up: the first run's load, before the first measured iteration (plan warmup) */
	for (int w = 1; n && w <= b->plan.warmup; w++) {
		iteration(b, seq[0].run, 0, w, 0);
		run_reap();
	}
	for (size_t i = 0; i < n; i++) {
		iteration(b, seq[i].run, seq[i].iter, 0, 0);
		run_reap();
	}
	run_monitored(b, seq, n);
	free(seq);
}

void run_one(struct boot *b, size_t i)
{
	if (!b->positions) {
		for (size_t r = 0; r < b->plan.nruns; r++)
			b->positions += b->plan.runs[r].iterations;
		b->positions += monitored_positions(b);
	}
	for (int iter = 1; iter <= b->plan.runs[i].iterations; iter++)
		iteration(b, i, iter, 0, 0);
}
