/*
 * The plan parser (docs/plan.md). Strict on purpose: the host writes plans, so anything the
 * table does not know is a bug on one side, reported with its line number, never skipped.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "grow.h"
#include "parse_monitor.h"
#include "parse_perf.h"
#include "plan.h"

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

static int fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->msg, ps->msglen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Replace sv with the blank-separated words of s. */
static int strv_split(struct bb_strv *sv, const char *s)
{
	bb_strv_free(sv);
	return bb_strv_add_words(sv, s);
}

static int set_str(char **dst, const char *value)
{
	char *s = strdup(value);
	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

static int parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_seconds(const char *s, double *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	double v = strtod(s, &end);
	if (*end || v < 0 || v > 86400.0 * 365)
		return -EINVAL;
	*out = v;
	return 0;
}

static int name_ok(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr(extra, *s)))
			return 0;
	return 1;
}

/* A job cgroup path: /A or /A/B..., at most 4 levels, each of [A-Za-z0-9._@-] and not "."
 * or "..". 0 when good. */
static int cgroup_path_ok(const char *s)
{
	int levels = 0;
	if (*s != '/' || strlen(s) > 200)
		return -1;
	while (*s == '/') {
		size_t n = strcspn(++s, "/");
		if (!n || (n == 1 && s[0] == '.') || (n == 2 && !strncmp(s, "..", 2)) ||
		    ++levels > 4)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (!name_ok((char[]){s[i], 0}, "._@-"))
				return -1;
		s += n;
	}
	return *s ? -1 : 0;
}

static int cpus_ok(const char *s)
{
	struct bb_cpuset set;
	return *s && bb_cpulist_resolve(s, BB_CPULIST_ANY_LAST, &set) == 0;
}

/* "tcp:ADDR:PORT", ADDR an IPv4 or IPv6 address. */
static int ready_ok(const char *s)
{
	char addr[64], buf[16];
	long port;
	if (strncmp(s, "tcp:", 4))
		return 0;
	s += 4;
	const char *colon = strrchr(s, ':');
	if (!colon || (size_t)(colon - s) >= sizeof(addr))
		return 0;
	memcpy(addr, s, (size_t)(colon - s));
	addr[colon - s] = 0;
	if (inet_pton(AF_INET, addr, buf) != 1 && inet_pton(AF_INET6, addr, buf) != 1)
		return 0;
	return parse_int(colon + 1, 1, 65535, &port) == 0;
}

static int dummy_ok(const char *s)
{
	char addr[INET6_ADDRSTRLEN];
	int prefix;
	return bb_plan_addr_prefix(s, addr, sizeof(addr), &prefix) == AF_INET;
}

int bb_plan_is_mac(const char *s)
{
	for (int i = 0; i < 6; i++, s += 3)
		if (!strchr("0123456789abcdefABCDEF", s[0]) || !s[0] ||
		    !strchr("0123456789abcdefABCDEF", s[1]) || !s[1] || s[2] != (i < 5 ? ':' : 0))
			return 0;
	return 1;
}

int bb_plan_addr_prefix(const char *s, char *addr, size_t addrlen, int *prefix)
{
	unsigned char buf[16];
	long v;
	const char *slash = strchr(s, '/');
	if (!slash || (size_t)(slash - s) >= addrlen || slash == s)
		return 0;
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = 0;
	int family = inet_pton(AF_INET, addr, buf) == 1    ? AF_INET
	             : inet_pton(AF_INET6, addr, buf) == 1 ? AF_INET6
	                                                   : 0;
	if (!family || parse_int(slash + 1, 1, family == AF_INET ? 32 : 128, &v))
		return 0;
	*prefix = (int)v;
	return family;
}

/* net.nic.name: an interface name (as the kernel allows: 1..15 bytes, no '/', ':' or blank)
 * or a MAC address, stored lowercase. */
static int nic_name_set(struct parser *ps, const char *value)
{
	size_t len = strlen(value);
	if (bb_plan_is_mac(value)) {
		char mac[18];
		for (size_t i = 0; i <= len; i++)
			mac[i] =
			    (char)(value[i] >= 'A' && value[i] <= 'F' ? value[i] + 32 : value[i]);
		return set_str(&ps->plan->nic_name, mac) ? fail(ps, "out of memory") : 0;
	}
	if (!len || len > 15 || !name_ok(value, "._-@") || !strcmp(value, ".") ||
	    !strcmp(value, ".."))
		return fail(ps,
		            "net.nic.name: expected an interface name (e.g. eth0) or a MAC address "
		            "(xx:xx:xx:xx:xx:xx), not '%s'",
		            value);
	return set_str(&ps->plan->nic_name, value) ? fail(ps, "out of memory") : 0;
}

/* net.nic.address (ADDR/PREFIX words) and net.nic.gateway (ADDR words, one per family). */
static int nic_list_set(struct parser *ps, const char *key, const char *value, int gateway)
{
	struct bb_strv *sv = gateway ? &ps->plan->nic_gateway : &ps->plan->nic_address;
	char addr[64];
	unsigned char buf[16];
	int prefix, families = 0;
	if (strv_split(sv, value))
		return fail(ps, "out of memory");
	if (!sv->n)
		return fail(ps, "%s: empty value", key);
	if (sv->n > 8)
		return fail(ps, "%s: at most 8 addresses", key);
	for (size_t i = 0; i < sv->n; i++) {
		const char *w = sv->v[i];
		int family = 0;
		if (!gateway)
			family = bb_plan_addr_prefix(w, addr, sizeof(addr), &prefix);
		else if (inet_pton(AF_INET, w, buf) == 1)
			family = AF_INET;
		else if (inet_pton(AF_INET6, w, buf) == 1)
			family = AF_INET6;
		if (!family)
			return fail(ps, "%s: expected %s, not '%s'", key,
			            gateway
			                ? "an IPv4 or IPv6 address"
			                : "IPv4ADDR/PREFIX or IPv6ADDR/PREFIX (e.g. 10.0.2.15/24)",
			            w);
		int bit = family == AF_INET ? 1 : 2;
		if (gateway && (families & bit))
			return fail(ps, "%s: one gateway per address family, not two %s ones", key,
			            family == AF_INET ? "IPv4" : "IPv6");
		families |= bit;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(sv->v[j], w))
				return fail(ps, "%s: '%s' given twice", key, w);
	}
	return 0;
}

