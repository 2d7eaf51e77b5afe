/*
 * Every workload LKP runs (its programs/ of kind workload, generated/lkpnames.c) with its
 * state here (inventory.c; docs/suites.md says the same in prose): what `check` tells a job
 * of a suite benchboot does not run.
 */
#ifndef BENCHBOOT_HOST_JOB_SUITES_INVENTORY_H
#define BENCHBOOT_HOST_JOB_SUITES_INVENTORY_H

enum bb_lkp_suite_state {
	BB_LKP_RUNS,         /* a suite of suites/table.c */
	BB_LKP_PACKAGED,     /* Debian ships its program (package named); benchboot does not run it yet */
	BB_LKP_NOT_PACKAGED, /* no Debian package provides it: benchboot fetches only through apt */
	BB_LKP_HARDWARE,     /* needs hardware or a setup a VM of benchboot's does not have */
};

struct bb_lkp_suite {
	const char *name; /* LKP's program name (programs/NAME) */
	enum bb_lkp_suite_state state;
	const char *package; /* the Debian package (BB_LKP_RUNS, BB_LKP_PACKAGED), or NULL */
	const char *why;     /* one line: what it needs, or why not (for the message and docs) */
};

/* Sorted by name (strcmp), ended by a NULL name. */
extern const struct bb_lkp_suite bb_lkp_suites[];
/* The entry of an LKP workload, or NULL. */
const struct bb_lkp_suite *bb_lkp_suite_find(const char *name);

#endif
