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
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
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
#include "resdisk.h"
#include "results.h"
#include "resjson.h"
#include "setuptime.h"
#include "spawn.h"
#include "stats.h"
#include "writer.h"

#define KILL_AFTER_MS 5000.0
#define SERVER_STOP_MS 3000.0
#define LAVA_ID_MAX 100

enum role { SERVER, CLIENT };

struct proc {
	pid_t pid;
	enum role role;
	int index;
	int exited;
	int status;
	struct rusage ru;
	double start_ms, end_ms;
	int cgroup_inside;
	char cgroup_seen[256];
	char cpus[256];
};

/* The processes of the iteration in progress, for run_reap. */
static struct proc *cur_procs;
static size_t cur_nprocs;
static unsigned long orphans_reaped;

static char *const child_env[] = {
    "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME=/",
    "LANG=C",
    NULL,
};

void run_reap(void)
{
	for (;;) {
		int status;
		struct rusage ru;
		pid_t pid = wait4(-1, &status, WNOHANG, &ru);
		if (pid <= 0)
			return;
		if (writer_reaped(pid, status))
			continue; /* the results writer, not a benchmark's process */
		if (monitor_reaped(pid, status, &ru))
			continue; /* the monitors' sampler */
		size_t i;
		for (i = 0; i < cur_nprocs; i++)
			if (cur_procs[i].pid == pid && !cur_procs[i].exited)
				break;
		if (i == cur_nprocs) {
			orphans_reaped++;
			continue;
		}
		cur_procs[i].exited = 1;
		cur_procs[i].status = status;
		cur_procs[i].ru = ru;
		cur_procs[i].end_ms = init_now_ms();
	}
}

/* Sleep in the kernel until a signal arrives or the deadline passes; reads the signals. */
static void sleep_only(struct boot *b, double deadline_ms)
{
	double left = deadline_ms - init_now_ms();
	struct pollfd pfd = {.fd = b->sigfd, .events = POLLIN};
	int timeout = left <= 0 ? 0 : left > 1e9 ? -1 : (int)ceil(left);
	if (poll(&pfd, 1, timeout) > 0) {
		struct signalfd_siginfo si;
		while (read(b->sigfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo != SIGCHLD)
				say("signal %u ignored (the init carries on)", si.ssi_signo);
		}
	}
}

/* The same, then reap what exited. */
static void sleep_until(struct boot *b, double deadline_ms)
{
	sleep_only(b, deadline_ms);
	run_reap();
}

/* LIST with `last` standing for the highest online CPU (ONLINE, the kernel's list). */
static int parse_cpus(const char *list, const char *online, cpu_set_t *set)
{
	struct bb_cpuset cs, on;
	int last = bb_cpulist_parse(online, &on) ? -1 : bb_cpuset_last(&on);
	if (bb_cpulist_resolve(list, last, &cs))
		return -EINVAL;
	CPU_ZERO(set);
	for (int i = 0, c; (c = bb_cpuset_nth(&cs, (unsigned)i)) >= 0; i++)
		if (c < CPU_SETSIZE)
			CPU_SET(c, set);
	return 0;
}

static void affinity_of(pid_t pid, char *buf, size_t len)
{
	cpu_set_t set;
	struct bb_cpuset cs;
	memset(&cs, 0, sizeof(cs));
	if (sched_getaffinity(pid, sizeof(set), &set)) {
		snprintf(buf, len, "?");
		return;
	}
	for (int c = 0; c < CPU_SETSIZE && c < BB_CPUSET_MAX; c++)
		if (CPU_ISSET(c, &set))
			bb_cpuset_add(&cs, (unsigned)c);
	bb_cpulist_format(&cs, buf, len);
}

/*
 * Fork a child that waits on gate[0] (for a byte, or the write end's close), then runs argv with
 * stdout/stderr in out/err, straight into the job cgroup when cgfd >= 0 (*placed: it worked;
 * otherwise the caller moves the child). Returns the pid or -errno.
 */