enum {
	G_JOB = 1 << 0,
	G_DIGEST = 1 << 1,
	G_GROUP = 1 << 2,
	G_PARAMS = 1 << 3,
	G_CGMODE = 1 << 4,
	G_CGCTRL = 1 << 5,
	G_GOV = 1 << 6,
	G_DUMMY = 1 << 7,
	G_MODULES = 1 << 8,
	G_LAVA = 1 << 9,
	G_POWEROFF = 1 << 10,
	G_DEBUG = 1 << 11,
	G_RWAIT = 1 << 12,
	G_NICNAME = 1 << 13,
	G_NICADDR = 1 << 14,
	G_NICGW = 1 << 15,
	G_NICMTU = 1 << 16,
	G_NICWAIT = 1 << 17,
	G_ORDER = 1 << 18,
	G_SEED = 1 << 19,
	G_CLUSTER = 1 << 20,
	G_CPORT = 1 << 21,
	G_CWAIT = 1 << 22,
	G_ROLE = 1 << 23,
	G_WARMUP = 1 << 24,
	G_RTIMEOUT = 1 << 25,
	G_CGPATH = 1 << 26,
	G_ROTATE = 1 << 27,
	G_MONITORED = 1 << 28,
	G_MONITORS = 1 << 30,
};

/* cluster.host.N.FIELD's fields, in the order of their H_ bits */
enum { H_NAME = 1, H_ROLE = 2, H_ADDR = 4, H_NIC = 8 };
static const char *const host_fields[] = {"name", "role", "address", "nic", NULL};

/* FIELD's index in FIELDS (NULL-terminated), or -1 */
static int field_index(const char *field, const char *const *fields)
{
	for (int i = 0; fields[i]; i++)
		if (!strcmp(field, fields[i]))
			return i;
	return -1;
}

static int role_parse(const char *s, enum bb_role *out)
{
	if (!strcmp(s, "server"))
		*out = BB_ROLE_SERVER;
	else if (!strcmp(s, "client"))
		*out = BB_ROLE_CLIENT;
	else
		return -EINVAL;
	return 0;
}

/* cluster.host.N.FIELD (docs/plan.md, "Two hosts"): N 0 or 1, each field once. */
static int set_cluster_host(struct parser *ps, const char *key, const char *value)
{
	const char *s = key + 13;
	char addr[INET6_ADDRSTRLEN];
	int prefix;
	if ((s[0] != '0' && s[0] != '1') || s[1] != '.')
		return fail(ps,
		            "%s: expected cluster.host.N.name, .role, .address or .nic with N 0 "
		            "or 1",
		            key);
	struct bb_plan_host *h = &ps->plan->hosts[s[0] - '0'];
	unsigned *seen = &ps->host_seen[s[0] - '0'], bit;
	char **dst = NULL;
	int f = field_index(s + 2, host_fields);
	bit = f < 0 ? 0 : 1u << f; /* H_NAME, H_ROLE, H_ADDR, H_NIC */
	if (bit == H_NAME) {
		if (!name_ok(value, "._-"))
			return fail(ps, "%s: expected a host name (A-Za-z0-9._-), not '%s'", key,
			            value);
		dst = &h->name;
	} else if (bit == H_ROLE) {
		if (role_parse(value, &h->role))
			return fail(ps, "%s: expected server or client, not '%s'", key, value);
	} else if (bit == H_ADDR) {
		if (bb_plan_addr_prefix(value, addr, sizeof(addr), &prefix) != AF_INET)
			return fail(ps,
			            "%s: expected IPv4ADDR/PREFIX (e.g. 192.168.77.1/24), not '%s'",
			            key, value);
		dst = &h->address;
	} else if (bit == H_NIC) {
		if (bb_plan_is_mac(value)) {
			char mac[18];
			for (size_t i = 0; i < sizeof(mac); i++)
				mac[i] = (char)(value[i] >= 'A' && value[i] <= 'F' ? value[i] + 32
				                                                   : value[i]);
			if (set_str(&h->nic, mac))
				return fail(ps, "out of memory");
		} else if (strlen(value) > 15 || !name_ok(value, "._-@")) {
			return fail(ps,
			            "%s: expected an interface name (e.g. eth0) or a MAC address "
			            "(xx:xx:xx:xx:xx:xx), not '%s'",
			            key, value);
		}
	} else {
		return fail(ps, "unknown global key '%s'", key);
	}
	if (*seen & bit)
		return fail(ps, "%s: duplicate key", key);
	*seen |= bit;
	if (!ps->host_line)
		ps->host_line = ps->lineno;
	if (dst && set_str(dst, value))
		return fail(ps, "out of memory");
	if (bit == H_NIC && !h->nic && set_str(&h->nic, value))
		return fail(ps, "out of memory");
	return 0;
}

/* cluster, cluster.port, cluster.wait, cluster.host.N.*, and role (command line only); *bit:
 * the key's G_ bit (0: none). */
static int set_cluster(struct parser *ps, const char *key, const char *value, int cmdline,
                       unsigned *bit)
{
	struct bb_plan *p = ps->plan;
	*bit = 0;
	if (!strcmp(key, "role")) {
		*bit = G_ROLE;
		if (role_parse(value, &p->role))
			return fail(ps, "role: expected server or client, not '%s'", value);
		return 0;
	}
	if (cmdline && strcmp(key, "cluster.port") && strcmp(key, "cluster.wait"))
		return fail(ps,
		            "%s: only cluster.port and cluster.wait may be given on the command "
		            "line (the cluster is in the plan)",
		            key);
	if (!strcmp(key, "cluster")) {
		*bit = G_CLUSTER;
		if (!name_ok(value, "._-"))
			return fail(ps, "cluster: expected a cluster name (A-Za-z0-9._-), not '%s'",
			            value);
		ps->cluster_line = ps->lineno;
		return set_str(&p->cluster, value) ? fail(ps, "out of memory") : 0;
	}
	if (!strncmp(key, "cluster.host.", 13))
		return set_cluster_host(ps, key, value);
	return fail(ps, "unknown %skey '%s'", cmdline ? "" : "global ", key);
}

/* The cluster as a whole, after the last line: two hosts, one of each role, all fields. */
static int end_cluster(struct parser *ps)
{
	struct bb_plan *p = ps->plan;
	static const struct {
		unsigned bit;
		const char *name;
	} need[] = {{H_NAME, "name"}, {H_ROLE, "role"}, {H_ADDR, "address"}};
	if (!p->cluster) {
		if (ps->host_line) {
			ps->lineno = ps->host_line;
			return fail(ps, "cluster.host.* keys need cluster=NAME");
		}
		return 0;
	}
	ps->lineno = ps->cluster_line;
	for (int h = 0; h < BB_CLUSTER_HOSTS; h++)
		for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			if (!(ps->host_seen[h] & need[i].bit))
				return fail(ps, "cluster=%s: missing key 'cluster.host.%d.%s'",
				            p->cluster, h, need[i].name);
	if (p->hosts[0].role == p->hosts[1].role)
		return fail(ps,
		            "cluster=%s: cluster.host.0.role and cluster.host.1.role are both "
		            "'%s' (one server and one client)",
		            p->cluster, bb_role_name(p->hosts[0].role));
	if (!strcmp(p->hosts[0].name, p->hosts[1].name))
		return fail(ps, "cluster=%s: both hosts are named '%s'", p->cluster,
		            p->hosts[0].name);
	char a0[INET6_ADDRSTRLEN], a1[INET6_ADDRSTRLEN];
	int l0, l1;
	bb_plan_addr_prefix(p->hosts[0].address, a0, sizeof(a0), &l0);
	bb_plan_addr_prefix(p->hosts[1].address, a1, sizeof(a1), &l1);
	if (!strcmp(a0, a1))
		return fail(ps, "cluster=%s: both hosts have the address %s", p->cluster, a0);
	return 0;
}

