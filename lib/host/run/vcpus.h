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

#endif