static pid_t spawn_gated(const struct bb_strv *argv, const char *out, const char *err, int gate[2],
                         int cgfd, int *placed)
{
	/* no malloc between a raw clone3 and execve: argv is made here */
	char *args[argv->n + 1];
	memcpy(args, argv->v, argv->n * sizeof(*args));
	args[argv->n] = NULL;
	struct spawn s = SPAWN_INIT;
	s.mask = SPAWN_MASK_FIRST;
	s.new_pgrp = 1;
	s.close_fds[s.nclose++] = gate[1];
	s.stdin_path = "/dev/null";
	s.stdout_path = out;
	s.stderr_path = err;
	s.gate_fd = gate[0];
	s.close_others = 1; /* nothing of the init's leaks into the benchmark */
	s.cgroup_fd = cgfd;
	s.path = args[0];
	s.argv = args;
	s.envp = child_env;
	s.say_exec_error = 1;
	pid_t pid = spawn(&s);
	*placed = s.placed;
	return pid;
}

static void kill_group(struct proc *p, int sig)
{
	if (p->pid > 0 && !p->exited && kill(-p->pid, sig))
		kill(p->pid, sig);
}

/* Wait until every proc of the role has exited or the deadline passes; 1 when all did. */
static int wait_role(struct boot *b, struct proc *procs, size_t n, enum role role, double deadline)
{
	for (;;) {
		size_t live = 0;
		for (size_t i = 0; i < n; i++)
			live += procs[i].role == role && procs[i].pid > 0 && !procs[i].exited;
		if (!live)
			return 1;
		if (init_now_ms() >= deadline)
			return 0;
		sleep_until(b, deadline);
	}
}

static void describe_exit(const struct proc *p, char *buf, size_t len);

/* Wait until tcp:ADDR:PORT listens (listening.h: the kernel's list, or a connect that is
 * accepted), the server dies or the deadline passes. */
static int wait_ready(struct boot *b, const char *spec, struct proc *srv, double deadline,
                      char *why, size_t len)
{
	char addr[64];
	const char *s = spec + 4, *colon = strrchr(s, ':');
	struct sockaddr_storage ss;
	socklen_t sl;
	memset(&ss, 0, sizeof(ss));
	snprintf(addr, sizeof(addr), "%.*s", (int)(colon - s), s);
	int port = atoi(colon + 1), last = 0, tries = 0;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		sl = sizeof(*sin);
	} else {
		inet_pton(AF_INET6, addr, &sin6->sin6_addr);
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*sin6);
	}
	for (;;) {
		double t0 = init_now_ms();
		if (!first_path.release)
			first_path.ready_tries++;
		/* a listening socket in the kernel's list, or else a connect (listening.h) */
		int listening = tcp_listening(&ss), fd = -1;
		if (listening == 1 ||
		    (listening < 0 &&
		     (fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0)) >= 0 &&
		     connect(fd, (struct sockaddr *)&ss, sl) == 0)) {
			if (!first_path.release)
				first_path.ready_check_ms = init_now_ms() - t0;
			if (fd >= 0)
				close(fd);
			return 0;
		}
		last = listening == 0 ? ECONNREFUSED : errno;
		if (fd >= 0)
			close(fd);
		run_reap();
		/* exit status 0 may be a server that daemonized: its child listens soon */
		if (srv->exited && !(WIFEXITED(srv->status) && WEXITSTATUS(srv->status) == 0)) {
			char how[96];
			describe_exit(srv, how, sizeof(how));
			snprintf(why, len, "server %d exited (%s) before %s was ready", srv->index,
			         how, spec);
			return -1;
		}
		if (init_now_ms() >= deadline) {
			snprintf(why, len, "server %d not ready on %s: %s", srv->index, spec,
			         strerror(last));
			return -1;
		}
		/* a refused connect returns at once: wait a little, in the kernel (1, 2, 4 ms, then
		 * every READY_MAX_MS: the port is seen soon after it listens) */
		double next = init_now_ms() + ready_backoff_ms(tries++);
		sleep_until(b, next < deadline ? next : deadline);
	}
}

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

static void describe_exit(const struct proc *p, char *buf, size_t len)
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

static long self_ticks(void)
{
	struct tms t;
	times(&t);
	return (long)(t.tms_utime + t.tms_stime);
}

/* CPU time of the init in ns from /proc/self/schedstat (finer than ticks), or -1. */
static long long self_cpu_ns(void)
{
	char buf[128];
	if (init_read_line("/proc/self/schedstat", buf, sizeof(buf)))
		return -1;
	return atoll(buf);
}