/* The monitors= list: names separated by blanks or commas (benchboot.monitors=vmstat,uptime
 * on a kernel command line, which has no blanks in a word). */
static int monitors_split(struct bb_strv *sv, const char *s)
{
	bb_strv_free(sv);
	for (size_t n; *(s += strspn(s, " \t,")); s += n) {
		n = strcspn(s, " \t,");
		for (size_t i = 0; i < sv->n; i++)
			if (strlen(sv->v[i]) == n && !strncmp(sv->v[i], s, n))
				goto next; /* once each */
		if (bb_strv_addn(sv, s, n))
			return -ENOMEM;
	next:;
	}
	return 0;
}

/* monitor.NAME.OPTION=VALUE: a per-monitor option (the job's `NAME: {OPTION: VALUE}`); the
 * times in seconds (interval, delay, duration) are checked here, the rest are the monitor's
 * to read. A repeat replaces the value on the command line only. */
static int set_monitor_option(struct parser *ps, const char *key, const char *value, int cmdline)
{
	const char *name = key + 8, *dot = strrchr(name, '.');
	char opt[64];
	double secs;
	if (!dot || dot == name || !dot[1] || strlen(dot + 1) >= sizeof opt)
		return fail(ps, "%s: expected monitor.NAME.OPTION", key);
	snprintf(opt, sizeof opt, "%s", dot + 1);
	char mon[64];
	snprintf(mon, sizeof mon, "%.*s", (int)(dot - name), name);
	if (!name_ok(mon, "_-") || !name_ok(opt, "_-"))
		return fail(ps, "%s: bad monitor or option name", key);
	if (!*value)
		return fail(ps, "%s: empty value", key);
	int timed = !strcmp(opt, "interval") || !strcmp(opt, "duration") || !strcmp(opt, "delay");
	if (timed &&
	    (parse_seconds(value, &secs) || secs > 86400 || (secs < 0.01 && strcmp(opt, "delay"))))
		return fail(ps, "%s: expected seconds%s, not '%s'", key,
		            strcmp(opt, "delay") ? " 0.01..86400" : " 0..86400", value);
	struct bb_kv *kv = bb_kvs_find(&ps->plan->monitor_options, name);
	if (kv) {
		if (!cmdline)
			return fail(ps, "%s: duplicate key", key);
		return set_str(&kv->value, value) ? fail(ps, "out of memory") : 0;
	}
	return bb_kvs_add(&ps->plan->monitor_options, name, value) ? fail(ps, "out of memory") : 0;
}

const char *bb_plan_monitor_option(const struct bb_plan *plan, const char *name, const char *option)
{
	char key[160];
	if ((size_t)snprintf(key, sizeof key, "%s.%s", name, option) >= sizeof key)
		return NULL;
	return bb_kvs_get(&plan->monitor_options, key);
}

/* The global keys' setters: each checks VALUE, stores it in the plan and returns 0, or fails
 * with the message the user reads; *bit comes preset to the key's G_ bit (the caller refuses
 * a repeat in a plan) and a setter may change it (0: the setter deals with repeats itself). */
struct global_key;
typedef int global_setter(struct parser *ps, const struct global_key *g, const char *key,
                          const char *value, int cmdline, unsigned *bit);

/* One global key of docs/plan.md: KEY, or each key that begins with KEY when KEY ends in '.'.
 * CMDLINE_ONLY keys are known as benchboot.KEY on the kernel command line and nowhere else. */
struct global_key {
	const char *key;
	unsigned bit;
	int cmdline_only;
	global_setter *set;
	/* for the setters that store a number or a flag in the plan (set_int, set_flag) */
	const char *what; /* the error says "KEY: expected WHAT MIN..MAX, not 'VALUE'" */
	long min, max;
	size_t field; /* offsetof(struct bb_plan, ...), an int */
};

static int oom_or_ok(struct parser *ps, int r)
{
	return r ? fail(ps, "out of memory") : 0;
}

/* A whole number in a range, kept in an int of the plan. */
static int set_int(struct parser *ps, const struct global_key *g, const char *key,
                   const char *value, int cmdline, unsigned *bit)
{
	long v;
	if (parse_int(value, g->min, g->max, &v))
		return fail(ps, "%s: expected %s %ld..%ld, not '%s'", key, g->what, g->min, g->max,
		            value);
	*(int *)((char *)ps->plan + g->field) = (int)v;
	return 0;
}

/* 0 or 1, kept in an int of the plan. */
static int set_flag(struct parser *ps, const struct global_key *g, const char *key,
                    const char *value, int cmdline, unsigned *bit)
{
	if (strcmp(value, "0") && strcmp(value, "1"))
		return fail(ps, "%s: expected 0 or 1, not '%s'", key, value);
	*(int *)((char *)ps->plan + g->field) = value[0] == '1';
	return 0;
}

/* cgroup.limit.FILE=VALUE: a file of the run's cgroup, written as it is. */
static int set_cgroup_limit(struct parser *ps, const struct global_key *g, const char *key,
                            const char *value, int cmdline, unsigned *bit)
{
	struct bb_plan *p = ps->plan;
	const char *file = key + strlen(g->key);
	struct bb_kv *kv;
	if (!name_ok(file, "._-") || file[0] == '.')
		return fail(ps, "%s: bad cgroup file name", key);
	if (!*value)
		return fail(ps, "%s: empty value", key);
	if ((kv = bb_kvs_find(&p->cgroup_limits, file))) {
		if (!cmdline)
			return fail(ps, "%s: duplicate key", key);
		return oom_or_ok(ps, set_str(&kv->value, value));
	}
	return oom_or_ok(ps, bb_kvs_add(&p->cgroup_limits, file, value));
}

static int set_monitor_key(struct parser *ps, const struct global_key *g, const char *key,
                           const char *value, int cmdline, unsigned *bit)
{
	return set_monitor_option(ps, key, value, cmdline);
}

/* a --set KEY=VALUE the job was built with, one per line: recorded only */
static int set_job_set(struct parser *ps, const struct global_key *g, const char *key,
                       const char *value, int cmdline, unsigned *bit)
{
	if (!strchr(value, '=') || value[0] == '=')
		return fail(ps, "job.set: expected KEY=VALUE, not '%s'", value);
	return oom_or_ok(ps, bb_strv_add(&ps->plan->job_sets, value));
}

static int set_job(struct parser *ps, const struct global_key *g, const char *key,
                   const char *value, int cmdline, unsigned *bit)
{
	return oom_or_ok(ps, set_str(&ps->plan->job, value));
}

