/*
 * The keys of LKP jobs that benchboot knows and does not act on: it records them with the
 * results (parameters "lkp.KEY") and `benchboot check` lists them. The names are those of
 * LKP's programs (programs/NAME/{monitor,setup,daemon}), the queue options and host facts a
 * 0-day job.yaml attachment carries, and the variables LKP's own job files set.
 */
#include <stdlib.h>
#include <string.h>

#include "host/job/lkpkeys.h"
#include "host/job/lkpnames.h"

static const char *const queue_keys[] = {
    "category", "queue", "testbox", "tbox_group", "branch", "commit", "head_commit", "base_commit",
    "repeat_to", "job_file", "id", "queuer_version", "queue_cmdline_keys",
    /* 0-day's scheduler: run the job once at least */
    "queue_at_least_once", "job_origin", "arch", "node_roles", "rootfs", "kconfig", "compiler",
    "_rt", "kernel", "result_root", "user", "scheduler_version", "max_uptime", "initrd",
    "bootloader_append", "modules_initrd", "bm_initrd", "ucode_initrd", "lkp_initrd", "job_initrd",
    "site", "LKP_SERVER", "LKP_CGI_PORT", "LKP_CIFS_PORT", "result_service", "avoid_nfs",
    "enqueue_time", "dequeue_time", "job_state", "loadavg", "start_time", "end_time", "last_kernel",
    "force_reboot", "kernel_cmdline_hw", "need_kconfig", "need_memory", "need_cpu", "need_cpuid",
    "need_x", "need_node", "need_kernel_version", "samples", "testbox_group", "submit_id", "lab",
    "os", "os_arch", "os_version", "docker_image", "upstream_repo", "upstream_commit",
    "upstream_dir", "_id", "version", "bisect_dmesg", "schedule_notify_address",
    "kbuild_queue_analysis", "mail_to", "mail_cc", "constraints", "stats_part_begin",
    "stats_part_end", "need_kconfig_hw", "need_cpu_model", NULL};

static const char *const host_keys[] = {"model",           "nr_node",           "nr_cpu",
                                        "memory",          "nr_ssd_partitions", "nr_hdd_partitions",
                                        "hdd_partitions",  "ssd_partitions",    "rootfs_partition",
                                        "swap_partitions", "partitions",        "brand",
                                        "ucode",           "nr_sockets",        "mac_addr",
                                        "cpu_info",        "nr_partitions",     NULL};

static const char *const monitors[] = {"blktrace",
                                       "bpfcc-tools",
                                       "bpftrace",
                                       "buddyinfo",
                                       "cat-proc-pid",
                                       "cpufreq-stats",
                                       "cpuidle",
                                       "cpuonline",
                                       "custom-monitor",
                                       "debug-monitor",
                                       "diskstats",
                                       "energy",
                                       "ethtool",
                                       "ftrace-event",
                                       "ftrace-funcgraph",
                                       "ftrace",
                                       "grep_cpuidle",
                                       "heartbeat",
                                       "interrupts",
                                       "iostat",
                                       "irq_exception_noise",
                                       "irq_noise",
                                       "kmemleak",
                                       "kmsg",
                                       "kthread_noise",
                                       "kvm",
                                       "lock_stat",
                                       "mdstat",
                                       "meminfo",
                                       "memory--numa_stat",
                                       "memory--stat",
                                       "mountstats",
                                       "mpstat",
                                       "nfs-hang",
                                       "nfsstat",
                                       "numa-meminfo",
                                       "numa-numastat",
                                       "numa-vmstat",
                                       "oom-killer",
                                       "pagetypeinfo",
                                       "perf-node",
                                       "perf-probe",
                                       "perf-record-report",
                                       "perf-sched",
                                       "perf-stat",
                                       "pmeter",
                                       "pmu-tools",
                                       "proc-stat",
                                       "proc-vmstat",
                                       "save_on_exit",
                                       "sched_debug",
                                       "slabinfo",
                                       "softirqs",
                                       "stack",
                                       "syscalls",
                                       "thermal",
                                       "top",
                                       "toplev",
                                       "turbostat",
                                       "uptime",
                                       "vmstat",
                                       "zoneinfo",
                                       "boot-time",
                                       "cat-file",
                                       "perf-c2c",
                                       "perf-mem",
                                       "perf-profile",
                                       "perf-pt",
                                       "perf-report-srcline",
                                       "sar",
                                       "trace-cmd",
                                       "wait",
                                       "watchdog",
                                       "bdi_dev_mapping",
                                       "boot-meminfo",
                                       "boot-slabinfo",
                                       "cpuid-raw",
                                       "cpuid",
                                       "dmidecode",
                                       "latency_stats",
                                       "fdisk",
                                       "find",
                                       "get-node-memory-info",
                                       "hwinfo",
                                       "inxi",
                                       "ls-disks",
                                       "lsblk",
                                       "lscpu",
                                       "lspci",
                                       "lsusb",
                                       "memmap",
                                       "numainfo",
                                       NULL};

