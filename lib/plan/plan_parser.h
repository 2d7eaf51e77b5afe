/*
 * The plan parser's insides, shared by its files and by nothing outside lib/plan/: plan.c reads
 * a plan's lines and a kernel command line's benchboot.* words, plan_keys.c knows the keys (the
 * global and run keys as tables of setters), plan_values.c checks the values they take.
 */
#ifndef BENCHBOOT_PLAN_PARSER_H
#define BENCHBOOT_PLAN_PARSER_H

#include <stddef.h>

#include "plan/plan.h"
#include "strv.h"

#define RUNID_MAX 200
#define SERVERS_MAX 64

struct parser {
	struct bb_plan *plan;
	struct bb_plan_run *run; /* current section, or NULL: global */
	unsigned global_seen, run_seen;
	int lineno;
	int nic_line;     /* first net.nic.* key other than the name (it needs the name) */
	int cluster_line; /* of cluster=NAME */
	int host_line;    /* first cluster.host.* key (they need cluster=NAME) */
	unsigned host_seen[BB_CLUSTER_HOSTS];
	char *msg;
	size_t msglen;
};

/* The error the user reads, in ps->msg; returns -EINVAL. */
int plan_fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* plan_values.c: each returns 0 (or, for the *_ok checks, nonzero) when the value is good */
int plan_strv_split(struct bb_strv *sv, const char *s);
int plan_set_str(char **dst, const char *value);
int plan_parse_int(const char *s, long min, long max, long *out);
int plan_parse_seconds(const char *s, double *out);
int plan_name_ok(const char *s, const char *extra);
int plan_cgroup_path_ok(const char *s);
int plan_cpus_ok(const char *s);
int plan_ready_ok(const char *s);
int plan_dummy_ok(const char *s);

/* plan_keys.c: a global key (cmdline: from benchboot.KEY), a key of the current run section,
 * and the checks that need the whole section or the whole cluster */
int plan_set_global(struct parser *ps, const char *key, const char *value, int cmdline);
int plan_set_run(struct parser *ps, const char *key, const char *value);
int plan_end_run(struct parser *ps);
int plan_end_cluster(struct parser *ps);

#endif
