/*
 * Will `benchboot run`'s numbers be noisy because its vCPUs crowd the host? Under TCG each
 * vCPU is a host thread that competes with QEMU's own threads (I/O, timers, the console), so
 * when the vCPUs that run at once (a two-host job boots both VMs together) are as many as the
 * host's online CPUs or more, the host's scheduling moves single iterations by up to 2x: on a
 * 2-CPU host, 2 vCPUs gave 414 to 1003 Mbps of netperf within one boot, 1 vCPU a spread of a
 * few % (docs/compare.md, "Harness bias"). Under KVM a vCPU is not such a thread: no warning.
 */
#ifndef BENCHBOOT_HOST_RUN_VCPUS_H
#define BENCHBOOT_HOST_RUN_VCPUS_H

#include <stddef.h>

#include "host/vm/qemu.h"

struct bb_vcpu_load {
	int host_cpus;      /* the host's online CPUs; 0: unknown (never oversubscribed) */
	int vms;            /* VMs that run at once */
	int cpus;           /* vCPUs of each */
	int vcpus;          /* vms * cpus */
	int oversubscribed; /* TCG, and vcpus >= host_cpus */
};

/* vms VMs of cpus vCPUs each (cpus <= 0: BB_QEMU_DEFAULT_CPUS) under accel, on a host with
 * host_cpus online CPUs. */
struct bb_vcpu_load bb_vcpu_load(enum bb_accel accel, int cpus, int vms, int host_cpus);

/* The host's online CPUs (sysconf _SC_NPROCESSORS_ONLN), 0 when unknown. */
int bb_host_cpus(void);

/* The warning for an oversubscribed load, one line starting "warning: ": what, why and what to
 * do (fewer vCPUs, when fewer would do, a host with more CPUs, or KVM). */
void bb_vcpu_warning(const struct bb_vcpu_load *l, char *buf, size_t len);

/*
 * The vCPUs per VM for boots that decide (bisect, run --until, run --parallel) when the user
 * gave no --cpus: under TCG, the most (up to BB_QEMU_DEFAULT_CPUS) that leave the host a CPU for
 * QEMU's own threads with vms VMs at once, at least 1; the line that says so into buf. 0 (and
 * buf empty) when the default fits, under KVM, or when the host's CPUs are unknown. Measured
 * here: bisect over six kernels with a -33% cost at 2 vCPUs on a 2-CPU TCG host ended with no
 * culprit after 1,041 s; at 1 vCPU it named the right kernel (docs/bisect.md).
 */
int bb_vcpu_shape(enum bb_accel accel, int vms, int host_cpus, char *buf, size_t len);

/*
 * LKP's rule for a share of the CPUs (nr_threads: P%): floor(P x cpus / 100) clients, and a
 * run with 0 is dropped (the init fails it with the reason). The clients of a client count
 * text ("N" or "P%") at cpus vCPUs; when that is 0, the sentence that says so and the way out
 * (the fewest vCPUs that give one client, or --set nr_threads=1) into buf, else buf empty.
 */
int bb_vcpu_clients(const char *count, int cpus, char *buf, size_t len);

/*
 * LKP's need_memory (filters/need_memory: the box's available memory must hold it, else the
 * job is removed): "4G", "300MB", or "P%" (P% of cpus GB). When it is more than a VM of mem_mb
 * MB can hold, the sentence that says so and the way out (--mem) into buf and 1; 0 when it
 * fits (buf empty); -EINVAL when need is not a size (buf says so).
 */
int bb_vcpu_need_memory(const char *need, int cpus, int mem_mb, char *buf, size_t len);

#endif
