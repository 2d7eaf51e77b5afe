/*
 * A suite is one file here (netperf.c, stress_ng.c, hackbench.c, ...): all the job reader,
 * the plan writer and the image builder know of one benchmark program as LKP runs it. Its
 * keys with their checks, how a run's command lines are built (LKP's programs/SUITE/run), the
 * files and kernel modules the image needs, its roles, what a monitored iteration changes,
 * and compare's primary stats. table.c lists the suites. The parser of its output into LKP's
 * stat names runs in the guest: init/parse_SUITE.c, listed in init/stats.c.
 *
 * Adding a suite: docs/hacking.md "Adding a suite".
 */
#ifndef BENCHBOOT_HOST_JOB_SUITES_SUITE_H
#define BENCHBOOT_HOST_JOB_SUITES_SUITE_H

#include <stddef.h>

#include "host/job/job_internal.h"
#include "host/job/suites.h"

/* A program the image carries for the suite: where it comes from. */
struct bb_suite_file {
	const char *image_path;
	const char *src; /* relative to the benchboot tree (build/...) or the sysroot */
	int from_tree;   /* 1: a build output (make netperf), 0: the pinned sysroot */
};

/* A parameter every run of the suite gets when the job gives none (recorded with the run). */
struct bb_suite_default {
	const char *key;
	const char *value;
};

struct bb_suite {
	const char *name;            /* LKP's suite name, also its block's key (`netperf:`) */
	const char *summary;         /* one line for docs and messages */
	const char *runtime_key;     /* the duration LKP's run script reads: runtime or testtime */
	const char *default_runtime; /* when the job gives none (LKP's default) */
	/* Its keys: ctx C_BLOCK for the keys of its block (placed in the suite's own context by
	 * the key table, keys.c), or a context of the job (C_TOP, C_SERVER, C_CLIENT). */
	const struct keydef *keys;
	size_t nkeys;
	/* LKP's blocks that hold the suite's keys besides `NAME:` (fio-basic's are its setup's and
	 * its program's, `fio-setup-basic:` and `fio:`), NULL-terminated, or NULL. */
	const char *const *blocks;
	/* Keys of its block that may also sit at the top level or in a role (the `# - key`
	 * lines of LKP's programs/SUITE/run), NULL-terminated. */
	const char *const *loose;
	/* A key of the block outside the table (stress-ng's own options), or NULL: unknown. */
	int (*block_other)(struct walker *w, yaml_node_t *key, yaml_node_t *val);
	/* 1 when name is such an option (a message then says where it goes), or NULL. */
	int (*owns_option)(const char *name);
	/* The keys of one document together (stress-ng wants test or class), or NULL. */
	int (*check_doc)(struct walker *w, const struct bb_jdoc *d);
	/* Parameters a run gets when the job gives none, after nr_threads and runtime. */
	const struct bb_suite_default *defaults;
	/* A run's processes from its parameters; runtime is the run's in seconds (>= 1). 0,
	 * -EINVAL with a message, -ENOMEM. */
	int (*build)(const struct bb_kvs *p, long runtime, struct bb_suite_run *sr, char *err,
	             size_t errlen);
	/* What a monitored iteration changes besides its length: overrides into twin. 0 or
	 * -EINVAL/-ENOMEM; NULL: nothing. */
	int (*monitored)(const struct bb_kvs *p, struct bb_kvs *twin, char *err, size_t errlen);
	const char *const *boot_modules; /* in every boot of a job of the suite, NULL-terminated */
	const char *server_addr_opt; /* the client option before the server's address, rewritten
	                              * to the server host's in a two-host job; NULL: none */
	const char *server_cmd;      /* the server as messages say it ("netserver -4 -D"), or NULL;
	                              * its key in the job (`netserver:`) is a K_SERVER key */
	const struct bb_suite_file *files; /* ended by a NULL image_path */
	const char *const *primary;        /* compare's primary stats, best first; NULL-ended */
};

/* The suites benchboot runs (table.c), ended by a NULL name. */
extern const struct bb_suite *const bb_suites[];
const struct bb_suite *bb_suite_find(const char *name);
/* The suite whose block takes the option name beyond its table (owns_option), or NULL. */
const struct bb_suite *bb_suite_of_option(const char *name);

/* Helpers of the suites' build functions (suite_argv.c). */
int bb_suite_argv_addf(struct bb_strv *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Append the blank-separated words of s. */
int bb_suite_argv_split(struct bb_strv *a, const char *s);
/* Add s unless it is there. 0 or -ENOMEM. */
int bb_suite_add_unique(struct bb_strv *a, const char *s);
/* A sysctl "KEY=VALUE" of the run unless the job sets that key itself. */
int bb_suite_add_sysctl(struct bb_suite_run *sr, const char *kv);
/* A key's check: a whole number min..max, LKP's suffix after it allowed (suffix: "d", "ops";
 * NULL: none). 0, or jfail's -EINVAL: "KEY: 'S' is not a whole number MIN..MAX WHAT" (what:
 * what the number is, or how LKP writes it; NULL: nothing). */
int bb_suite_check_whole(struct walker *w, const char *key, const char *s, yaml_mark_t m,
                         long long min, long long max, const char *suffix, const char *what);
/* A key's check: a count N or LKP's Nops (loops: 10000000ops), 1..2147483647. */
int bb_suite_check_ops(struct walker *w, const char *key, const char *s, yaml_mark_t m);
/* A run's nr_threads (default 1) with its count and whether it is a percentage, or NULL with
 * a message in err. */
const char *bb_suite_nr_threads(const struct bb_kvs *p, long *count, int *pct, char *err,
                                size_t errlen);
/* LKP's lib/unit.sh to_byte: N with B, K, M, G, T or P (or KB, MB, ... either case) into
 * bytes. 0 or -1 (not a size, or too large). */
int bb_suite_to_byte(const char *s, unsigned long long *out);
/* A key's check: a size >= 1 byte as to_byte reads it. */
int bb_suite_check_bytes(struct walker *w, const char *key, const char *s, yaml_mark_t m);
/* 1 when w is one of the blank-separated words of list. */
int bb_suite_word_in(const char *w, const char *list);

#endif
