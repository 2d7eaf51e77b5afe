/*
 * The names LKP's own files use (generated/lkpnames.c, made by tools/scripts/gen-lkp-keys from a
 * checkout of intel/lkp-tests): its programs with their kind, the options its programs
 * take, and the other keys its job, include, host and 0-day attachment files set. A job key
 * among them is one LKP knows: benchboot records it; a key outside them (and outside
 * benchboot's own) is one nothing in LKP reads, and gets a warning. Sorted (strcmp).
 */
#ifndef BENCHBOOT_HOST_LKPNAMES_H
#define BENCHBOOT_HOST_LKPNAMES_H

#include <stddef.h>

enum bb_lkp_kind { BB_LKP_WORKLOAD, BB_LKP_SETUP, BB_LKP_DAEMON, BB_LKP_MONITOR };

struct bb_lkp_program {
	const char *name;
	enum bb_lkp_kind kind;
};

extern const char bb_lkp_commit[];
extern const struct bb_lkp_program bb_lkp_programs[];
extern const size_t bb_lkp_nprograms;
extern const char *const bb_lkp_options[];
extern const size_t bb_lkp_noptions;
extern const char *const bb_lkp_keys[];
extern const size_t bb_lkp_nkeys;

#endif