static int set_digest(struct parser *ps, const struct global_key *g, const char *key,
                      const char *value, int cmdline, unsigned *bit)
{
	if (!*value || !name_ok(value, "") || strspn(value, "0123456789abcdef") != strlen(value))
		return fail(ps, "plan.digest: not lowercase hex: '%s'", value);
	return oom_or_ok(ps, set_str(&ps->plan->digest, value));
}

static int set_boot_group(struct parser *ps, const struct global_key *g, const char *key,
                          const char *value, int cmdline, unsigned *bit)
{
	long v;
	if (parse_int(value, 0, 1000000, &v))
		return fail(ps, "boot.group: not a number >= 0: '%s'", value);
	ps->plan->boot_group = (int)v;
	return 0;
}

static int set_boot_params(struct parser *ps, const struct global_key *g, const char *key,
                           const char *value, int cmdline, unsigned *bit)
{
	return oom_or_ok(ps, set_str(&ps->plan->boot_params, value));
}

/* VALUE one of NAMES (NULL-terminated), its index in *out; else -1 */
static int word_index(const char *value, const char *const *names, int *out)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(value, names[i])) {
			*out = i;
			return 0;
		}
	return -1;
}

static int set_cgroup_mode(struct parser *ps, const struct global_key *g, const char *key,
                           const char *value, int cmdline, unsigned *bit)
{
	static const char *const names[] = {"v2", "v1", "none", "hybrid", NULL};
	static const enum bb_cgroup_mode modes[] = {BB_CGROUP_V2, BB_CGROUP_V1, BB_CGROUP_NONE,
	                                            BB_CGROUP_HYBRID};
	int i;
	if (word_index(value, names, &i))
		return fail(ps, "cgroup.mode: expected v1, v2, hybrid or none, not '%s'", value);
	ps->plan->cgroup_mode = modes[i];
	return 0;
}

static int set_cgroup_path(struct parser *ps, const struct global_key *g, const char *key,
                           const char *value, int cmdline, unsigned *bit)
{
	if (cgroup_path_ok(value))
		return fail(ps,
		            "cgroup.path: '%s' is not a cgroup path (/NAME/NAME..., at most 4 levels "
		            "of [A-Za-z0-9._@-], no '.' or '..')",
		            value);
	return oom_or_ok(ps, set_str(&ps->plan->cgroup_path, value + 1));
}

/* Replace *sv with VALUE's words, each a name of [A-Za-z0-9] and EXTRA; WHAT for the error. */
static int set_names(struct parser *ps, const char *key, const char *value, struct bb_strv *sv,
                     const char *extra, const char *what)
{
	if (strv_split(sv, value))
		return fail(ps, "out of memory");
	for (size_t i = 0; i < sv->n; i++)
		if (!name_ok(sv->v[i], extra))
			return fail(ps, "%s: bad %s name '%s'", key, what, sv->v[i]);
	return 0;
}

static int set_cgroup_controllers(struct parser *ps, const struct global_key *g,
                                  const char *key, const char *value, int cmdline, unsigned *bit)
{
	return set_names(ps, key, value, &ps->plan->cgroup_controllers, "_", "controller");
}

static int set_governor(struct parser *ps, const struct global_key *g, const char *key,
                        const char *value, int cmdline, unsigned *bit)
{
	if (!name_ok(value, "_-"))
		return fail(ps, "cpufreq.governor: bad governor name '%s'", value);
	return oom_or_ok(ps, set_str(&ps->plan->cpufreq_governor, value));
}

static int set_net_dummy(struct parser *ps, const struct global_key *g, const char *key,
                         const char *value, int cmdline, unsigned *bit)
{
	if (!dummy_ok(value))
		return fail(ps, "net.dummy: expected IPv4ADDR/PREFIX, not '%s'", value);
	ps->plan->net_dummy_given = 1;
	return oom_or_ok(ps, set_str(&ps->plan->net_dummy, value));
}

static int set_nic_name(struct parser *ps, const struct global_key *g, const char *key,
                        const char *value, int cmdline, unsigned *bit)
{
	return nic_name_set(ps, value);
}

/* the net.nic.* keys other than the name and the wait need the name (checked at the end) */
static void nic_needs_name(struct parser *ps)
{
	if (!ps->nic_line)
		ps->nic_line = ps->lineno;
}

static int set_nic_list(struct parser *ps, const struct global_key *g, const char *key,
                        const char *value, int cmdline, unsigned *bit)
{
	int r = nic_list_set(ps, key, value, !strcmp(key, "net.nic.gateway"));
	if (!r)
		nic_needs_name(ps);
	return r;
}

static int set_nic_mtu(struct parser *ps, const struct global_key *g, const char *key,
                       const char *value, int cmdline, unsigned *bit)
{
	long v;
	if (parse_int(value, 68, 65535, &v))
		return fail(ps, "net.nic.mtu: expected 68..65535, not '%s'", value);
	ps->plan->nic_mtu = (int)v;
	nic_needs_name(ps);
	return 0;
}

static int set_cluster_key(struct parser *ps, const struct global_key *g, const char *key,
                           const char *value, int cmdline, unsigned *bit)
{
	return set_cluster(ps, key, value, cmdline, bit);
}

static int set_modules_boot(struct parser *ps, const struct global_key *g, const char *key,
                            const char *value, int cmdline, unsigned *bit)
{
	return set_names(ps, key, value, &ps->plan->modules_boot, "_-", "module");
}

static int set_monitors(struct parser *ps, const struct global_key *g, const char *key,
                        const char *value, int cmdline, unsigned *bit)
{
	struct bb_plan *p = ps->plan;
	p->monitors_cmdline = cmdline;
	if (monitors_split(&p->monitors, value))
		return fail(ps, "out of memory");
	for (size_t i = 0; i < p->monitors.n; i++)
		if (!bb_monitor_known(p->monitors.v[i]))
			return fail(ps, "monitors: '%s' is not a monitor benchboot runs",
			            p->monitors.v[i]);
	return 0;
}

static int set_order(struct parser *ps, const struct global_key *g, const char *key,
                     const char *value, int cmdline, unsigned *bit)
{
	static const char *const names[] = {"interleaved", "random", "blocked", NULL};
	static const enum bb_order orders[] = {BB_ORDER_INTERLEAVED, BB_ORDER_RANDOM,
	                                       BB_ORDER_BLOCKED};
	int i;
	if (word_index(value, names, &i))
		return fail(ps, "order: expected interleaved, random or blocked, not '%s'", value);
	ps->plan->order = orders[i];
	return 0;
}

static int set_order_seed(struct parser *ps, const struct global_key *g, const char *key,
                          const char *value, int cmdline, unsigned *bit)
{
	long v;
	if (parse_int(value, 0, 4294967295L, &v))
		return fail(ps, "order.seed: expected a number 0..4294967295, not '%s'", value);
	ps->plan->order_seed = (unsigned long)v;
	ps->plan->order_seed_set = 1;
	return 0;
}

