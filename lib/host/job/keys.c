/*
 * The keys of a job file: where each may appear (its context), what parameter it sets, how its
 * value is checked (enum kind, checked in values.c; the `suite` key's check here, as it reads
 * the suites' table), with every suite's keys after the job's own. The walk of the YAML
 * (yamlwalk.c) looks keys up here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/job_internal.h"
#include "host/job/storage.h"
#include "host/job/suites/inventory.h"
#include "host/job/suites/suite.h"

/* Where a key is, as messages say it: "unknown key 'x' at the top level". */
static const char *const ctx_names[] = {
    [C_TOP] = "at the top level",
    [C_SERVER] = "in 'if role server:'",
    [C_CLIENT] = "in 'if role client:'",
    [C_CGROUP] = "in 'cgroup:'",
    [C_AFFINITY] = "in 'affinity:'",
    [C_NIC] = "in 'nic:'",
    [C_NONE] = "",
    [C_BLOCK] = "in the suite's block",
};

/* A suite benchboot runs; an LKP suite it does not run is refused with the reason
 * (suites/inventory.c), another name with the nearest suite. */
static int check_suite(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	const char *names[16];
	size_t n = 0;
	if (bb_suite_known(s))
		return 0;
	const struct bb_lkp_suite *l = bb_lkp_suite_find(s);
	if (l && l->state == BB_LKP_PACKAGED)
		return jfail(w, m,
		             "%s: LKP's suite '%s' is not run by benchboot yet: Debian packages it "
		             "(%s), and benchboot runs %s (docs/suites.md)",
		             key, s, l->package ? l->package : "?", bb_suite_names());
	if (l && l->state == BB_LKP_HARDWARE)
		return jfail(
		    w, m,
		    "%s: LKP's suite '%s' needs what benchboot's machines do not have (%s); "
		    "benchboot runs %s (docs/suites.md)",
		    key, s, l->why, bb_suite_names());
	if (l && l->state == BB_LKP_NOT_PACKAGED)
		return jfail(w, m,
		             "%s: LKP's suite '%s' cannot run here: no Debian package provides it "
		             "(%s), and benchboot fetches only through apt; benchboot runs %s "
		             "(docs/suites.md)",
		             key, s, l->why, bb_suite_names());
	for (size_t i = 0; bb_suites[i] && n + 1 < sizeof names / sizeof names[0]; i++)
		names[n++] = bb_suites[i]->name;
	names[n] = NULL;
	const char *sug = job_nearest_in(s, names);
	return jfail(w, m, "%s: unknown suite '%s'%s%s%s (benchboot runs %s)", key, s,
	             sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "",
	             bb_suite_names());
}

