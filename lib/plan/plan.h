/*
 * The plan (docs/plan.md, format version 1): what the host tells the init. A strict parser that
 * reports `plan:LINE: message`, and the kernel command line overrides (`benchboot.KEY=VALUE`).
 */
#ifndef BENCHBOOT_PLAN_H
#define BENCHBOOT_PLAN_H

#include <stddef.h>

#include "strv.h"

#define BB_PLAN_VERSION 1

struct bb_plan_server {
	struct bb_strv argv;
	char *ready; /* "tcp:ADDR:PORT" or NULL */
	char *cpus;  /* CPU list or NULL */
};

/* hybrid: v1's controller hierarchies plus cgroup2 at /sys/fs/cgroup/unified without
 * controllers, as systemd's hybrid mode mounts them */
enum bb_cgroup_mode { BB_CGROUP_V2, BB_CGROUP_V1, BB_CGROUP_NONE, BB_CGROUP_HYBRID };

/* The order of the iterations within a boot (docs/plan.md, "Run order"). */
enum bb_order { BB_ORDER_INTERLEAVED, BB_ORDER_RANDOM, BB_ORDER_BLOCKED };

struct bb_plan_run {
	char *id;
	int line; /* of its [run] header */
	char *suite;
	struct bb_kvs params;
	int iterations;
	double runtime, grace;
	struct bb_strv needs_modules;
	struct bb_kvs sysctls;
	struct bb_plan_server *servers;
	size_t nservers, servers_cap;
	struct bb_strv client_argv;
	/* the monitored iterations' own length and client command (monitored.runtime,
	 * monitored.client.arg: a job's monitored_runtime); 0 and empty: runtime and client_argv */
	double monitored_runtime;
	struct bb_strv monitored_argv;
	int client_count;   /* when client_percent < 0 */
	int client_percent; /* -1: client_count is a number */
	char *client_cpus;
	/* fs: the filesystem made on every scratch device before each iteration (fs.mkfs.arg: its
	 * mkfs command without the device) and mounted at /fs/NAME with options fs.mount;
	 * NULL: none */
	char *fs;
	struct bb_strv fs_mkfs;
	char *fs_mount;
};

/* Two-host jobs (docs/cluster.md): the roles of the hosts of a cluster. */
enum bb_role { BB_ROLE_NONE, BB_ROLE_SERVER, BB_ROLE_CLIENT };
#define BB_CLUSTER_HOSTS 2
#define BB_CLUSTER_PORT 12870
#define BB_CLUSTER_WAIT 120
#define BB_MONITORED_DEFAULT 1 /* monitored iterations of each run, kept apart */
/* a monitored iteration's length when the job gives no monitored_runtime (and the run is
 * longer): LKP's perf-profile window, 10 s from half the runtime, fits with room to spare
 * (docs/jobs.md, "The monitored iteration's length") */
#define BB_MONITORED_RUNTIME_DEFAULT 30
#define BB_RESULTS_TIMEOUT 120 /* results.timeout: default */

/* cluster.host.N.*: one host of a two-host plan */
struct bb_plan_host {
	char *name;
	enum bb_role role;
	char *address; /* IPv4 "ADDR/PREFIX" on the test network */
	char *nic;     /* interface name, or MAC (lowercase); NULL: eth0 */
};