static int set_debug_crash(struct parser *ps, const struct global_key *g, const char *key,
                           const char *value, int cmdline, unsigned *bit)
{
	if (!name_ok(value, "-_"))
		return fail(ps, "debug.crash: expected a step name, not '%s'", value);
	return oom_or_ok(ps, set_str(&ps->plan->debug_crash, value));
}

/* read by the results writer from /proc/cmdline (init/results.c) */
static int set_debug_disk_stat(struct parser *ps, const struct global_key *g, const char *key,
                               const char *value, int cmdline, unsigned *bit)
{
	if (strcmp(value, "0") && strcmp(value, "1"))
		return fail(ps, "%s: expected 0 or 1, not '%s'", key, value);
	return 0;
}

#define KEY(k, b, c, fn) {.key = k, .bit = b, .cmdline_only = c, .set = fn}
#define INT_KEY(k, b, w, lo, hi, f)                                                          \
	{.key = k, .bit = b, .set = set_int, .what = w, .min = lo, .max = hi,                     \
	 .field = offsetof(struct bb_plan, f)}
#define FLAG_KEY(k, b, c, f)                                                                 \
	{.key = k, .bit = b, .cmdline_only = c, .set = set_flag, .field = offsetof(struct bb_plan, f)}

/* The global keys, in the order of docs/plan.md (tests/host/docs-contracts.sh checks that each
 * is there, through bb_plan_each_key). */
static const struct global_key global_keys[] = {
    KEY("job", G_JOB, 0, set_job),
    KEY("job.set", 0, 0, set_job_set),
    KEY("plan.digest", G_DIGEST, 0, set_digest),
    KEY("boot.group", G_GROUP, 0, set_boot_group),
    KEY("boot.params", G_PARAMS, 0, set_boot_params),
    KEY("cgroup.mode", G_CGMODE, 0, set_cgroup_mode),
    KEY("cgroup.path", G_CGPATH, 0, set_cgroup_path),
    KEY("cgroup.controllers", G_CGCTRL, 0, set_cgroup_controllers),
    KEY("cgroup.limit.", 0, 0, set_cgroup_limit),
    KEY("cpufreq.governor", G_GOV, 0, set_governor),
    KEY("net.dummy", G_DUMMY, 0, set_net_dummy),
    KEY("net.nic.name", G_NICNAME, 0, set_nic_name),
    KEY("net.nic.address", G_NICADDR, 0, set_nic_list),
    KEY("net.nic.gateway", G_NICGW, 0, set_nic_list),
    KEY("net.nic.mtu", G_NICMTU, 0, set_nic_mtu),
    INT_KEY("net.nic.wait", G_NICWAIT, "seconds", 0, 600, nic_wait),
    INT_KEY("results.wait", G_RWAIT, "seconds", 0, 600, results_wait),
    INT_KEY("results.timeout", G_RTIMEOUT, "seconds", 1, 3600, results_timeout),
    INT_KEY("warmup", G_WARMUP, "iterations", 0, 10, warmup),
    INT_KEY("monitored", G_MONITORED, "iterations", 0, 10, monitored),
    INT_KEY("order.rotate", G_ROTATE, "a turn", 0, 1000000, order_rotate),
    INT_KEY("cluster.port", G_CPORT, "a port", 1, 65535, cluster_port),
    INT_KEY("cluster.wait", G_CWAIT, "seconds", 1, 3600, cluster_wait),
    KEY("cluster", G_CLUSTER, 0, set_cluster_key),
    KEY("cluster.host.", 0, 0, set_cluster_key),
    KEY("role", G_ROLE, 1, set_cluster_key),
    KEY("modules.boot", G_MODULES, 0, set_modules_boot),
    KEY("monitors", G_MONITORS, 0, set_monitors),
    KEY("monitor.", 0, 0, set_monitor_key),
    KEY("order", G_ORDER, 0, set_order),
    KEY("order.seed", G_SEED, 0, set_order_seed),
    FLAG_KEY("console.lava", G_LAVA, 0, console_lava),
    FLAG_KEY("poweroff", G_POWEROFF, 0, poweroff),
    FLAG_KEY("debug", G_DEBUG, 1, debug),
    KEY("debug.crash", G_DEBUG, 1, set_debug_crash),
    KEY("debug.disk_stat", G_DEBUG, 1, set_debug_disk_stat),
    FLAG_KEY("reboot", G_DEBUG, 1, reboot),
};

/* KEY's entry: the whole key, else the longest prefix entry it begins with (cluster.host.0.x
 * is cluster.host.'s, not cluster's); NULL for a key not known here (or known only on the
 * command line, outside it). */
static const struct global_key *global_key_of(const char *key, int cmdline)
{
	const struct global_key *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < sizeof(global_keys) / sizeof(global_keys[0]); i++) {
		const struct global_key *g = &global_keys[i];
		size_t n = strlen(g->key);
		int hit = g->key[n - 1] == '.' ? !strncmp(key, g->key, n) : !strcmp(key, g->key);
		if (hit && (cmdline || !g->cmdline_only) && n > best_len) {
			best = g;
			best_len = n;
		}
	}
	return best;
}

/* A global key; cmdline: from benchboot.KEY (repeats override, `debug` and `reboot` allowed). */
static int set_global(struct parser *ps, const char *key, const char *value, int cmdline)
{
	const struct global_key *g = global_key_of(key, cmdline);
	if (!g)
		return fail(ps, "unknown %skey '%s'", cmdline ? "" : "global ", key);
	unsigned bit = g->bit;
	int r = g->set(ps, g, key, value, cmdline, &bit);
	if (r || !bit)
		return r;
	if (!cmdline && (ps->global_seen & bit))
		return fail(ps, "%s: duplicate key", key);
	ps->global_seen |= bit;
	return 0;
}

enum {
	R_SUITE = 1 << 0,
	R_ITER = 1 << 1,
	R_RUNTIME = 1 << 2,
	R_GRACE = 1 << 3,
	R_COUNT = 1 << 4,
	R_CPUS = 1 << 5,
};

/* server.N.FIELD's fields */
enum { SERVER_ARG, SERVER_READY, SERVER_CPUS };
static const char *const server_fields[] = {"arg", "ready", "cpus", NULL};

