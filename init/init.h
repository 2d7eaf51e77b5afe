/*
 * The init (PID 1): shared state and the small helpers every step uses.
 *
 * Every path the init touches goes through init_path(), which prefixes init_root ("" when it
 * runs as PID 1, a fake tree in the unit tests). Every syscall that needs privileges or changes
 * the machine goes through init_ops, which the tests replace.
 */
#ifndef BENCHBOOT_INIT_H
#define BENCHBOOT_INIT_H

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#include "cpulist.h"
#include "plan/plan.h"

#define INIT_RESULTS_DIR "/run/benchboot/results"
#define INIT_JOB_CGROUP "benchboot"

struct init_ops {
	int (*mount)(const char *src, const char *target, const char *type, unsigned long flags,
	             const void *data);
	int (*mknod)(const char *path, mode_t mode, dev_t dev);
	int (*finit_module)(int fd, const char *params, int flags);
	int (*init_module)(void *image, unsigned long len, const char *params);
	int (*reboot)(int cmd);
	/* Networking (net.c): bring a link up, create a dummy link, add an IPv4 or IPv6 address
	 * (addr has a ':'), set the MTU, add the default route of the gateway's family, sleep until
	 * a link changes or ms pass (ms 0: only get ready to hear about changes, ms < 0: done
	 * waiting). 0 or -errno. */
	int (*link_up)(const char *ifname);
	int (*link_add_dummy)(const char *ifname);
	int (*addr_add)(const char *ifname, const char *addr, int prefix);
	int (*link_mtu)(const char *ifname, int mtu);
	int (*route_add)(const char *ifname, const char *gateway);
	int (*link_wait)(int ms);
};

extern const struct init_ops init_real_ops;
extern const struct init_ops *init_ops;
extern const char *init_root;

/* init_root + path, in a static rotating buffer (8 slots): valid for a few calls. */
const char *init_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Read a whole file (under init_root) into a malloc'd NUL-terminated string; NULL + errno. */
char *init_read(const char *path, size_t *len);
/* Read the first line of a file into buf without its newline; 0 or -errno. */
int init_read_line(const char *path, char *buf, size_t len);
/* Write a string to a file (O_WRONLY|O_TRUNC, or O_CREAT when create); 0 or -errno. */
int init_write(const char *path, const char *s, int create);
/* mkdir -p (under init_root: path is given without it); 0 or -errno. */
int init_mkdirs(const char *path, mode_t mode);
/* Monotonic milliseconds since boot (CLOCK_BOOTTIME). */
double init_now_ms(void);
/* Block every signal but the synchronous faults (SIGSEGV, SIGBUS, SIGILL, SIGFPE: those must
 * still kill a buggy process, so PID 1 can report it); *set is what was blocked. */
void init_block_signals(sigset_t *set);

/* Console and log (console.c). say(): a human line on the console and in init.log; machine():
 * a `BENCHBOOT ...` line for the host. */
