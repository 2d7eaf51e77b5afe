/*
 * What the files of the job reader share; job.h is its interface, and nothing outside
 * lib/host/job/ includes this header. The reader: keys.c (the key table), values.c (a key's
 * values read and checked), jobmsg.c (messages that name their place), jobdoc.c (a document's
 * parameter list), yamlwalk.c (the walk of the YAML with LKP's quirks), jobload.c (loading, merging
 * the documents into jobs, --set, the checks across keys).
 */
#ifndef BENCHBOOT_HOST_JOB_JOB_INTERNAL_H
#define BENCHBOOT_HOST_JOB_JOB_INTERNAL_H

#include <stddef.h>
#include <yaml.h>

#include "host/job/job.h"
#include "host/job/jobinclude.h"

/* Where a key is: the top level, or the block of a section. A suite's keys name their block
 * C_BLOCK (suites/suite.h); in the key table, suite i's block is C_SUITE0 + i. */
enum ctx {
	C_TOP,
	C_SERVER,
	C_CLIENT,
	C_CGROUP,
	C_AFFINITY,
	C_NIC,
	C_NONE,
	C_BLOCK,
	C_SUITE0,
};

enum kind {
	K_SECTION,   /* a mapping of keys of another context */
	K_SUITE,     /* netperf | stress-ng */
	K_IGNORE,    /* LKP metadata kept for compatibility (category) */
	K_COUNT,     /* N or P% */
	K_DURATION,  /* > 0, s/m/h/d/w/y */
	K_GRACE,     /* >= 0, s/m/h/d/w/y */
	K_POSINT,    /* >= 1 */
	K_CLUSTER,   /* cs-localhost */
	K_IP,        /* ipv4 | ipv6 */
	K_SIZE,      /* N[KMGkmg] */
	K_CHECK,     /* a value the key's own check (keydef.check) judges */
	K_GOV,       /* a cpufreq governor */
	K_CMDLINE,   /* kernel command line words */
	K_CGROUP,    /* v1 | v2 | none, or a mapping (C_CGROUP) */
	K_CGMODE,    /* v1 | v2 | none */
	K_CTRLS,     /* controller names: a list or a space-separated string, one value */
	K_LIMITS,    /* mapping FILE: value */
	K_SYSCTL,    /* mapping KEY: value */
	K_CPULIST,   /* a CPU list */
	K_SERVER,    /* a suite's server (netserver:, iperf-server:): no options */
	K_NIC,       /* a net.nic.* value, checked by the plan's own parser (lib/plan/plan.c) */
	K_NICWAIT,   /* a duration of 0 to 600 s, made whole seconds */
	K_MODULES,   /* kernel module names, space-separated */
	K_ORDER,     /* interleaved | random | blocked: the iterations' order within a boot */
	K_SEED,      /* 0..4294967295: the seed of order: random */
	K_WARMUP,    /* 0..10 (or 0x..10x): warm-up iterations, kept apart */
	K_MONITORED, /* 0..10: each run's monitored iterations, kept apart (0: in every one) */
	K_CGROUP2,   /* LKP's cgroup2 setup: knobs FILE: value */
	K_NETBUF,    /* LKP's net-buffer setup (also its old name setup-net-buffer) */
	K_WORD,      /* one word for a program's option (method, mode, ...) */
	K_NOTE,      /* an LKP option benchboot records without acting on it */
	K_MONSECS,   /* a monitor's time option > 0 s (interval, duration: monitor_options.h) */
	K_MONDELAY,  /* a monitor's delay >= 0 s */
	K_MONTEXT,   /* a monitor's text option, one line */
};

enum { F_AXIS = 1 };

struct walker;

struct keydef {
	enum ctx ctx;
	const char *key;
	const char *param; /* NULL: the key itself */
	enum kind kind;
	unsigned flags;
	enum bb_level level;
	enum ctx sub;      /* K_SECTION, K_CGROUP */
	const char *suite; /* only in jobs of this suite */
	/* K_CHECK, and after the kind's own check for others: 0, or jfail/jwarn's value */
	int (*check)(struct walker *w, const char *key, const char *s, yaml_mark_t m);
};

