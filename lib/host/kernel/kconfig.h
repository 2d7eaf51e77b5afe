/*
 * The kernel configuration a job needs (docs/kernel.md): a fragment of CONFIG_ lines that
 * benchboot appends to a base configuration (the user's, or defconfig) before `make
 * olddefconfig`. It has what every benchboot boot needs (initramfs, serial console, virtio
 * block and PCI, devtmpfs, modules) and what the job's plans name: the cgroup hierarchy and
 * its controllers, the cpufreq governor, a virtio NIC, the monitors' kernel features (perf
 * events, sched_debug, lock_stat), the sysctls the runs write that exist only with a CONFIG
 * symbol (kernel.sched_autogroup_enabled, fs.mqueue.*, net.ipv6.*, ...), and the job's modules,
 * whose CONFIG symbols are found in the tree's Makefiles (obj-$(CONFIG_X) += NAME.o) and Kconfig
 * (tristate: =m, bool: =y). Host only.
 */
#ifndef BENCHBOOT_HOST_KERNEL_KCONFIG_H
#define BENCHBOOT_HOST_KERNEL_KCONFIG_H

#include <stddef.h>

#include "plan/plan.h"
#include "strv.h"

/* What the plans of a job ask of the kernel (the union over its boots). */
struct bb_kneeds {
	int cgroup;                 /* a cgroup hierarchy is mounted */
	struct bb_strv controllers; /* cgroup controllers named or limited */
	struct bb_strv governors;   /* cpufreq governors */
	struct bb_strv modules;     /* the job's modules (modules.boot and the runs' needs) */
	struct bb_strv monitors;    /* monitors with kernel features of their own */
	struct bb_strv sysctls;     /* sysctls (names or prefixes) that need a CONFIG symbol */
	int nic;                    /* a NIC: virtio-net */
};

/* Add what plan p needs to n. 0 or -ENOMEM. */
int bb_kneeds_add_plan(struct bb_kneeds *n, const struct bb_plan *p);
void bb_kneeds_free(struct bb_kneeds *n);

/*
 * Where module name (dashes and underscores alike) is built in tree: its CONFIG symbol
 * (without CONFIG_), the Makefile that says so (relative to tree) and its type ('m' tristate,
 * 'y' bool). 0, or -ENOENT when no Makefile of tree builds NAME.o under a CONFIG symbol.
 */
struct bb_kmodsym {
	char symbol[128];
	char makefile[512];
	char value; /* 'm' or 'y' */
};
int bb_kconfig_module_symbol(const char *tree, const char *module, struct bb_kmodsym *out);

/*
 * The fragment for n, as text (CONFIG_X=V lines, each group after a '#' line that says why).
 * tree NULL: the modules are listed in a comment, unresolved (the tree tells their symbols);
 * else each is resolved in tree, and one that is not found is a comment that says so (and
 * in *unresolved, which may be NULL). 0 or -ENOMEM; free(*text).
 */
int bb_kconfig_fragment(const struct bb_kneeds *n, const char *tree, char **text,
                        struct bb_strv *unresolved);

/*
 * Check a built .config (text) against the fragment: every CONFIG_X=V line of the fragment
 * that the .config does not have with that value is added to missing as "CONFIG_X=V (the
 * .config has: CONFIG_X=W | is not set | lacks it)". 0 or -ENOMEM.
 */
int bb_kconfig_check(const char *fragment, const char *config, struct bb_strv *missing);

#endif