int console_setup(void);
void console_log_open(const char *path);
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void machine(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void console_raw(const char *s);
/* A heartbeat line (BB_CON_HEARTBEAT what=WHAT run=RUN) if none was printed in the last
 * BB_HEARTBEAT_S seconds: the init calls it while it waits on long work, so that the host
 * tells a busy init from a hung machine. */
void heartbeat(const char *what, const char *run);

/* A value for a machine line: whitespace becomes ',' (values there have no spaces). */
const char *console_word(const char *s, char *buf, size_t len);

/* Mounts (mount.c). Returns the number of failures (each reported). */
int mount_early(void);

/* Modules (modules.c). */
struct module_state {
	char name[64];
	int loaded; /* 1 loaded or present, 0 failed / missing */
	int nodev;  /* ENODEV: no such hardware here (not a failure unless modules.boot names it) */
	char reason[160];
};
struct modules_result {
	struct module_state *v;
	size_t n, cap;
	double load_ms; /* time spent inside finit_module */
};
int modules_load(const struct bb_plan *plan, struct modules_result *res);
/* Is module NAME usable now (present in /sys/module)? reason filled when not. */
int module_available(const struct modules_result *res, const char *name, char *reason, size_t len);

/* Scratch disks (scratch.c, docs/jobs.md "Disks and filesystems"): the plan's disk.devices as
 * found at boot. */
struct scratch_disk {
	char path[80];
	unsigned long long bytes;
	int rotational; /* -1: unknown */
	char scheduler[128], model[128];
	char refused[256]; /* why it is never written ("" when it may be) */
};
struct scratch_state {
	struct scratch_disk *v;
	size_t n;
	char error[300]; /* the first refusal: the runs with a filesystem fail with it */
};
struct boot;
struct ijw;
/* After the modules: each device of disk.devices there (its node made), and never the results
 * disk or a device in use. */
void scratch_setup(struct boot *b);
/* env.json: "disk" (the devices), and a run's "fs" (its mkfs, options, the kernel's mounts). */
void scratch_json(struct ijw *w, const struct boot *b);
void scratch_run_json(struct ijw *w, const struct boot *b, size_t run);

/* Network (net.c): lo up, dummy0 with the plan's address, and the NIC of net.nic.* when the
 * plan names one. 0 or -errno (err says what failed; the runs go on). */
int net_setup(const struct bb_plan *plan, char *err, size_t errlen);
/* The NIC as net_setup left it (for env.json). */
struct net_nic {
	int requested;     /* the plan (or command line) asked for a NIC */
	char ifname[16];   /* the interface found, "" when none */
	int ok;            /* found and configured as asked */
	int carrier;       /* it had a carrier before the routes were added */
	double found_ms;   /* how long it took to appear */
	double carrier_ms; /* ... and to have a carrier (after link up) */
	char error[256];
};
extern struct net_nic net_nic;

/* cgroups (cgroup.c). */
struct cgroup_state {
	enum bb_cgroup_mode mode;
	int ok;
	char error[256];
	/* cgroup.procs files of the job cgroup, one per hierarchy (v2: one). */
	char procs[16][544];
	/* expected /proc/PID/cgroup lines, e.g. "0::/benchboot" or "4:memory:/benchboot" */
	char expect[16][256];
	size_t n;
	char path[201]; /* the job cgroup below each root, no leading '/' (plan cgroup.path) */
};
int cgroup_setup(const struct bb_plan *plan, struct cgroup_state *cg);
/* v2: an O_PATH fd of the job cgroup directory for clone3 CLONE_INTO_CGROUP; else -1. */
int cgroup_dir_fd(const struct cgroup_state *cg);
/* Move pid into the job cgroup; 0 or -errno. */
int cgroup_place(const struct cgroup_state *cg, pid_t pid);
/* SIGKILL every process still in the job cgroup (daemons that left their process group);
 * returns how many. names (NULL: not wanted) gets them as "COMM[PID] COMM[PID]...". */
int cgroup_kill_all(const struct cgroup_state *cg, char *names, size_t len);
/* How many times the OOM killer killed in the job cgroup so far (v2 memory.events, v1
 * memory.oom_control: their oom_kill counts); -1 when no hierarchy counts (no memory controller).
 */
long cgroup_oom_kills(const struct cgroup_state *cg);
/* Check /proc/PID/cgroup against the job cgroup: 1 inside, 0 not (what it read goes to seen). */
int cgroup_check(const struct cgroup_state *cg, pid_t pid, char *seen, size_t len);

/* sysctls (sysctl.c): per run. */
struct sysctl_entry {
	char key[128];
	char requested[256];
	char actual[256];
	char original[256];
	int applied; /* written (needs restoring) */
};
struct sysctl_set {
	struct sysctl_entry *v;
	size_t n, cap;
};
/* Write every sysctl of the run and read it back; 0, or -1 with reason (entries filled so far
 * are kept for the record). */
int sysctl_apply(const struct bb_kvs *want, struct sysctl_set *set, char *reason, size_t len);
/* Put back the values found before sysctl_apply; returns the number of failures (reported). */
int sysctl_restore(struct sysctl_set *set);
void sysctl_free(struct sysctl_set *set);
/* Normalise whitespace ("4096\t131072" == "4096 131072"). */
void sysctl_normalize(const char *in, char *out, size_t len);

/* cpufreq (cpufreq.c). */
struct cpufreq_state {
	int present; /* any online CPU with cpufreq */
	int ok;      /* the requested governor is in force everywhere (or none requested) */
	char error[256];
	char governors[4096]; /* JSON object cpuN -> governor, or "" */
};
int cpufreq_setup(const struct bb_plan *plan, struct cpufreq_state *st);
/* JSON object of the governor in force per online CPU into buf ("{}" without cpufreq). */
void cpufreq_read(char *buf, size_t len, int *present);

/* A two-host plan (cluster.c, docs/cluster.md): this host's part and how the other is. */
struct cluster_state {
	enum bb_role role; /* BB_ROLE_NONE: a one-host plan */
	const struct bb_plan_host *self_host, *peer_host;
	char self[64], peer[64]; /* addresses without prefix ("" unknown) */
	char error[256];         /* the role could not be resolved: every run fails */
	char peer_status[16];    /* "", connected, timeout, lost, mismatch */
	char peer_reason[512];
	char down[600]; /* why the runs fail ("" while the cluster works) */
};

/* The boot: everything the steps found, for the runs and env.json. */
struct boot {
	struct bb_plan plan;
	char plan_error[600]; /* the plan could not be read: no runs */
	char cmdline[4096];
	char cmdline_report[2048]; /* bad benchboot.* words, one per line */
	char boot_id[64];
	int sigfd;     /* signalfd of the blocked signals */
	int cgroup_fd; /* v2: the job cgroup directory (clone3 into it), else -1 */
	unsigned ncpu;
	char online[1024];
	struct modules_result modules;
	char net_error[256];
	struct cgroup_state cgroup;
	struct cpufreq_state cpufreq;
	double t_exec_ms;         /* CLOCK_BOOTTIME at the start of main (PID 1) */
	int mount_failures;       /* PID 1's early mounts that failed */
	int position;             /* iterations started so far in this boot (run-N steps) */
	int positions;            /* iterations in this boot's sequence */
	unsigned long order_seed; /* the seed of a random order (drawn when the plan has none) */
	double t_first_client_ms;
	/* how long each setup step took (ms), in order */
	struct {
		const char *name;
		double ms;
	} steps[16];
	int nsteps;
	/* per run, the sysctls as read back (for env.json) */
	struct sysctl_set *run_sysctls;
	char **run_mounts; /* per run: the /fs/ lines of /proc/mounts of its first iteration */
	struct scratch_state scratch;
	int *run_failed; /* per run: iterations not ok */
	int *run_served; /* per run: the server host's last iteration served */
	struct cluster_state cluster;
};

/*
 * PID 1 and the runner (supervise.c). PID 1 does the mounts, the console, reaping and the
 * power-off; the runner, its child, does everything else. This page is shared between them
 * and outlives the runner, so PID 1 knows after a crash where it happened and how to end.
 */
struct init_shared {
	char step[64]; /* the step the runner is in: plan, modules, net, ..., run-N, finish */
	char run[256]; /* in run-N: the run id, and the iteration of that run */
	int iter;
	int poweroff, reboot, debug; /* how to end the boot (the plan's and command line's) */
	int boot_end;                /* boot-end was printed: everything is written */
};
extern struct init_shared *init_shared;
/* Map the shared page (before the fork); 0 or -errno (then PID 1 sees nothing). */
int init_shared_map(void);
/* benchboot.debug.crash=STEP from the kernel command line (init_step crashes there). */
void init_crash_switch(const char *cmdline);
/* Crash on purpose when benchboot.debug.crash= names `name` (init_step's check, for a process
 * that has no step of its own: the results writer's writer-N). */
void init_crash_point(const char *name);
/* 1 when benchboot.debug.crash= names `name` (a switch other than a crash: writer-hang-N). */
int init_debug_switch_is(const char *name);
/* The runner enters step (run and iter: the iteration, in run-N steps; else NULL, 0). */
void init_step(const char *step, const char *run, int iter);
/* The machine line PID 1 prints for a runner that ended with wait status `status` without
 * finishing the boot (`init-crash signal=N step=S ...`, no prefix): 1, or 0 when it finished. */
int init_crash_line(const struct init_shared *s, int status, char *buf, size_t len);
/* Everything but PID 1's part (runner.c); returns when the boot's results are written. */
void runner_main(struct boot *b);

/* Two-host plans (cluster.c). After the plan is read: the role (benchboot.role=), this host's
 * NIC and address from its cluster.host entry (unless the command line names them), the
 * `cluster` line. Nothing for a one-host plan. */
void cluster_resolve(struct boot *b);
/* After the boot's setup: meet the other host (client: connect; server: accept), hello, the
 * server's env.json. The `peer` line says how it went. */
void cluster_meet(struct boot *b);
/* Why the iterations fail at once (role unresolved, the other host missing or gone), or NULL. */
const char *cluster_down(const struct boot *b);
/* Client host: ask the server host to start an iteration (warmup K > 0: the boot's K-th
 * warm-up, iter 0; monitored K > 0: the run's K-th monitored iteration, iter 0). 0 (its servers are
 * ready), 1 (it could not: reason), -1 (it is gone: reason; cluster_down() says so from now on).
 * The server's sysctls as read back go to peer (malloc'd entries). */
int cluster_iter_start(struct boot *b, const struct bb_plan_run *run, int iter, int warmup,
                       int monitored, int pos, int positions, struct sysctl_set *peer, char *reason,
                       size_t len);
/* Client host: the clients are done (status/reason: the client side); the server's side of
 * the iteration into pstatus/preason. 0, 1 (the server side failed), -1 (gone). */
int cluster_iter_end(struct boot *b, const char *status, const char *reason, char *pstatus,
                     size_t pslen, char *preason, size_t prlen);
/* Client host: the matrix is over (the server host then ends its boot). */
void cluster_done(struct boot *b, int ok, int failed);
/* Server host: serve the iterations the client host asks for until it says done or is gone;
 * then the iterations not served fail with the reason. `serve` runs one iteration (the
 * runner passes run_iteration: the protocol knows nothing of how a run is run). */
typedef void cluster_iteration_fn(struct boot *b, size_t runidx, int iter, int warmup,
                                  int monitored);
void cluster_serve(struct boot *b, cluster_iteration_fn *serve);
/* Server host, inside an iteration (run.c): answer `start` (its sysctls as read back, its
 * status), then wait for the client's `end` (bounded by runtime + grace + margin). 0, or -1
 * (gone: reason). The client's status of the iteration into pstatus/preason. */
int cluster_serve_started(struct boot *b, const struct sysctl_set *sysctls, const char *status,
                          const char *reason);
int cluster_serve_wait_end(struct boot *b, const struct bb_plan_run *run, char *pstatus,
                           size_t pslen, char *preason, size_t prlen);
/* Server host: the iteration is written: answer `end`. */
void cluster_serve_ended(struct boot *b, const char *status, const char *reason);
struct ijw;

/* One iteration of plan run i (run.c); warmup K > 0: the boot's K-th warm-up (iter 0);
 * monitored K > 0: the run's K-th monitored iteration (iter 0). */
void run_iteration(struct boot *b, size_t runidx, int iter, int warmup, int monitored);
/* Run every iteration of plan run i (run.c). */
void run_one(struct boot *b, size_t i);
/* Every iteration of the plan, in the plan's order (interleaved, random or blocked). */
void run_sequence(struct boot *b);
/* Reap every exited child; pids not ours are orphans (run_wait.c). */
void run_reap(void);
/* Write env.json into the results dir (env.c). */
int env_write(const struct boot *b);
/* env.json "cluster": this host's part of a two-host plan (docs/cluster.md), null for a
 * one-host plan. */
void env_cluster_json(struct ijw *w, const struct boot *b);

/* Online CPUs from /sys/devices/system/cpu/online (fallback: sysconf). */
unsigned init_online_cpus(char *list, size_t len);

#endif