/* The job's own keys; each suite's follow them in the table (job_key_table). */
static const struct keydef own_keys[] = {
    {C_TOP, "suite", NULL, K_SUITE, 0, BB_LEVEL_JOB, C_NONE, NULL, check_suite},
    {C_TOP, "testcase", "suite", K_SUITE, 0, BB_LEVEL_JOB, C_NONE, NULL, check_suite},
    {C_TOP, "cluster", NULL, K_CLUSTER, 0, BB_LEVEL_JOB, C_NONE, NULL, NULL},
    {C_TOP, "nr_threads", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "runtime", NULL, K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "testtime", "runtime", K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "iterations", NULL, K_POSINT, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "timeout", NULL, K_GRACE, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "if role server", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_SERVER, NULL, NULL},
    {C_TOP, "if role client", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_CLIENT, NULL, NULL},
    {C_TOP, "cpufreq_governor", NULL, K_GOV, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "disk", NULL, K_CHECK, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL, bb_check_disk},
    /* a machine's disks (LKP's host file keys): checked with disk (bb_check_storage_doc) */
    {C_TOP, "ssd_partitions", NULL, K_NOTE, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "hdd_partitions", NULL, K_NOTE, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "fs", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_check_fs},
    {C_TOP, "fs2", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_check_fs2},
    {C_TOP, "mkfs", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_check_mkfs},
    {C_TOP, "mount_option", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL,
     bb_check_mount_option},
    {C_TOP, "kernel_cmdline", NULL, K_CMDLINE, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "cgroup", "cgroup.mode", K_CGROUP, F_AXIS, BB_LEVEL_BOOT, C_CGROUP, NULL, NULL},
    {C_TOP, "sysctl", NULL, K_SYSCTL, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "cgroup2", "cgroup.mode", K_CGROUP2, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "net-buffer", "net-buffer", K_NETBUF, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "setup-net-buffer", "net-buffer", K_NETBUF, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_TOP, "affinity", NULL, K_SECTION, 0, BB_LEVEL_RUN, C_AFFINITY, NULL, NULL},
    {C_TOP, "nic", NULL, K_SECTION, 0, BB_LEVEL_BOOT, C_NIC, NULL, NULL},
    {C_TOP, "order", NULL, K_ORDER, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "seed", "order.seed", K_SEED, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "warmup", NULL, K_WARMUP, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "monitored", NULL, K_MONITORED, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_TOP, "monitored_runtime", NULL, K_DURATION, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_SERVER, "affinity", "affinity.server", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_CLIENT, "affinity", "affinity.client", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_CGROUP, "mode", "cgroup.mode", K_CGMODE, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_CGROUP, "controllers", "cgroup.controllers", K_CTRLS, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_CGROUP, "limits", "cgroup.limit", K_LIMITS, F_AXIS, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_AFFINITY, "server", "affinity.server", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_AFFINITY, "client", "affinity.client", K_CPULIST, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_NIC, "name", "nic.name", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_NIC, "address", "nic.address", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_NIC, "gateway", "nic.gateway", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_NIC, "mtu", "nic.mtu", K_NIC, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_NIC, "wait", "nic.wait", K_NICWAIT, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
    {C_NIC, "module", "nic.module", K_MODULES, 0, BB_LEVEL_BOOT, C_NONE, NULL, NULL},
};

/* The table: the job's own keys, then each suite's: its block's key in the job and in
 * `if role client:`, its keys (C_BLOCK placed in the suite's context, C_SUITE0 + i). Built
 * once. */
static struct keydef *table;
static size_t table_n;
static char (*suite_ctx_names)[48];

const struct keydef *job_key_table(size_t *n)
{
	size_t nsuites = 0, cap = sizeof own_keys / sizeof own_keys[0];
	while (bb_suites[nsuites]) {
		const struct bb_suite *su = bb_suites[nsuites++];
		cap += 2 + su->nkeys;
		for (size_t b = 0; su->blocks && su->blocks[b]; b++)
			cap += 2;
	}
	if (!table) {
		struct keydef *t = calloc(cap, sizeof *t);
		char(*names)[48] = calloc(nsuites ? nsuites : 1, sizeof *names);
		if (!t || !names) {
			free(t);
			free(names);
			*n = 0;
			return NULL;
		}
		size_t k = 0;
		for (size_t i = 0; i < sizeof own_keys / sizeof own_keys[0]; i++)
			t[k++] = own_keys[i];
		for (size_t s = 0; s < nsuites; s++) {
			const struct bb_suite *su = bb_suites[s];
			enum ctx c = (enum ctx)(C_SUITE0 + s);
			snprintf(names[s], sizeof names[s], "in '%s:'", su->name);
			t[k++] = (struct keydef){C_TOP,        su->name, NULL,     K_SECTION, 0,
			                         BB_LEVEL_RUN, c,        su->name, NULL};
			t[k++] = (struct keydef){C_CLIENT,     su->name, NULL,     K_SECTION, 0,
			                         BB_LEVEL_RUN, c,        su->name, NULL};
			for (size_t b = 0; su->blocks && su->blocks[b]; b++) {
				t[k++] = (struct keydef){C_TOP, su->blocks[b], NULL, K_SECTION,
				                         0,     BB_LEVEL_RUN,  c,    su->name,
				                         NULL};
				t[k++] = (struct keydef){C_CLIENT, su->blocks[b], NULL, K_SECTION,
				                         0,        BB_LEVEL_RUN,  c,    su->name,
				                         NULL};
			}
			for (size_t i = 0; i < su->nkeys; i++) {
				t[k] = su->keys[i];
				if (t[k].ctx == C_BLOCK)
					t[k].ctx = c;
				else if (!t[k].suite)
					t[k].suite = su->name;
				k++;
			}
		}
		table = t;
		table_n = k;
		suite_ctx_names = names;
	}
	*n = table_n;
	return table;
}

const char *job_ctx_name(enum ctx c)
{
	size_t n;
	if (c >= C_SUITE0)
		return job_key_table(&n) ? suite_ctx_names[c - C_SUITE0] : "";
	return ctx_names[c];
}

enum ctx job_suite_ctx(const char *suite)
{
	for (size_t i = 0; suite && bb_suites[i]; i++)
		if (!strcmp(bb_suites[i]->name, suite))
			return (enum ctx)(C_SUITE0 + i);
	return C_NONE;
}

const char *const *job_prog_opts(const char *suite)
{
	const struct bb_suite *s = bb_suite_find(suite);
	return s ? s->loose : NULL;
}