struct iteration {
	const struct bb_plan_run *run;
	size_t runidx;
	int iter;
	int warmup;    /* 0, or K: the boot's K-th warm-up iteration (kept apart, docs/plan.md) */
	int monitored; /* 0, or K: the run's K-th monitored iteration (kept apart, docs/plan.md) */
	int position;  /* in the boot's sequence, 1-based */
	char dir[512]; /* relative to init_root */
	char status[16];
	char reason[768];
	int timed_out;
	double t_release, t_end;
	long init_ticks;
	long long init_cpu_ns;
	long long monitors_cpu_us; /* the monitors' processes, their CPU time; -1: none ran */
	int leftovers;   /* processes still in the job cgroup after the iteration, killed */
	long oom_kills0; /* the job cgroup's OOM kill count as the clients start (-1: no count) */
	struct proc *procs;
	size_t nprocs, nclients;
	struct sysctl_set sysctls;
	struct bb_stats stats;
	size_t ntest_stats; /* the test's own stats come first in stats, the monitors' after */
	pid_t monitor_pid;
	char stats_error[512];
	/* two hosts (docs/cluster.md): the other host's side of the iteration. peer_asked: the
	 * client host asked the server host to start it (server host: it answered); peer_started:
	 * the server host's servers are ready, an `end` follows */
	int peer_asked, peer_started;
	char peer_status[16], peer_reason[512];
	struct sysctl_set peer_sysctls; /* client host: the server host's, as read back there */
};

/*
 * Whether the monitors run in this iteration: with plan `monitored` N > 0 only in the runs' N
 * monitored iterations, so the measured ones stay clean; with 0 in every iteration, as LKP.
 */
static int monitors_run_in(const struct boot *b, const struct iteration *it)
{
	if (!b->plan.monitors.n)
		return 0;
	return b->plan.monitored ? it->monitored > 0 : 1;
}

/* An iteration kept apart (a warm-up, a monitored one): its stats in its own folder. */
static int kept_apart(const struct iteration *it)
{
	return it->warmup || it->monitored;
}

/* What the console calls it ("warm-up", "monitored", "iteration"), its number and count. */
static const char *iter_kind(const struct boot *b, const struct iteration *it, int *k, int *n)
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
static void apart_tag(const struct iteration *it, char *buf, size_t len)
{
	*buf = 0;
	if (it->warmup)
		snprintf(buf, len, " warmup=%d", it->warmup);
	else if (it->monitored)
		snprintf(buf, len, " monitored=%d", it->monitored);
}