/* The state of the walk of one job file's documents (yamlwalk.c). */
struct walker {
	const char *file;
	const struct bb_srcmap *map; /* where each line of the expanded text came from */
	const char *suite;           /* the job's suite, known before the walk */
	struct bb_job *job;          /* for warnings */
	yaml_document_t *yd;
	struct bb_jdoc *doc;
	const char *top; /* the top-level key being walked */
	int prog;        /* inside a program's block */
	int lkp_v1;      /* `cgroup:` had LKP's v1 knobs */
	char *err;
	size_t errlen;
};

/* keys.c: the table of keys, the job's own and every suite's (suites/table.c), in the order
 * a lookup tries them; NULL when out of memory. */
const struct keydef *job_key_table(size_t *n);
/* Where a key is, as messages say it: "at the top level", "in 'netperf:'", ... */
const char *job_ctx_name(enum ctx c);
/* The context of the block of the suite named, or C_NONE. */
enum ctx job_suite_ctx(const char *suite);
/* The options the suite's program takes at any level of a job (NULL-terminated), or NULL. */
const char *const *job_prog_opts(const char *suite);
/* 1 when s is in the NULL-terminated list. */
int job_one_of(const char *s, const char *const *list);
/* The word of the NULL-terminated list nearest to s, close enough to suggest, or NULL. */
const char *job_nearest_in(const char *s, const char *const *list);
/* 1 when the n bytes at s (0 < n < max) are a plain name: letters, digits, '_' and '-' (a
 * module's, a device's). */
int job_plain_name(const char *s, size_t n, size_t max);
/* 1 when cand is close enough to typo to suggest, and closer than *best (then updated). */
int job_near(const char *typo, const char *cand, unsigned *best);

/* jobmsg.c: the file and 1-based line of a 0-based line of the expanded text */
const char *job_src_of(const struct walker *w, size_t line0, int *line);
/* An error "FILE:LINE:COL: ..." into w->err: -EINVAL. */
int jfail(struct walker *w, yaml_mark_t m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A warning: the job still runs. 0 or -ENOMEM. */
int jwarn(struct walker *w, yaml_mark_t m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
struct bb_mark job_mark_of(yaml_mark_t m);
yaml_mark_t job_ymark(struct bb_mark m);

/* jobdoc.c */
struct bb_jparam *job_doc_find(struct bb_jdoc *d, const char *name);
void job_param_free(struct bb_jparam *p);
void job_doc_free(struct bb_jdoc *d);
/* Room for one more parameter in d: the new slot (d->p[d->n]), zeroed, or NULL. The caller
 * fills it and counts it (d->n++) when it is whole. */
struct bb_jparam *job_doc_slot(struct bb_jdoc *d);
/* Add a parameter taking ownership of v; a second definition in one document is an error. */
int job_add_param(struct walker *w, yaml_mark_t km, const char *key, const char *name,
                  struct bb_jvalue *v, size_t n, int axis, enum bb_level level);
/* A copy of from at the end of to. 0 or -ENOMEM. */
int job_copy_param(struct bb_jdoc *to, const struct bb_jparam *from);

/* values.c: a scalar's text; 1 when a node is YAML's null (empty or ~) */
const char *job_scalar(const yaml_node_t *n);
int job_is_null(const yaml_node_t *n);
/* The n values at v and their texts freed. */
void job_values_free(struct bb_jvalue *v, size_t n);
/* The values of key k (a scalar or a list: an axis) into *out, checked. */
int job_take_values(struct walker *w, const struct keydef *k, const char *key, yaml_node_t *val,
                    struct bb_jvalue **out, size_t *nout, int *axis);

/* yamlwalk.c */
/* the keys of a mapping of context ctx into w->doc */
int job_walk_map(struct walker *w, enum ctx ctx, yaml_node_t *map);
/* Parse all documents, find the suite, walk each into a parameter list. */
int job_load_docs(struct walker *w, const char *text, size_t len, struct bb_jdoc **docs,
                  size_t *ndocs, char **suite);
/* The text's [ and { nested no deeper than yamlwalk.c's limit, else an error (-EINVAL). */
int job_flow_depth_ok(struct walker *w, const char *t, size_t len);

#endif