static int set_server(struct parser *ps, const char *key, const char *value)
{
	struct bb_plan_run *run = ps->run;
	char *end;
	const char *s = key + 7;
	if (*s < '0' || *s > '9')
		return fail(ps, "%s: expected server.N.arg, .ready or .cpus", key);
	unsigned long n = strtoul(s, &end, 10);
	if (*end != '.' || n >= SERVERS_MAX || (s[0] == '0' && s[1] != '.'))
		return fail(ps, "%s: bad server number (0 to %d)", key, SERVERS_MAX - 1);
	if (n >= run->nservers) {
		if (bb_grow(&run->servers, &run->servers_cap, n + 1, sizeof(*run->servers)))
			return fail(ps, "out of memory");
		memset(run->servers + run->nservers, 0,
		       (n + 1 - run->nservers) * sizeof(*run->servers));
		run->nservers = n + 1;
	}
	struct bb_plan_server *srv = &run->servers[n];
	int field = field_index(end + 1, server_fields);
	if (field == SERVER_ARG) {
		if (bb_strv_add(&srv->argv, value))
			return fail(ps, "out of memory");
		return 0;
	}
	if (field == SERVER_READY) {
		if (srv->ready)
			return fail(ps, "%s: duplicate key", key);
		if (!ready_ok(value))
			return fail(ps, "%s: expected tcp:ADDR:PORT, not '%s'", key, value);
		return set_str(&srv->ready, value) ? fail(ps, "out of memory") : 0;
	}
	if (field == SERVER_CPUS) {
		if (srv->cpus)
			return fail(ps, "%s: duplicate key", key);
		if (!cpus_ok(value))
			return fail(ps, "%s: bad CPU list '%s'", key, value);
		return set_str(&srv->cpus, value) ? fail(ps, "out of memory") : 0;
	}
	return fail(ps, "unknown run key '%s'", key);
}

/* The run keys' setters, as the global keys' (set_global): *bit preset to the key's R_ bit. */
typedef int run_setter(struct parser *ps, const char *key, const char *value, unsigned *bit);

static int set_param(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	struct bb_plan_run *run = ps->run;
	if (!key[6])
		return fail(ps, "param.: empty parameter name");
	if (bb_kvs_find(&run->params, key + 6))
		return fail(ps, "%s: duplicate key", key);
	return oom_or_ok(ps, bb_kvs_add(&run->params, key + 6, value));
}

static int set_sysctl(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	struct bb_plan_run *run = ps->run;
	const char *name = key + 7;
	if (!name_ok(name, "._-") || name[0] == '.' || strstr(name, ".."))
		return fail(ps, "%s: bad sysctl name", key);
	if (bb_kvs_find(&run->sysctls, name))
		return fail(ps, "%s: duplicate key", key);
	return oom_or_ok(ps, bb_kvs_add(&run->sysctls, name, value));
}

static int set_server_key(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	return set_server(ps, key, value);
}

static int set_suite(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	if (!name_ok(value, "._-"))
		return fail(ps, "suite: bad suite name '%s'", value);
	return oom_or_ok(ps, set_str(&ps->run->suite, value));
}

static int set_iterations(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	long v;
	if (parse_int(value, 1, 100000, &v))
		return fail(ps, "iterations: expected a number >= 1, not '%s'", value);
	ps->run->iterations = (int)v;
	return 0;
}

static int set_run_seconds(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	if (parse_seconds(value, key[0] == 'r' ? &ps->run->runtime : &ps->run->grace))
		return fail(ps, "%s: expected seconds, not '%s'", key, value);
	return 0;
}

static int set_needs_module(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	if (!name_ok(value, "_-"))
		return fail(ps, "needs.module: bad module name '%s'", value);
	return oom_or_ok(ps, bb_strv_add(&ps->run->needs_modules, value));
}

static int set_client_arg(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	return oom_or_ok(ps, bb_strv_add(&ps->run->client_argv, value));
}

static int set_monitored_arg(struct parser *ps, const char *key, const char *value,
                             unsigned *bit)
{
	return oom_or_ok(ps, bb_strv_add(&ps->run->monitored_argv, value));
}

static int set_monitored_runtime(struct parser *ps, const char *key, const char *value,
                                 unsigned *bit)
{
	if (parse_seconds(value, &ps->run->monitored_runtime) || ps->run->monitored_runtime <= 0)
		return fail(ps, "%s: expected seconds > 0, not '%s'", key, value);
	return 0;
}

/* client.count=N, or P%: a share of the CPUs the init counts */
static int set_client_count(struct parser *ps, const char *key, const char *value,
                            unsigned *bit)
{
	struct bb_plan_run *run = ps->run;
	size_t len = strlen(value);
	long v;
	if (len && value[len - 1] == '%') {
		char num[16];
		if (len > sizeof(num))
			return fail(ps, "client.count: bad percentage '%s'", value);
		memcpy(num, value, len - 1);
		num[len - 1] = 0;
		if (parse_int(num, 1, 100000, &v))
			return fail(ps, "client.count: bad percentage '%s'", value);
		run->client_percent = (int)v;
		return 0;
	}
	if (parse_int(value, 1, 100000, &v))
		return fail(ps, "client.count: expected N or P%%, not '%s'", value);
	run->client_count = (int)v;
	run->client_percent = -1;
	return 0;
}

static int set_client_cpus(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	if (!cpus_ok(value))
		return fail(ps, "client.cpus: bad CPU list '%s'", value);
	return oom_or_ok(ps, set_str(&ps->run->client_cpus, value));
}

/* The keys of a [run RUNID] section, in the order of docs/plan.md; a key ending in '.' stands
 * for each key that begins with it. */
static const struct run_key {
	const char *key;
	unsigned bit;
	run_setter *set;
} run_keys[] = {
    {"suite", R_SUITE, set_suite},
    {"iterations", R_ITER, set_iterations},
    {"runtime", R_RUNTIME, set_run_seconds},
    {"grace", R_GRACE, set_run_seconds},
    {"param.", 0, set_param},
    {"sysctl.", 0, set_sysctl},
    {"needs.module", 0, set_needs_module},
    {"server.", 0, set_server_key},
    {"client.arg", 0, set_client_arg},
    {"client.count", R_COUNT, set_client_count},
    {"client.cpus", R_CPUS, set_client_cpus},
    {"monitored.runtime", 0, set_monitored_runtime},
    {"monitored.client.arg", 0, set_monitored_arg},
};

static int set_run(struct parser *ps, const char *key, const char *value)
{
	const struct run_key *rk = NULL;
	for (size_t i = 0; !rk && i < sizeof(run_keys) / sizeof(run_keys[0]); i++) {
		size_t n = strlen(run_keys[i].key);
		if (run_keys[i].key[n - 1] == '.' ? !strncmp(key, run_keys[i].key, n)
		                                  : !strcmp(key, run_keys[i].key))
			rk = &run_keys[i];
	}
	if (!rk)
		return fail(ps, "unknown run key '%s'", key);
	unsigned bit = rk->bit;
	int r = rk->set(ps, key, value, &bit);
	if (r || !bit)
		return r;
	if (ps->run_seen & bit)
		return fail(ps, "%s: duplicate key", key);
	ps->run_seen |= bit;
	return 0;
}

