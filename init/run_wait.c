/*
 * The processes of an iteration (init/run.c has the sequence): the servers and clients forked
 * gated (init/spawn.h), placed in the job cgroup and pinned before they may run, the gate and
 * its release, the wait for a server's port, the benchmark window, the stop of whatever still
 * runs (SIGTERM, SIGKILL, the job cgroup emptied) and the reaping of every child (run_reap).
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

#define SERVER_STOP_MS 3000.0

/* The processes of the iteration in progress, for run_reap. */
static struct proc *cur_procs;

static size_t cur_nprocs;

static unsigned long orphans_reaped;

static char mount_points_env[1100], partitions_env[1100];
static char *child_env[] = {
    "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME=/",
    "LANG=C",
    NULL, /* partitions=..., the boot's scratch devices (LKP's name) */
    NULL, /* mount_points=..., in an iteration with a filesystem */
    NULL,
};

/* Slots 3 and 4 of child_env: a set one first, so the array ends at the first NULL. */
static void set_env_slots(void)
{
	char *set[2] = {NULL, NULL};
	size_t n = 0;
	if (*partitions_env)
		set[n++] = partitions_env;
	if (*mount_points_env)
		set[n++] = mount_points_env;
	child_env[3] = set[0];
	child_env[4] = set[1];
}

void run_set_mount_points(const char *points)
{
	if (points)
		snprintf(mount_points_env, sizeof mount_points_env, "mount_points=%s", points);
	else
		*mount_points_env = 0;
	set_env_slots();
}

void run_set_partitions(const char *devices)
{
	if (devices)
		snprintf(partitions_env, sizeof partitions_env, "partitions=%s", devices);
	else
		*partitions_env = 0;
	set_env_slots();
}

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

void kill_group(struct proc *p, int sig)
{
	if (p->pid > 0 && !p->exited && kill(-p->pid, sig))
		kill(p->pid, sig);
}

/* Wait until every proc of the role has exited or the deadline passes; 1 when all did. */
int wait_role(struct boot *b, struct proc *procs, size_t n, enum role role, double deadline)
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

/* Wait until tcp:ADDR:PORT listens (listening.h: the kernel's list, or a connect that is
 * accepted), the server dies or the deadline passes. */
int wait_ready(struct boot *b, const char *spec, struct proc *srv, double deadline, char *why,
               size_t len)
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

long self_ticks(void)
{
	struct tms t;
	times(&t);
	return (long)(t.tms_utime + t.tms_stime);
}

/* CPU time of the init in ns from /proc/self/schedstat (finer than ticks), or -1. */
long long self_cpu_ns(void)
{
	char buf[128];
	if (init_read_line("/proc/self/schedstat", buf, sizeof(buf)))
		return -1;
	return atoll(buf);
}

static int place_proc(struct boot *b, struct iteration *it, struct proc *p, const char *role,
                      const char *cpus, int placed);

/* Fork, place and pin one process; it waits on the gate. 0 or -1 (reason set, child killed). */
int start_proc(struct boot *b, struct iteration *it, struct proc *p, const struct bb_strv *argv,
               const char *cpus, int gate[2])
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

int open_gate(struct iteration *it, int gate[2])
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
void release_gate(int gate[2])
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
void stop_all(struct boot *b, struct iteration *it)
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
int wait_clients(struct boot *b, struct iteration *it, double deadline, long *ticks, long long *ns)
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
int start_clients(struct boot *b, struct iteration *it, int gate[2])
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
void drop_clients(struct iteration *it)
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

void run_track(struct proc *procs, size_t n)
{
	cur_procs = procs;
	cur_nprocs = n;
}