static void set_failed(struct iteration *it, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_failed(struct iteration *it, const char *fmt, ...)
{
	va_list ap;
	if (strcmp(it->status, "ok"))
		return; /* keep the first reason */
	snprintf(it->status, sizeof(it->status), "failed");
	va_start(ap, fmt);
	vsnprintf(it->reason, sizeof(it->reason), fmt, ap);
	va_end(ap);
}

static int place_proc(struct boot *b, struct iteration *it, struct proc *p, const char *role,
                      const char *cpus, int placed);

/* Fork, place and pin one process; it waits on the gate. 0 or -1 (reason set, child killed). */
static int start_proc(struct boot *b, struct iteration *it, struct proc *p,
                      const struct bb_strv *argv, const char *cpus, int gate[2])
{
	char out[600], err[600];
	const char *role = p->role == SERVER ? "server" : "client";
	snprintf(out, sizeof(out), "%s%s/%s.%d.out", init_root, it->dir, role, p->index);
	snprintf(err, sizeof(err), "%s%s/%s.%d.err", init_root, it->dir, role, p->index);
	int placed = 0;
	p->pid = spawn_gated(argv, out, err, gate, b->cgroup_fd, &placed);
	if (p->pid < 0) {
		set_failed(it, "fork %s %d: %s", role, p->index, strerror(-p->pid));
		p->pid = 0;
		return -1;
	}
	p->start_ms = init_now_ms();
	if (place_proc(b, it, p, role, cpus, placed)) {
		kill(p->pid, SIGKILL);
		return -1;
	}
	machine(BB_CON_PROC " run=%s iter=%d role=%s index=%d pid=%d cpus=%s cgroup=%s",
	        it->run->id, it->iter, role, p->index, (int)p->pid, p->cpus,
	        *p->cgroup_seen ? p->cgroup_seen : "-");
	return 0;
}

/* Affinity and cgroup of a gated child, checked before it may run. */
static int place_proc(struct boot *b, struct iteration *it, struct proc *p, const char *role,
                      const char *cpus, int placed)
{
	if (cpus) {
		cpu_set_t set;
		if (parse_cpus(cpus, b->online, &set)) {
			set_failed(it, "%s %d: affinity %s: no such CPUs here (online: %s)", role,
			           p->index, cpus, b->online);
			return -1;
		}
		if (sched_setaffinity(p->pid, sizeof(set), &set)) {
			set_failed(it, "%s %d: affinity %s: %s", role, p->index, cpus,
			           strerror(errno));
			return -1;
		}
	}
	affinity_of(p->pid, p->cpus, sizeof(p->cpus));
	if (b->cgroup.mode != BB_CGROUP_NONE && !placed) {
		int r = cgroup_place(&b->cgroup, p->pid);
		if (r) {
			set_failed(it, "%s %d: cannot enter the job cgroup: %s", role, p->index,
			           strerror(-r));
			return -1;
		}
	}
	p->cgroup_inside = cgroup_check(&b->cgroup, p->pid, p->cgroup_seen, sizeof(p->cgroup_seen));
	if (b->cgroup.mode != BB_CGROUP_NONE && !p->cgroup_inside) {
		set_failed(it, "%s %d: not in the job cgroup (/proc/%d/cgroup: %s)", role, p->index,
		           p->pid, p->cgroup_seen);
		return -1;
	}
	return 0;
}

static int open_gate(struct iteration *it, int gate[2])
{
	if (pipe2(gate, O_CLOEXEC)) {
		set_failed(it, "pipe: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Release the children waiting on the gate: a byte for each (a pipe's worth, non-blocking),
 * then the close. The bytes, not the close alone: the monitors, forked before the release of
 * a monitored iteration, hold copies of the write end until they end.
 */
static void release_gate(int gate[2])
{
	static const char bytes[4096];
	if (gate[1] >= 0 && !fcntl(gate[1], F_SETFL, O_NONBLOCK))
		for (int i = 0; i < 16 && write(gate[1], bytes, sizeof bytes) > 0; i++)
			;
	if (gate[1] >= 0)
		close(gate[1]);
	if (gate[0] >= 0)
		close(gate[0]);
	gate[0] = gate[1] = -1;
}

/* Stop whatever still runs: clients and servers, SIGTERM then SIGKILL. */
static void stop_all(struct boot *b, struct iteration *it)
{
	for (size_t i = 0; i < it->nprocs; i++)
		kill_group(&it->procs[i], SIGTERM);
	if (!wait_role(b, it->procs, it->nprocs, CLIENT, init_now_ms() + SERVER_STOP_MS) |
	    !wait_role(b, it->procs, it->nprocs, SERVER, init_now_ms() + SERVER_STOP_MS)) {
		for (size_t i = 0; i < it->nprocs; i++)
			kill_group(&it->procs[i], SIGKILL);
		wait_role(b, it->procs, it->nprocs, CLIENT, init_now_ms() + KILL_AFTER_MS);
		wait_role(b, it->procs, it->nprocs, SERVER, init_now_ms() + KILL_AFTER_MS);
	}
	/* anything left in the process groups (children of clients and servers) */
	for (size_t i = 0; i < it->nprocs; i++)
		if (it->procs[i].pid > 0)
			kill(-it->procs[i].pid, SIGKILL);
	/* A SIGKILL is sent, not yet done: until they are gone (and reaped) the killed are still
	 * in the job cgroup. Counted now, a netserver's per-connection child, killed with its
	 * group, would be taken for a process that left its group, some boots and not others. */
	double deadline = init_now_ms() + KILL_AFTER_MS;
	for (;;) {
		run_reap();
		size_t live = 0;
		for (size_t i = 0; i < it->nprocs; i++)
			live += it->procs[i].pid > 0 && kill(-it->procs[i].pid, 0) == 0;
		if (!live || init_now_ms() >= deadline)
			break;
		sleep_until(b, init_now_ms() + 10);
	}
	/* and in the job cgroup: daemons that left their group must not outlive the iteration */
	deadline = init_now_ms() + KILL_AFTER_MS;
	char names[256];
	int n, first = cgroup_kill_all(&b->cgroup, names, sizeof(names));
	it->leftovers = first;
	if (first)
		say("%s iteration %d: %d process(es) left in the job cgroup: killed: %s",
		    it->run->id, it->iter, first, names);
	while (first && (n = cgroup_kill_all(&b->cgroup, NULL, 0)) > 0 && init_now_ms() < deadline)
		sleep_until(b, init_now_ms() + 20);
	run_reap();
}

/*
 * The benchmark window: sleep until every client has exited or the deadline passes; 1 when they
 * all did. The init's CPU use is sampled each time it wakes up, before it reaps: the sample of
 * the wake-up that finds the last client gone ends the window (reaping it comes after the
 * benchmark; reaping the clients that end earlier is inside it).
 */
static int wait_clients(struct boot *b, struct iteration *it, double deadline, long *ticks,
                        long long *ns)
{
	for (;;) {
		size_t live = 0;
		for (size_t i = 0; i < it->nprocs; i++)
			live += it->procs[i].role == CLIENT && it->procs[i].pid > 0 &&
			        !it->procs[i].exited;
		if (!live)
			return 1;
		double now = init_now_ms(), beat = now + BB_HEARTBEAT_S * 1e3;
		if (now >= deadline)
			return 0;
		sleep_only(b, deadline < beat ? deadline : beat);
		heartbeat("run", it->run->id);
		*ticks = self_ticks();
		*ns = self_cpu_ns();
		run_reap();
	}
}

/* Fork, place and pin the clients: they wait on gate. 0, or -1 (reason set). */
static int start_clients(struct boot *b, struct iteration *it, int gate[2])
{
	for (size_t c = 0; c < it->nclients; c++) {
		struct proc *p = &it->procs[it->nprocs++];
		p->role = CLIENT;
		p->index = (int)c;
		if (start_proc(b, it, p, &it->run->client_argv, it->run->client_cpus, gate))
			return -1;
	}
	first_path_mark(&first_path.clients_forked);
	return 0;
}

/*
 * Clients that were forked but never let go (a server or another client failed): killed
 * while they still wait on their gate, reaped, and left out of the records: they never ran.
 */
static void drop_clients(struct iteration *it)
{
	size_t n = 0;
	for (size_t i = 0; i < it->nprocs; i++) {
		struct proc *p = &it->procs[i];
		if (p->role != CLIENT) {
			it->procs[n++] = *p;
			continue;
		}
		if (p->pid <= 0)
			continue;
		kill(p->pid, SIGKILL);
		if (!p->exited)
			while (wait4(p->pid, &p->status, 0, NULL) < 0 && errno == EINTR)
				;
	}
	memset(&it->procs[n], 0, (it->nprocs - n) * sizeof(it->procs[0]));
	it->nprocs = n;
}

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
	int r = bb_stats_for_run(it->run->suite, outputs, ru, n, (it->t_end - it->t_release) / 1e3,
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
}

/*
 * The clients' rusages, then the stats and results.json of an iteration that ran ok (kept
 * apart: its own folder's). 1 when the run's results.json was rewritten (*old: its text before,
 * for take_back_results), else 0.
 */
static int record_results(struct boot *b, struct iteration *it, char **old)
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
static void record_iteration(struct boot *b, struct iteration *it, int appended, const char *old)
{
	int r;
	write_status(b, it);
	kernel_log_update();
	if ((r = writer_sync(0, NULL, NULL))) {
		const char *what = resdisk_strerror(r);
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
	cur_procs = it.procs;
	cur_nprocs = run->nservers + it.nclients;

	iteration_check(b, &it);
	if (!strcmp(it.status, "ok"))
		execute(b, &it);
	if (server_host && !cluster_down(b))
		serve_window(b, &it);
	stop_all(b, &it);
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
	cur_procs = NULL;
	cur_nprocs = 0;
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