/* setups benchboot does not implement (cgroup, cgroup2, cpufreq_governor, sysctl,
 * net-buffer, disk, fs and fs2 it does: fs2 by refusing what needs a server) */
static const char *const setups[] = {"acpi_cpufreq",
                                     "aspm",
                                     "autonuma_migration",
                                     "block_queue",
                                     "boot_params",
                                     "build-perf",
                                     "chrt",
                                     "cooling_device",
                                     "cpufreq",
                                     "cpuidle_cstate",
                                     "cpuoffline",
                                     "damon-reclaim",
                                     "daxctl",
                                     "debug-setup",
                                     "debug_vmlinux",
                                     "device-dax",
                                     "dirty_thresh",
                                     "drop_caches",
                                     "eatmem",
                                     "eatmem2",
                                     "edk2",
                                     "env",
                                     "filebench-setup",
                                     "fio-setup-basic",
                                     "fragment",
                                     "fs1",
                                     "fuse",
                                     "intel_powerclamp",
                                     "intel_pstate",
                                     "iosched",
                                     "kbuild",
                                     "linkbench",
                                     "md",
                                     "memcached-setup",
                                     "memory-hotplug",
                                     "migratepages",
                                     "migration_path",
                                     "msr",
                                     "mysql-setup",
                                     "nic",
                                     "numabalance",
                                     "numactl",
                                     "nvdimm",
                                     "oltp",
                                     "online-aep",
                                     "pepc",
                                     "pgbench-setup",
                                     "pipe_user_pages_soft",
                                     "qemu-next",
                                     "quiet-network",
                                     "ramdisk",
                                     "random_migration",
                                     "resctrl",
                                     "rocksdb",
                                     "sanity-check",
                                     "sched_domain",
                                     "sched_feature",
                                     "scsi_debug",
                                     "scsi_debug_swap",
                                     "sleep_after_boot",
                                     "stats_part",
                                     "stop_daemons",
                                     "stop_service",
                                     "swap",
                                     "swapin_setup",
                                     "swapon",
                                     "taskset",
                                     "tpcc_setup",
                                     "transparent_hugepage",
                                     "wifi-setup",
                                     "x86_energy_perf_policy",
                                     NULL};

static const char *const daemons[] = {
    "cassandra-server", "httpd",          "iperf-server",   "memcached",
    "mongodb",          "nepim-server",   "netpipe-server", "nfsd",
    "nuttcp-server",    "qperf-server",   "redis-server",   "sockperf-server",
    "tbench-server",    "thrulay-server", "uperf-server",   NULL};

/* variables LKP's own job files set that no program benchboot runs reads */
static const char *const variables[] = {"set_nic_irq_affinity", "disable_latency_stats",
                                        "time_based", "idle_time", NULL};

static int in(const char *key, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(key, *list))
			return 1;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *bb_lkp_key_kind(const char *key)
{
	if (in(key, host_keys))
		return "facts of the 0-day host, recorded only: the CPUs and memory of the machine "
		       "that boots the image are used";
	if (in(key, queue_keys))
		return "LKP queue, result and scheduling metadata";
	if (in(key, monitors))
		return "LKP monitors (benchboot records the environment its own way)";
	if (in(key, setups))
		return "LKP setups benchboot does not implement";
	if (in(key, daemons))
		return "LKP daemons of other benchmarks";
	if (in(key, variables))
		return "LKP variables no program benchboot runs reads";
	/* the names LKP's own files use (generated/lkpnames.c, from LKP's tree) */
	for (size_t i = 0; i < bb_lkp_nprograms; i++)
		if (!strcmp(key, bb_lkp_programs[i].name))
			switch (bb_lkp_programs[i].kind) {
			case BB_LKP_MONITOR:
				return "LKP monitors (benchboot records the environment its own "
				       "way)";
			case BB_LKP_SETUP:
				return "LKP setups benchboot does not implement";
			case BB_LKP_DAEMON:
				return "LKP daemons of other benchmarks";
			default:
				return "LKP programs benchboot does not run";
			}
	if (bsearch(&key, bb_lkp_options, bb_lkp_noptions, sizeof *bb_lkp_options, cmp_name))
		return "options of LKP programs benchboot does not run";
	if (bsearch(&key, bb_lkp_keys, bb_lkp_nkeys, sizeof *bb_lkp_keys, cmp_name))
		return "LKP variables no program benchboot runs reads";
	return NULL;
}
