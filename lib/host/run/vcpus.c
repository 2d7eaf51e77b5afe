/* vCPUs against the host's CPUs under TCG; see vcpus.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/run/vcpus.h"
#include "host/size.h"

struct bb_vcpu_load bb_vcpu_load(enum bb_accel accel, int cpus, int vms, int host_cpus)
{
	struct bb_vcpu_load l = {.host_cpus = host_cpus > 0 ? host_cpus : 0,
	                         .vms = vms > 0 ? vms : 1,
	                         .cpus = cpus > 0 ? cpus : BB_QEMU_DEFAULT_CPUS};
	l.vcpus = l.vms * l.cpus;
	l.oversubscribed = accel == BB_ACCEL_TCG && l.host_cpus && l.vcpus >= l.host_cpus;
	return l;
}

int bb_host_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 && n < 1 << 20 ? (int)n : 0;
}

void bb_vcpu_warning(const struct bb_vcpu_load *l, char *buf, size_t len)
{
	char vms[64] = "", fewer[64] = "";
	/* the most vCPUs per VM that leave the host a CPU for QEMU's own threads */
	int fit = (l->host_cpus - 1) / l->vms;
	if (l->vms > 1)
		snprintf(vms, sizeof(vms), " (%d VMs of %d)", l->vms, l->cpus);
	if (fit >= 1 && fit < l->cpus)
		snprintf(fewer, sizeof(fewer), "--cpus %d, ", fit);
	snprintf(buf, len,
	         "warning: %d vCPU%s%s under TCG on a host with %d CPU%s: each vCPU is a host "
	         "thread competing with QEMU's own, so iterations vary far more than the kernel "
	         "does (414 to 1003 Mbps of netperf in one boot, 2 vCPUs on 2 CPUs); use %sa host "
	         "with more CPUs, or KVM",
	         l->vcpus, l->vcpus == 1 ? "" : "s", vms, l->host_cpus,
	         l->host_cpus == 1 ? "" : "s", fewer);
}

int bb_vcpu_shape(enum bb_accel accel, int vms, int host_cpus, char *buf, size_t len)
{
	struct bb_vcpu_load l = bb_vcpu_load(accel, 0, vms, host_cpus);
	buf[0] = 0;
	if (!l.oversubscribed)
		return 0;
	int fit = (l.host_cpus - 1) / l.vms;
	int cpus = fit < 1 ? 1 : fit;
	if (cpus >= l.cpus)
		return 0;
	snprintf(buf, len,
	         "VM shape: %d vCPU%s per VM, not %d: %d VM%s of %d vCPUs under TCG would crowd "
	         "this %d-CPU host, and a crowded host moves single iterations by up to 2x, "
	         "more than the changes these boots decide on (--cpus N chooses)",
	         cpus, cpus == 1 ? "" : "s", l.cpus, l.vms, l.vms == 1 ? "" : "s", l.cpus,
	         l.host_cpus);
	return cpus;
}

int bb_vcpu_clients(const char *count, int cpus, char *buf, size_t len)
{
	char *end;
	long v = strtol(count, &end, 10);
	buf[0] = 0;
	if (strcmp(end, "%"))
		return (int)v;
	long n = v * cpus / 100;
	if (n > 0 || v <= 0)
		return (int)n;
	snprintf(buf, len,
	         "nr_threads %ld%% of %d vCPU%s is 0 clients: LKP's rule drops the run (the init "
	         "fails it); --cpus %ld gives 1, or --set nr_threads=1",
	         v, cpus, cpus == 1 ? "" : "s", (100 + v - 1) / v);
	return 0;
}

int bb_vcpu_need_memory(const char *need, int cpus, int mem_mb, char *buf, size_t len)
{
	unsigned long long bytes, mb;
	size_t n = strlen(need);
	*buf = 0;
	if (n > 1 && need[n - 1] == '%') {
		char *e;
		long p = strtol(need, &e, 10);
		if (e != need + n - 1 || p <= 0) {
			snprintf(buf, len,
			         "need_memory: '%s' is not a size (4G, 300MB) or a share (100%%)",
			         need);
			return -EINVAL;
		}
		mb = (unsigned long long)cpus * (unsigned long long)p / 100 * 1024;
	} else if (bb_size_parse(need, &bytes)) {
		snprintf(buf, len, "need_memory: '%s' is not a size (4G, 300MB) or a share (100%%)",
		         need);
		return -EINVAL;
	} else {
		mb = bytes >> 20;
	}
	/* LKP compares it with `free -m`'s available: a VM of M MB has about 0.8 M once the
	 * kernel, the image in RAM and the init have theirs (measured: 1024 MB, MemTotal 983 MB,
	 * MemAvailable 815 MB in config/jobs/hackbench.yaml's monitored iteration) */
	unsigned long long avail = (unsigned long long)mem_mb * 8 / 10;
	if (mb <= avail)
		return 0;
	snprintf(
	    buf, len,
	    "need_memory %s (%llu MB) is more than a VM of %d MB has available (about %llu MB): "
	    "LKP's filter drops such a job; run with --mem %llu or more",
	    need, mb, mem_mb, avail, (mb * 10 + 7) / 8);
	return 1;
}
