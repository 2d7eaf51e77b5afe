/* The TCG oversubscription warning of `benchboot run` (lib/host/run/vcpus.c): both sides of
 * the threshold, a two-host job's two VMs counted together, KVM and an unknown host never
 * warned about, and the advice (fewer vCPUs only when fewer would do). */
#include "harness.h"
#include "host/run/vcpus.h"

/* accel, vCPUs a VM (0: the default 2), VMs at once, host CPUs -> vCPUs, oversubscribed */
static const struct {
	enum bb_accel accel;
	int cpus, vms, host, vcpus, over;
} cases[] = {
    /* one host: the default 2 vCPUs crowd 2 CPUs (and 1), not 3 */
    {BB_ACCEL_TCG, 0, 1, 2, 2, 1},
    {BB_ACCEL_TCG, 0, 1, 1, 2, 1},
    {BB_ACCEL_TCG, 0, 1, 3, 2, 0},
    {BB_ACCEL_TCG, 1, 1, 2, 1, 0},
    {BB_ACCEL_TCG, 4, 1, 4, 4, 1},
    {BB_ACCEL_TCG, 4, 1, 5, 4, 0},
    /* two hosts: both VMs count, so 4 CPUs are crowded where one VM would not be */
    {BB_ACCEL_TCG, 2, 2, 4, 4, 1},
    {BB_ACCEL_TCG, 2, 1, 4, 2, 0},
    {BB_ACCEL_TCG, 2, 2, 3, 4, 1},
    {BB_ACCEL_TCG, 2, 2, 5, 4, 0},
    {BB_ACCEL_TCG, 1, 2, 2, 2, 1},
    /* KVM: a vCPU is not such a thread; an unknown host: nothing to say */
    {BB_ACCEL_KVM, 2, 2, 2, 4, 0},
    {BB_ACCEL_KVM, 8, 1, 1, 8, 0},
    {BB_ACCEL_TCG, 2, 1, 0, 2, 0},
    {BB_ACCEL_TCG, 2, 1, -1, 2, 0},
};

TEST(vcpus_threshold)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bb_vcpu_load l =
		    bb_vcpu_load(cases[i].accel, cases[i].cpus, cases[i].vms, cases[i].host);
		if (l.vcpus != cases[i].vcpus || l.oversubscribed != cases[i].over ||
		    l.host_cpus != (cases[i].host > 0 ? cases[i].host : 0))
			bb_test_fail(
			    __FILE__, __LINE__,
			    "case %zu: %d vCPUs, oversubscribed %d, host %d; expected %d, %d", i,
			    l.vcpus, l.oversubscribed, l.host_cpus, cases[i].vcpus, cases[i].over);
	}
}

TEST(vcpus_host_cpus_is_sysconf)
{
	char *out = NULL;
	CHECK_INT(test_run("getconf _NPROCESSORS_ONLN", &out), ==, 0);
	CHECK_INT(bb_host_cpus(), ==, atoi(out));
	CHECK_INT(bb_host_cpus(), >=, 1);
	free(out);
}

TEST(vcpus_warning_text)
{
	char line[1024];
	struct bb_vcpu_load l = bb_vcpu_load(BB_ACCEL_TCG, 0, 1, 2);
	bb_vcpu_warning(&l, line, sizeof(line));
	CHECK_STR(line, "warning: 2 vCPUs under TCG on a host with 2 CPUs: each vCPU is a host "
	                "thread competing with QEMU's own, so iterations vary far more than the "
	                "kernel does (414 to 1003 Mbps of netperf in one boot, 2 vCPUs on 2 "
	                "CPUs); use --cpus 1, a host with more CPUs, or KVM");
	/* two VMs: said so; on 4 CPUs 1 vCPU each leaves a CPU free */
	l = bb_vcpu_load(BB_ACCEL_TCG, 2, 2, 4);
	bb_vcpu_warning(&l, line, sizeof(line));
	CHECK(
	    !strncmp(line, "warning: 4 vCPUs (2 VMs of 2) under TCG on a host with 4 CPUs: ", 62));
	CHECK(strstr(line, "; use --cpus 1, a host with more CPUs, or KVM") != NULL);
	/* 1 vCPU each already, or a 1-CPU host: fewer vCPUs would not do, not advised */
	l = bb_vcpu_load(BB_ACCEL_TCG, 1, 2, 2);
	bb_vcpu_warning(&l, line, sizeof(line));
	CHECK(strstr(line, "warning: 2 vCPUs (2 VMs of 1) under TCG on a host with 2 CPUs") ==
	      line);
	CHECK(strstr(line, "; use a host with more CPUs, or KVM") != NULL);
	CHECK(strstr(line, "--cpus") == NULL);
	l = bb_vcpu_load(BB_ACCEL_TCG, 1, 1, 1);
	bb_vcpu_warning(&l, line, sizeof(line));
	CHECK(strstr(line, "warning: 1 vCPU under TCG on a host with 1 CPU: ") == line);
	CHECK(strstr(line, "--cpus") == NULL);
	/* 8 vCPUs on 8 CPUs: 7 would leave one free */
	l = bb_vcpu_load(BB_ACCEL_TCG, 8, 1, 8);
	bb_vcpu_warning(&l, line, sizeof(line));
	CHECK(strstr(line, "; use --cpus 7, a host with more CPUs, or KVM") != NULL);
}

TEST(vcpus_shape_for_deciding_boots)
{
	char line[1024];
	/* one VM of the default 2 vCPUs on a 2-CPU TCG host: 1 vCPU, said */
	CHECK_INT(bb_vcpu_shape(BB_ACCEL_TCG, 1, 2, line, sizeof(line)), ==, 1);
	CHECK_STR(line, "VM shape: 1 vCPU per VM, not 2: 1 VM of 2 vCPUs under TCG would crowd "
	                "this 2-CPU host, and a crowded host moves single iterations by up to 2x, "
	                "more than the changes these boots decide on (--cpus N chooses)");
	/* two at once on 2 CPUs: still 1 each (nothing smaller) */
	CHECK_INT(bb_vcpu_shape(BB_ACCEL_TCG, 2, 2, line, sizeof(line)), ==, 1);
	CHECK(strstr(line, "2 VMs of 2 vCPUs") != NULL);
	/* room enough: the default; KVM or an unknown host: the default, nothing said */
	CHECK_INT(bb_vcpu_shape(BB_ACCEL_TCG, 1, 4, line, sizeof(line)), ==, 0);
	CHECK_STR(line, "");
	CHECK_INT(bb_vcpu_shape(BB_ACCEL_TCG, 2, 8, line, sizeof(line)), ==, 0);
	CHECK_INT(bb_vcpu_shape(BB_ACCEL_KVM, 1, 2, line, sizeof(line)), ==, 0);
	CHECK_INT(bb_vcpu_shape(BB_ACCEL_TCG, 1, 0, line, sizeof(line)), ==, 0);
	/* 2 VMs on 4 CPUs: 4 vCPUs would crowd it, 1 each leaves room */
	CHECK_INT(bb_vcpu_shape(BB_ACCEL_TCG, 2, 4, line, sizeof(line)), ==, 1);
}