struct bb_plan {
	char *job, *digest, *boot_params;
	int boot_group;
	enum bb_cgroup_mode cgroup_mode;
	struct bb_strv cgroup_controllers;
	struct bb_kvs cgroup_limits; /* FILE -> value */
	/* the job cgroup's path below each hierarchy's root, without the leading '/':
	 * "benchboot" by default, "system.slice/lkp-bootstrap.service" for a rootfs's
	 * systemd layout */
	char *cgroup_path;
	struct bb_strv job_sets; /* job.set: the --set KEY=VALUE overrides of the job */
	char *cpufreq_governor;  /* NULL: leave alone */
	/* "ADDR/PREFIX"; default 192.0.2.1/24, or 192.0.2.2/24 on the client host of a two-host
	 * plan (the two hosts' dummy addresses must differ: SCTP tells its peer every local
	 * address, and a peer "at" one of its own addresses aborts the association) */
	char *net_dummy;
	int net_dummy_given; /* net.dummy came from the plan or the command line */
	/* net.nic.*: a real NIC (docs/plan.md); nic_name NULL: none */
	char *nic_name; /* interface name, or MAC address (lowercase xx:xx:xx:xx:xx:xx) */
	struct bb_strv nic_address; /* "ADDR/PREFIX", IPv4 or IPv6 */
	struct bb_strv nic_gateway; /* default routes: at most one IPv4 and one IPv6 gateway */
	int nic_mtu;                /* 0: leave alone */
	int nic_wait;               /* seconds to wait for the interface and its carrier */
	struct bb_strv modules_boot;
	struct bb_kvs module_params; /* modules.params.NAME: NAME -> "rd_nr=1 rd_size=..." */
	/* disk.devices: the scratch block devices (LKP's disk:, docs/jobs.md "Disks and
	 * filesystems"), mkfs'd for the runs that name a filesystem; disk.description: LKP's
	 * disk_description (1brd) */
	struct bb_strv disk_devices;
	char *disk_description;
	/* disk.vm: the disks a VM host attaches for disk.devices ("nvme" or "hdd", NULL: none),
	 * each of disk_vm_bytes (sparse files of the run) */
	char *disk_vm;
	unsigned long long disk_vm_bytes;
	struct bb_strv
	    monitors;         /* LKP monitors run in every iteration (lib/parse/parse_monitor.h) */
	int monitors_cmdline; /* the list came from benchboot.monitors= (run --monitors) */
	struct bb_kvs monitor_options; /* monitor.NAME.OPTION=VALUE: "NAME.OPTION" -> VALUE */
	int console_lava, poweroff;
	int results_wait; /* seconds to wait for a results disk to appear (USB sticks), 0: none */
	int results_timeout; /* seconds the runner waits for one answer of the results writer */
	enum bb_order order; /* default interleaved: A1 B1 A2 B2 ... */
	unsigned long order_seed; /* random: the seed, when order_seed_set */
	int order_seed_set;       /* 0: the init draws one (and records it) */
	/* the boot's turn of the run order, 0..: the runs' order in the sequence starts at run
	 * order_rotate mod nruns (benchboot run gives boot round k the value k, so every run
	 * comes first equally often across boots; docs/plan.md "Run order") */
	int order_rotate;
	int warmup; /* iterations of the boot's first run before the measured ones, kept apart */
	/* iterations of each run with the monitors, after the measured ones and kept apart
	 * (runs/RUNID/monitored-K; the measured iterations then run without monitors: the
	 * monitors cost throughput, docs/compare.md "What the monitors cost"); 0: the monitors in
	 * every measured iteration, as LKP runs them. Default BB_MONITORED_DEFAULT */
	int monitored;
	int debug;  /* command line only: benchboot.debug=1 */
	int reboot; /* command line only: benchboot.reboot=1 (reboot instead of power off) */
	/* command line only: benchboot.debug.crash=STEP, the runner crashes on purpose when it
	 * enters STEP (docs/console.md; for testing the init-crash path) */
	char *debug_crash;
	/* cluster=NAME: a two-host plan (cluster NULL: one host, the rest unused) */
	char *cluster;
	int cluster_port; /* the init-to-init control port, default 12870 */
	int cluster_wait; /* seconds each side waits for the other at the start, default 120 */
	struct bb_plan_host hosts[BB_CLUSTER_HOSTS];
	enum bb_role role; /* command line only: benchboot.role=server|client */
	struct bb_plan_run *runs;
	size_t nruns, runs_cap;
};

/* Parse a whole plan. 0, or -EINVAL with `plan:LINE: message` in err (-ENOMEM likewise). On
 * error the plan is freed. */
int bb_plan_parse(const char *text, size_t len, struct bb_plan *plan, char *err, size_t errlen);

/* Every key the plan parser knows, from its tables, for the documentation check
 * (tests/host/docs-contracts.sh): each(KIND, NAME, FIELD, ARG) with KIND "key" (a whole key),
 * "prefix" (the keys that begin with NAME) or "field" (NAME is a prefix, FIELD a field that
 * follows it and a number: cluster.host.N.FIELD, server.N.FIELD). */
void bb_plan_each_key(void (*each)(const char *kind, const char *name, const char *field,
                                   void *arg),
                      void *arg);

/*
 * Apply the `benchboot.KEY=VALUE` words of a kernel command line to a parsed plan: KEY is one of
 * the global keys of docs/plan.md, or `debug` or `reboot`. Bad values and unknown benchboot.* keys
 * are not applied; each is reported as one line `cmdline: benchboot.KEY: message` in report (joined
 * by newlines). Returns the number of problems reported.
 */
int bb_plan_cmdline(struct bb_plan *plan, const char *cmdline, char *report, size_t reportlen);

/* A monitor's option (plan key monitor.NAME.OPTION, docs/plan.md), or NULL when not set. */
const char *bb_plan_monitor_option(const struct bb_plan *plan, const char *name,
                                   const char *option);

/* Clients of a run on a machine with ncpu online CPUs: N, or P% rounded down (LKP's
 * nr_threads: 0 when P% of ncpu is below one; the init then drops the run). */
int bb_plan_clients(const struct bb_plan_run *run, unsigned ncpu);

const char *bb_cgroup_mode_name(enum bb_cgroup_mode m);
/* The job cgroup's path without the leading '/': cgroup.path, or "benchboot". */
const char *bb_plan_cgroup_path(const struct bb_plan *p);
const char *bb_order_name(enum bb_order o);
/* "server", "client", or "none". */
const char *bb_role_name(enum bb_role r);
/* The host entry of a two-host plan with role r, or NULL (one-host plan, or no such host). */
const struct bb_plan_host *bb_plan_host_of(const struct bb_plan *plan, enum bb_role r);

/* One iteration of the boot's sequence: plan run index and its iteration number (1-based). */
struct bb_plan_step {
	size_t run;
	int iter;
};
/*
 * Every iteration of the plan in the order the boot runs them (plan->order; random: shuffled
 * with seed, each run's iterations still numbered 1, 2, ... in the order they come). *out is
 * malloc'd (NULL when there are none). 0 or -ENOMEM.
 */
int bb_plan_sequence(const struct bb_plan *plan, unsigned long seed, struct bb_plan_step **out,
                     size_t *n);
/* Is s a MAC address xx:xx:xx:xx:xx:xx (hex digits, either case)? */
int bb_plan_is_mac(const char *s);
/* Split "ADDR/PREFIX" (IPv4 or IPv6); returns AF_INET or AF_INET6, or 0 when malformed. */
int bb_plan_addr_prefix(const char *s, char *addr, size_t addrlen, int *prefix);
void bb_plan_free(struct bb_plan *plan);

#endif