/* Checks that need the whole section. */
static int end_run(struct parser *ps)
{
	struct bb_plan_run *run = ps->run;
	if (!run)
		return 0;
	if (!run->suite)
		return fail(ps, "run %s: missing key 'suite'", run->id);
	if (!(ps->run_seen & R_RUNTIME))
		return fail(ps, "run %s: missing key 'runtime'", run->id);
	if (!run->client_argv.n)
		return fail(ps, "run %s: missing key 'client.arg'", run->id);
	if (!run->monitored_argv.n != !run->monitored_runtime)
		return fail(ps, "run %s: monitored.runtime and monitored.client.arg come together",
		            run->id);
	for (size_t i = 0; i < run->nservers; i++)
		if (!run->servers[i].argv.n)
			return fail(ps, "run %s: server.%zu has no server.%zu.arg", run->id, i, i);
	return 0;
}

static int start_run(struct parser *ps, const char *line, size_t len)
{
	struct bb_plan *p = ps->plan;
	if (len < 7 || strncmp(line, "[run ", 5) || line[len - 1] != ']')
		return fail(ps, "expected '[run RUNID]'");
	const char *id = line + 5;
	size_t idlen = len - 6;
	if (!idlen || idlen > RUNID_MAX)
		return fail(ps, "run id must have 1 to %d characters", RUNID_MAX);
	for (size_t i = 0; i < idlen; i++)
		if (!name_ok((char[]){id[i], 0}, "._+=-"))
			return fail(ps, "run id: character '%c' not allowed (A-Za-z0-9._+=-)",
			            id[i]);
	for (size_t i = 0; i < p->nruns; i++)
		if (strlen(p->runs[i].id) == idlen && !strncmp(p->runs[i].id, id, idlen))
			return fail(ps, "duplicate run id '%.*s' (first on line %d)", (int)idlen,
			            id, p->runs[i].line);
	if (bb_grow(&p->runs, &p->runs_cap, p->nruns + 1, sizeof(*p->runs)))
		return fail(ps, "out of memory");
	ps->run = &p->runs[p->nruns++];
	memset(ps->run, 0, sizeof(*ps->run));
	ps->run->iterations = 1;
	ps->run->grace = 30;
	ps->run->client_count = 1;
	ps->run->client_percent = -1;
	ps->run->line = ps->lineno;
	ps->run_seen = 0;
	if (!(ps->run->id = strndup(id, idlen)))
		return fail(ps, "out of memory");
	return 0;
}

static void plan_defaults(struct bb_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->cgroup_mode = BB_CGROUP_V2;
	p->console_lava = 1;
	p->poweroff = 1;
	p->nic_wait = 10;
	p->cluster_port = BB_CLUSTER_PORT;
	p->cluster_wait = BB_CLUSTER_WAIT;
	p->results_timeout = BB_RESULTS_TIMEOUT;
	p->monitored = BB_MONITORED_DEFAULT;
}

int bb_plan_parse(const char *text, size_t len, struct bb_plan *plan, char *err, size_t errlen)
{
	struct parser ps = {.plan = plan};
	char msg[512] = "";
	int lineno = 0, r = 0;
	const char *p = text, *end = text + len;

	ps.msg = msg;
	ps.msglen = sizeof(msg);
	plan_defaults(plan);
	const char *nul = memchr(text, 0, len);
	if (nul) {
		lineno = 1;
		for (const char *q = text; q < nul; q++)
			lineno += *q == '\n';
		r = fail(&ps, "NUL byte in the plan");
		goto out;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = strndup(p, n);
		ps.lineno = ++lineno;
		p += n + (nl ? 1 : 0);
		if (!line) {
			r = fail(&ps, "out of memory");
			goto out;
		}
		if (lineno == 1) {
			if (strcmp(line, "benchboot-plan 1")) {
				if (!strncmp(line, "benchboot-plan ", 15))
					r = fail(&ps,
					         "plan version '%s' not supported (this init reads "
					         "version %d)",
					         line + 15, BB_PLAN_VERSION);
				else
					r = fail(
					    &ps,
					    "not a benchboot plan (expected 'benchboot-plan %d')",
					    BB_PLAN_VERSION);
			}
		} else if (strchr(line, '\r')) {
			r = fail(&ps, "carriage return in line");
		} else if (!n || line[0] == '#') {
			r = 0;
		} else if (line[0] == '[') {
			if (!(r = end_run(&ps)))
				r = start_run(&ps, line, n);
		} else {
			char *eq = strchr(line, '=');
			if (!eq)
				r = fail(&ps, "expected key=value");
			else if (eq == line)
				r = fail(&ps, "empty key");
			else if (eq[-1] == ' ' || eq[-1] == '\t' || eq[1] == ' ' || eq[1] == '\t')
				r = fail(&ps, "no spaces around '=' please");
			else if (strpbrk(line, " \t") && strpbrk(line, " \t") < eq)
				r = fail(&ps, "space in key");
			else {
				*eq = 0;
				r = ps.run ? set_run(&ps, line, eq + 1)
				           : set_global(&ps, line, eq + 1, 0);
			}
		}
		free(line);
		if (r)
			goto out;
	}
	if (lineno == 0) {
		lineno = 1;
		r = fail(&ps, "empty plan (expected 'benchboot-plan %d')", BB_PLAN_VERSION);
		goto out;
	}
	r = end_run(&ps);
	if (!r && (r = end_cluster(&ps)))
		lineno = ps.lineno;
	if (!r && ps.nic_line && !plan->nic_name) {
		lineno = ps.nic_line;
		r = fail(&ps, "net.nic.address, .gateway and .mtu need net.nic.name (which NIC)");
	}
	if (!r && !plan->net_dummy && set_str(&plan->net_dummy, "192.0.2.1/24"))
		r = fail(&ps, "out of memory");
out:
	if (r) {
		snprintf(err, errlen, "plan:%d: %s", lineno, msg);
		bb_plan_free(plan);
	}
	return r;
}

/* Next word of a kernel command line: spaces separate, double quotes group (and are removed),
 * as the kernel's own parser does. */
static const char *next_word(const char *s, char *word, size_t len)
{
	size_t n = 0;
	int quoted = 0;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s)
		return NULL;
	for (; *s && (quoted || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (n + 1 < len)
			word[n++] = *s;
	}
	word[n] = 0;
	return s;
}

int bb_plan_cmdline(struct bb_plan *plan, const char *cmdline, char *report, size_t reportlen)
{
	struct parser ps = {.plan = plan};
	char msg[512], word[1024];
	size_t off = 0;
	int problems = 0;

	ps.msg = msg;
	ps.msglen = sizeof(msg);
	if (reportlen)
		report[0] = 0;
	for (const char *s = cmdline; (s = next_word(s, word, sizeof(word)));) {
		if (strncmp(word, "benchboot.", 10))
			continue;
		char *key = word + 10, *eq = strchr(key, '=');
		int r;
		if (!eq)
			r = fail(&ps, "missing '=VALUE'");
		else {
			*eq = 0;
			r = set_global(&ps, key, eq + 1, 1);
			if (r && !strncmp(msg, "unknown key", 11))
				snprintf(msg, sizeof(msg),
				         "unknown key (not a documented plan key)");
			else if (r && !strncmp(msg, key, strlen(key)) && msg[strlen(key)] == ':')
				memmove(msg, msg + strlen(key) + 2,
				        strlen(msg + strlen(key) + 2) + 1);
		}
		if (!r)
			continue;
		problems++;
		if (off < reportlen)
			off += (size_t)snprintf(report + off, reportlen - off,
			                        "%scmdline: benchboot.%s: %s", off ? "\n" : "", key,
			                        msg);
	}
	if (plan->cluster && plan->role == BB_ROLE_CLIENT && !plan->net_dummy_given)
		(void)set_str(&plan->net_dummy, "192.0.2.2/24"); /* out of memory: .1 stays */
	return problems;
}

