/*
 * Job files (YAML, libyaml): LKP's keys for the suites benchboot runs plus benchboot's own
 * (cgroup, sysctl, affinity, timeout, netperf global options), validated into flat parameter
 * lists, one per job document. docs/jobs.md is the user's reference for every key.
 *
 * Several YAML documents in one file, as LKP reads them: document 0 is a job, and job i is
 * document 0 with document i's top-level keys replacing document 0's whole values (a later
 * `if role client:` replaces the whole block). LKP's `<<: FILE` includes are expanded first
 * (jobinclude.h).
 *
 * Keys: those benchboot acts on; LKP keys it knows and does not act on (queue and result
 * metadata, host facts, monitors, setups it does not implement), kept as notes (parameters
 * "lkp.KEY", recorded with the results); other keys, which LKP would drop, give a warning
 * with the nearest key and are ignored. A key inside a program's block that the program
 * does not take is an error.
 *
 * Errors name the place: "FILE:LINE:COL: KEY: what is wrong", with the nearest supported key
 * for an unknown one ("unknown key 'nr_thread' (did you mean 'nr_threads'?)").
 */
#ifndef BENCHBOOT_HOST_JOB_H
#define BENCHBOOT_HOST_JOB_H

#include <stddef.h>

#include "host/job/cluster.h"
#include "host/job/lkpkeys.h" /* bb_lkp_key_kind */
#include "strv.h"

struct bb_mark {
	int line, col; /* 1-based, in the text after includes; 0 when not from the file */
};

enum bb_level {
	BB_LEVEL_RUN,  /* varies within one boot: test, nr_threads, sysctl, sizes, ... */
	BB_LEVEL_BOOT, /* needs a boot of its own: kernel_cmdline, cgroup, cpufreq_governor */
	BB_LEVEL_JOB,  /* describes the job: suite, cluster */
	BB_LEVEL_NOTE, /* an LKP key benchboot does not act on: "lkp.KEY", recorded only */
	BB_LEVEL_INFO, /* what check shows and no plan holds: "cmdline.KEY", the words as
	                * written before the plumbing was taken out */
};

struct bb_jvalue {
	char *s; /* the text; "" for a YAML null (e.g. `netserver:`) */
	struct bb_mark mark;
	/* an empty value of a list (LKP's `shared: [shared, ]`): the key is absent from the
	 * runs that take it, as LKP leaves it unset in that job */
	int unset;
};

/*
 * One parameter. Names are canonical and flat, as LKP flattens its jobs: "suite",
 * "nr_threads", "runtime" (also from `testtime`), "iterations", "ip", "test", "send_size",
 * "socket_buffer_size", "global_options", "test_options", "timeout", "kernel_cmdline",
 * "cpufreq_governor", "cgroup.mode", "cgroup.controllers", "cgroup.limit.FILE",
 * "sysctl.KEY", "affinity.server", "affinity.client", "stress-ng.OPTION".
 */
struct bb_jparam {
	char *name;
	struct bb_jvalue *v;
	size_t n; /* values; the parameter is an axis when it was written as a list */
	int axis;
	enum bb_level level;
	struct bb_mark mark; /* of the key */
	char *top;           /* the top-level key it came from (what a later document replaces) */
	int prog; /* set inside a program's block: wins over the same option at the top */
};

struct bb_jdoc {
	struct bb_jparam *p;
	size_t n, cap;
	int index;           /* 0-based document number in the file (LKP's "document 0") */
	struct bb_mark mark; /* where the document starts */
	struct bb_strv tops; /* its own top-level keys */
	int has_program;     /* names `netperf:` or `stress-ng:` */
};

struct bb_job {
	char *file; /* the path as given */
	char *name; /* file name without directory and .yaml/.yml */
	char *suite;
	struct bb_jdoc *docs; /* the jobs: document 0, then document 0 + document i */
	size_t ndocs;
	size_t nfiledocs;        /* YAML documents in the file (after includes) */
	char *skipped;           /* why document 0 is not a job of its own, or NULL */
	struct bb_strv warnings; /* "FILE:LINE:COL: ..." for keys LKP would drop; the job runs */
	struct bb_strv files;    /* the job file, then every included file */
	char digest[65];         /* sha256 of the text after includes, hex */
	struct bb_strv sets;     /* --set KEY=VALUE overrides, as given (LKP's split-job --set) */
	char cluster_name[128];  /* `cluster:`, or "" */
	struct bb_cluster *cluster; /* a two-host cluster (host/job/cluster.h), else NULL */
};

/* 0, -EINVAL with the message in err (bad job), or -errno (I/O: err says so). */
int bb_job_parse_file(const char *path, struct bb_job *job, char *err, size_t errlen);
/* The same from text; path is used for messages and the job name. */
int bb_job_parse_text(const char *path, const char *text, size_t len, struct bb_job *job, char *err,
                      size_t errlen);
/*
 * The same with overrides, as LKP's `split-job --set 'KEY: VALUE'` applies them to every
 * job of the file: each "KEY=VALUE" replaces the top-level key KEY (VALUE is YAML: a value,
 * or a list [a, b] that makes an axis); "SECTION.KEY=VALUE" replaces KEY inside SECTION
 * (netperf.send_size=4K, stress-ng.testtime=5s, sysctl.net.core.somaxconn=4096, ...),
 * leaving the rest of the section. A top-level override that a program's block shadows (the
 * block's value wins, as in LKP) is a warning that names the SECTION.KEY form. The job
 * records the sets (job->sets). sets may be NULL.
 */
int bb_job_parse_file_set(const char *path, const struct bb_strv *sets, struct bb_job *job,
                          char *err, size_t errlen);
int bb_job_parse_text_set(const char *path, const char *text, size_t len,
                          const struct bb_strv *sets, struct bb_job *job, char *err, size_t errlen);
void bb_job_free(struct bb_job *job);

/* LKP's `repeat_to: N` (whole-job repeats: N boots of every boot group) as the job names it,
 * the largest of its documents; 0 when it names none. */
int bb_job_repeat_to(const struct bb_job *job);

const struct bb_jparam *bb_jdoc_get(const struct bb_jdoc *doc, const char *name);

#endif
