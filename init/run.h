/*
 * What the parts of an iteration share (init/run.c: the sequence and the iteration's steps;
 * init/run_wait.c: its processes, started, waited for, stopped and reaped; init/run_record.c:
 * its status, rusages, stats, results.json and console lines). Private to those three.
 */
#ifndef BENCHBOOT_INIT_RUN_H
#define BENCHBOOT_INIT_RUN_H

#include <sys/resource.h>
#include <sys/types.h>

#include "init.h"
#include "stats.h"

#define KILL_AFTER_MS 5000.0

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
	int mounted;                    /* scratch devices mounted for it (scratch.c) */
};

/* --- run_wait.c: the processes --- */

/* LKP's $mount_points in the clients' and servers' environment ("/fs/ram0 ..."), or NULL:
 * none (scratch.c sets it for an iteration with a filesystem). */
void run_set_mount_points(const char *points);
/* LKP's $partitions: the boot's scratch devices ("/dev/ram0 ..."), when none was refused. */
void run_set_partitions(const char *devices);

/* The processes run_reap records exits of (the iteration in progress; NULL, 0: none). */
void run_track(struct proc *procs, size_t n);
/* Wait until tcp:ADDR:PORT listens, the server dies or the deadline passes: 0, or -1 (why). */
int wait_ready(struct boot *b, const char *spec, struct proc *srv, double deadline, char *why,
               size_t len);
/* The init's CPU time: in ticks (times()), in ns (/proc/self/schedstat, or -1). */
long self_ticks(void);
long long self_cpu_ns(void);
/* Signal a process's group (or the process, when that fails). */
void kill_group(struct proc *p, int sig);
/* Wait until every proc of the role has exited or the deadline passes; 1 when all did. */
int wait_role(struct boot *b, struct proc *procs, size_t n, enum role role, double deadline);
/* Fork, place and pin one process; it waits on the gate. 0 or -1 (reason set, child killed). */
int start_proc(struct boot *b, struct iteration *it, struct proc *p, const struct bb_strv *argv,
               const char *cpus, int gate[2]);
/* The gate's pipe (0, or -1: reason set); its release (a byte for each child, then closed). */
int open_gate(struct iteration *it, int gate[2]);
void release_gate(int gate[2]);
/* Stop whatever still runs: clients and servers, SIGTERM then SIGKILL; the job cgroup emptied. */
void stop_all(struct boot *b, struct iteration *it);
/* The benchmark window: until every client has exited or the deadline; 1 when they all did. */
int wait_clients(struct boot *b, struct iteration *it, double deadline, long *ticks, long long *ns);
/* Fork, place and pin the clients: they wait on gate. 0, or -1 (reason set). */
int start_clients(struct boot *b, struct iteration *it, int gate[2]);
/* Clients forked but never let go: killed, reaped, left out of the records. */
void drop_clients(struct iteration *it);

/* --- run_record.c: the records --- */

/* How a process ended ("exit status N", "killed by signal N (NAME)", "still running"). */
void describe_exit(const struct proc *p, char *buf, size_t len);
/* Whether the monitors run in this iteration. */
int monitors_run_in(const struct boot *b, const struct iteration *it);
/* An iteration kept apart (a warm-up, a monitored one): its stats in its own folder. */
int kept_apart(const struct iteration *it);
/* What the console calls it ("warm-up", "monitored", "iteration"), its number and count. */
const char *iter_kind(const struct boot *b, const struct iteration *it, int *k, int *n);
/* " warmup=K" or " monitored=K", or "". */
void apart_tag(const struct iteration *it, char *buf, size_t len);
/* Fail the iteration with a reason (the first reason is kept). */
void set_failed(struct iteration *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The rusages, stats and results.json of an iteration; 1 when the run's results.json was
 * rewritten (*old: its text before). */
int record_results(struct boot *b, struct iteration *it, char **old);
/* The status, the sync to the results disk, the run-end line. */
void record_iteration(struct boot *b, struct iteration *it, int appended, const char *old);

/* --- scratch.c: the iteration's filesystem --- */

/* A run with fs=: each scratch device wiped, made and mounted at /fs/NAME, $mount_points set.
 * 0, or -1 with the reason (the iteration fails; nothing of the results disk is touched). */
int scratch_prepare(struct boot *b, struct iteration *it, char *why, size_t len);
/* Unmount what scratch_prepare mounted. */
void scratch_release(struct boot *b, struct iteration *it);

#endif