int bb_plan_clients(const struct bb_plan_run *run, unsigned ncpu)
{
	if (run->client_percent < 0)
		return run->client_count;
	return (int)((long)run->client_percent * (long)ncpu / 100);
}

const char *bb_plan_cgroup_path(const struct bb_plan *p)
{
	return p->cgroup_path ? p->cgroup_path : "benchboot";
}

const char *bb_cgroup_mode_name(enum bb_cgroup_mode m)
{
	return m == BB_CGROUP_V2       ? "v2"
	       : m == BB_CGROUP_V1     ? "v1"
	       : m == BB_CGROUP_HYBRID ? "hybrid"
	                               : "none";
}

void bb_plan_free(struct bb_plan *plan)
{
	for (size_t i = 0; i < plan->nruns; i++) {
		struct bb_plan_run *r = &plan->runs[i];
		free(r->id);
		free(r->suite);
		bb_kvs_free(&r->params);
		bb_strv_free(&r->needs_modules);
		bb_kvs_free(&r->sysctls);
		for (size_t j = 0; j < r->nservers; j++) {
			bb_strv_free(&r->servers[j].argv);
			free(r->servers[j].ready);
			free(r->servers[j].cpus);
		}
		free(r->servers);
		bb_strv_free(&r->client_argv);
		bb_strv_free(&r->monitored_argv);
		free(r->client_cpus);
	}
	free(plan->runs);
	free(plan->debug_crash);
	free(plan->job);
	free(plan->digest);
	free(plan->boot_params);
	bb_strv_free(&plan->cgroup_controllers);
	bb_kvs_free(&plan->cgroup_limits);
	free(plan->cgroup_path);
	bb_strv_free(&plan->job_sets);
	free(plan->cpufreq_governor);
	free(plan->net_dummy);
	free(plan->nic_name);
	bb_strv_free(&plan->nic_address);
	bb_strv_free(&plan->nic_gateway);
	bb_strv_free(&plan->modules_boot);
	bb_strv_free(&plan->monitors);
	bb_kvs_free(&plan->monitor_options);
	free(plan->cluster);
	for (int h = 0; h < BB_CLUSTER_HOSTS; h++) {
		free(plan->hosts[h].name);
		free(plan->hosts[h].address);
		free(plan->hosts[h].nic);
	}
	memset(plan, 0, sizeof(*plan));
}

const char *bb_order_name(enum bb_order o)
{
	return o == BB_ORDER_BLOCKED ? "blocked" : o == BB_ORDER_RANDOM ? "random" : "interleaved";
}

const char *bb_role_name(enum bb_role r)
{
	return r == BB_ROLE_SERVER ? "server" : r == BB_ROLE_CLIENT ? "client" : "none";
}

const struct bb_plan_host *bb_plan_host_of(const struct bb_plan *plan, enum bb_role r)
{
	if (!plan->cluster || r == BB_ROLE_NONE)
		return NULL;
	for (int h = 0; h < BB_CLUSTER_HOSTS; h++)
		if (plan->hosts[h].role == r)
			return &plan->hosts[h];
	return NULL;
}

/* splitmix64: a small, well-mixed generator; the same seed gives the same order everywhere. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int bb_plan_sequence(const struct bb_plan *plan, unsigned long seed, struct bb_plan_step **out,
                     size_t *n)
{
	size_t total = 0, k = 0;
	int rounds = 0;
	*out = NULL;
	*n = 0;
	for (size_t r = 0; r < plan->nruns; r++) {
		total += (size_t)plan->runs[r].iterations;
		if (plan->runs[r].iterations > rounds)
			rounds = plan->runs[r].iterations;
	}
	if (!total)
		return 0;
	struct bb_plan_step *v = calloc(total, sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* the runs in turn order: run (j + order_rotate) mod nruns at turn j (A B, then B A) */
	size_t turn0 = (size_t)plan->order_rotate % plan->nruns;
	if (plan->order == BB_ORDER_BLOCKED) {
		for (size_t j = 0; j < plan->nruns; j++) {
			size_t r = (j + turn0) % plan->nruns;
			for (int i = 1; i <= plan->runs[r].iterations; i++)
				v[k++] = (struct bb_plan_step){r, i};
		}
	} else {
		/* interleaved: round i has iteration i of every run that has one (A1 B1 A2 B2) */
		for (int i = 1; i <= rounds; i++)
			for (size_t j = 0; j < plan->nruns; j++) {
				size_t r = (j + turn0) % plan->nruns;
				if (plan->runs[r].iterations >= i)
					v[k++] = (struct bb_plan_step){r, i};
			}
	}
	if (plan->order == BB_ORDER_RANDOM) {
		/* shuffle which run comes at each position (Fisher-Yates), then number each run's
		 * iterations in the order they come, so iteration 1 is still its first */
		uint64_t state = seed;
		for (size_t i = total - 1; i > 0; i--) {
			size_t j = (size_t)(next_random(&state) % (i + 1));
			size_t t = v[i].run;
			v[i].run = v[j].run;
			v[j].run = t;
		}
		int *seen = calloc(plan->nruns, sizeof(*seen));
		if (!seen) {
			free(v);
			return -ENOMEM;
		}
		for (size_t i = 0; i < total; i++)
			v[i].iter = ++seen[v[i].run];
		free(seen);
	}
	*out = v;
	*n = total;
	return 0;
}

void bb_plan_each_key(void (*each)(const char *kind, const char *name, const char *field,
                                   void *arg),
                      void *arg)
{
	for (size_t i = 0; i < sizeof(global_keys) / sizeof(global_keys[0]); i++) {
		const char *k = global_keys[i].key;
		each(k[strlen(k) - 1] == '.' ? "prefix" : "key", k, NULL, arg);
	}
	for (size_t i = 0; i < sizeof(run_keys) / sizeof(run_keys[0]); i++) {
		const char *k = run_keys[i].key;
		each(k[strlen(k) - 1] == '.' ? "prefix" : "key", k, NULL, arg);
	}
	for (size_t i = 0; host_fields[i]; i++)
		each("field", "cluster.host.", host_fields[i], arg);
	for (size_t i = 0; server_fields[i]; i++)
		each("field", "server.", server_fields[i], arg);
}
