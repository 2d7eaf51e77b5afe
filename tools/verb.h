/* A `benchboot` verb: one per file in tools/, registered with BENCHBOOT_VERB. */
#ifndef BENCHBOOT_VERB_H
#define BENCHBOOT_VERB_H

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stddef.h>

#include "host/run/run.h"
#include "host/vm/qemu.h"

#define BENCHBOOT_VERSION "0.1"

/* Exit codes every verb keeps to (scripts rely on them). */
enum {
	EXIT_OK = 0,
	EXIT_CHANGED = 1,  /* a comparison found significant changes, a check found problems */
	EXIT_USAGE = 100,  /* wrong usage or bad input (job file, arguments) */
	EXIT_SYSTEM = 111, /* system failure: I/O, memory, a missing tool, QEMU that cannot run */
};

/*
 * The one place where a library outcome becomes an exit code (tools/verb.c). The library (lib/,
 * lib/host/) returns 0 or -errno with a message (host/errbuf.h). A few errnos mean the input
 * is wrong and give EXIT_USAGE: EINVAL, ENOENT, ENOTDIR, EISDIR, EACCES, ENAMETOOLONG,
 * EMEDIUMTYPE, EEXIST, ENOTEMPTY, EBUSY (the list in verb.c, docs/architecture.md); any other
 * -errno is a failure of the system, EXIT_SYSTEM. EXIT_CHANGED is the verb's own decision.
 */
int verb_exit_status(int r);

/* "benchboot VERB: MESSAGE" and where the usage is explained, on stderr; EXIT_USAGE. */
int verb_usage_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A verb's command line: its usage text (printed by --help, also at the top of its file) and
 * its options, a getopt_long table. verb_getopt returns the next option (optarg holds its
 * value), -1 when the options end (the operands are argv[optind..], in order), VERB_HELP
 * after printing the usage for -h/--help, VERB_BAD after saying what was wrong (an unknown
 * option, a missing value). shortopts starts with ':' and holds "h".
 */
struct verb_cmd {
	const char *name, *usage, *shortopts;
	const struct option *longopts;
};
enum { VERB_HELP = -2, VERB_BAD = -3 };
#define VERB_HELP_OPTION                                                                           \
	{                                                                                          \
		"help", no_argument, NULL, 'h'                                                     \
	}
int verb_getopt(const struct verb_cmd *c, int argc, char **argv);

/*
 * One --set KEY=VALUE of check, build or run (LKP's split-job --set: the job's KEY replaced,
 * host/job/job.h bb_job_parse_file_set) added to sets: 0, or EXIT_USAGE (said) for a value
 * with no KEY= in front, EXIT_SYSTEM (said) when out of memory. The job parser checks the
 * rest (the key's characters, the value's YAML).
 */
struct bb_strv;
int verb_add_set(const char *verb, struct bb_strv *sets, const char *arg);

/*
 * After a verb collected boots into dir: add them to the results store (db: --db, NULL the
 * default; docs/history.md), one line said ("store: N new boots in PATH"); a store that cannot
 * be opened or written is a warning, never the verb's failure (the folder has the results).
 */
void verb_store_add(const char *verb, const char *db, const char *dir);
/* The line every --help of those verbs has for it (the same words in all three). */
#define VERB_SET_HELP                                                                              \
	"  --set KEY=VALUE       override the job's KEY (repeatable), as LKP's split-job --set:\n" \
	"                        runtime=10s, netperf.send_size=4K, nr_threads=[1, 2];\n"          \
	"                        the results record the overrides (env.json job_overrides)\n"

/* A number option: v in [min, max] times the unit of its suffix (units: "smh" for seconds,
 * "%" for a percentage, NULL for none) into *out: 0, else a usage error naming the option. */
int verb_number(const char *verb, const char *opt, const char *v, double min, double max,
                const char *range, const char *units, double *out);

/* --accel auto|kvm|tcg into *out: 0, else a usage error. */
int verb_accel(const char *verb, const char *v, enum bb_accel *out);

/* A verb's default results folder for a job: results/NAME SUFFIX (NAME: the job file's name to
 * its first dot). */
void verb_job_outdir(const char *job, const char *suffix, char *out, size_t len);

/* A kernel argument, [NAME=]PATH: NAME (default the file name) into name, *path the path. */
void verb_kernel_arg(const char *v, char *name, size_t len, const char **path);

/* Ctrl-C (SIGINT), SIGTERM and SIGHUP set *flag, which the library watches (a VM is stopped,
 * what finished is kept). */
void verb_catch_interrupt(volatile sig_atomic_t *flag);

/* The terminal of a verb that boots: progress lines on stdout, warnings on stderr as
 * "benchboot VERB: ...", notes on stderr as they are, and a status line rewritten in place
 * (when stdout is a terminal: tty). */
struct verb_term {
	const char *verb;
	int tty, status_shown;
};
void verb_term_clear(struct verb_term *t);
/* As bb_run_opts.say and .status, with a struct verb_term as ctx. */
void verb_term_say(void *term, enum bb_run_say to, const char *line);
void verb_term_status(void *term, const char *line);

struct bb_verb {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv); /* argv[0] is the verb name */
};

#define BENCHBOOT_VERB(vname, vsummary, vmain) BENCHBOOT_VERB_NAMED(vname, #vname, vsummary, vmain)
/* A verb whose name is no C identifier ("bisect-step"): id names its table entry. */
#define BENCHBOOT_VERB_NAMED(id, vname, vsummary, vmain)                                           \
	static const struct bb_verb bb_verb_##id                                                   \
	    __attribute__((used, section("bb_verbs"), aligned(sizeof(void *)))) = {                \
	        .name = vname, .summary = vsummary, .main = vmain}

#endif
