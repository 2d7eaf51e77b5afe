/*
 * The plan's keys (docs/plan.md): the global keys and a run section's keys as tables of
 * setters, each checking its value and storing it in the plan; the fields of
 * cluster.host.N.* and server.N.*; bb_plan_each_key lists them all for the documentation check.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "parse/parse_monitor.h"
#include "parse/parse_perf.h"
#include "plan/plan_parser.h"

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
		return plan_set_str(&ps->plan->nic_name, mac) ? plan_fail(ps, "out of memory") : 0;
	}
	if (!len || len > 15 || !plan_name_ok(value, "._-@") || !strcmp(value, ".") ||
	    !strcmp(value, ".."))
		return plan_fail(
		    ps,
		    "net.nic.name: expected an interface name (e.g. eth0) or a MAC address "
		    "(xx:xx:xx:xx:xx:xx), not '%s'",
		    value);
	return plan_set_str(&ps->plan->nic_name, value) ? plan_fail(ps, "out of memory") : 0;
}

/* net.nic.address (ADDR/PREFIX words) and net.nic.gateway (ADDR words, one per family). */
static int nic_list_set(struct parser *ps, const char *key, const char *value, int gateway)
{
	struct bb_strv *sv = gateway ? &ps->plan->nic_gateway : &ps->plan->nic_address;
	char addr[64];
	unsigned char buf[16];
	int prefix, families = 0;
	if (plan_strv_split(sv, value))
		return plan_fail(ps, "out of memory");
	if (!sv->n)
		return plan_fail(ps, "%s: empty value", key);
	if (sv->n > 8)
		return plan_fail(ps, "%s: at most 8 addresses", key);
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
			return plan_fail(
			    ps, "%s: expected %s, not '%s'", key,
			    gateway ? "an IPv4 or IPv6 address"
			            : "IPv4ADDR/PREFIX or IPv6ADDR/PREFIX (e.g. 10.0.2.15/24)",
			    w);
		int bit = family == AF_INET ? 1 : 2;
		if (gateway && (families & bit))
			return plan_fail(ps, "%s: one gateway per address family, not two %s ones",
			                 key, family == AF_INET ? "IPv4" : "IPv6");
		families |= bit;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(sv->v[j], w))
				return plan_fail(ps, "%s: '%s' given twice", key, w);
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
	G_DISK = 1 << 29,
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

const char *bb_role_name(enum bb_role r)
{
	return r == BB_ROLE_SERVER ? "server" : r == BB_ROLE_CLIENT ? "client" : "none";
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
		return plan_fail(
		    ps,
		    "%s: expected cluster.host.N.name, .role, .address or .nic with N 0 "
		    "or 1",
		    key);
	struct bb_plan_host *h = &ps->plan->hosts[s[0] - '0'];
	unsigned *seen = &ps->host_seen[s[0] - '0'], bit;
	char **dst = NULL;
	int f = field_index(s + 2, host_fields);
	bit = f < 0 ? 0 : 1u << f; /* H_NAME, H_ROLE, H_ADDR, H_NIC */
	if (bit == H_NAME) {
		if (!plan_name_ok(value, "._-"))
			return plan_fail(ps, "%s: expected a host name (A-Za-z0-9._-), not '%s'",
			                 key, value);
		dst = &h->name;
	} else if (bit == H_ROLE) {
		if (role_parse(value, &h->role))
			return plan_fail(ps, "%s: expected server or client, not '%s'", key, value);
	} else if (bit == H_ADDR) {
		if (bb_plan_addr_prefix(value, addr, sizeof(addr), &prefix) != AF_INET)
			return plan_fail(
			    ps, "%s: expected IPv4ADDR/PREFIX (e.g. 192.168.77.1/24), not '%s'",
			    key, value);
		dst = &h->address;
	} else if (bit == H_NIC) {
		if (bb_plan_is_mac(value)) {
			char mac[18];
			for (size_t i = 0; i < sizeof(mac); i++)
				mac[i] = (char)(value[i] >= 'A' && value[i] <= 'F' ? value[i] + 32
				                                                   : value[i]);
			if (plan_set_str(&h->nic, mac))
				return plan_fail(ps, "out of memory");
		} else if (strlen(value) > 15 || !plan_name_ok(value, "._-@")) {
			return plan_fail(
			    ps,
			    "%s: expected an interface name (e.g. eth0) or a MAC address "
			    "(xx:xx:xx:xx:xx:xx), not '%s'",
			    key, value);
		}
	} else {
		return plan_fail(ps, "unknown global key '%s'", key);
	}
	if (*seen & bit)
		return plan_fail(ps, "%s: duplicate key", key);
	*seen |= bit;
	if (!ps->host_line)
		ps->host_line = ps->lineno;
	if (dst && plan_set_str(dst, value))
		return plan_fail(ps, "out of memory");
	if (bit == H_NIC && !h->nic && plan_set_str(&h->nic, value))
		return plan_fail(ps, "out of memory");
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
			return plan_fail(ps, "role: expected server or client, not '%s'", value);
		return 0;
	}
	if (cmdline && strcmp(key, "cluster.port") && strcmp(key, "cluster.wait"))
		return plan_fail(
		    ps,
		    "%s: only cluster.port and cluster.wait may be given on the command "
		    "line (the cluster is in the plan)",
		    key);
	if (!strcmp(key, "cluster")) {
		*bit = G_CLUSTER;
		if (!plan_name_ok(value, "._-"))
			return plan_fail(
			    ps, "cluster: expected a cluster name (A-Za-z0-9._-), not '%s'", value);
		ps->cluster_line = ps->lineno;
		return plan_set_str(&p->cluster, value) ? plan_fail(ps, "out of memory") : 0;
	}
	if (!strncmp(key, "cluster.host.", 13))
		return set_cluster_host(ps, key, value);
	return plan_fail(ps, "unknown %skey '%s'", cmdline ? "" : "global ", key);
}

/* The cluster as a whole, after the last line: two hosts, one of each role, all fields. */
int plan_end_cluster(struct parser *ps)
{
	struct bb_plan *p = ps->plan;
	static const struct {
		unsigned bit;
		const char *name;
	} need[] = {{H_NAME, "name"}, {H_ROLE, "role"}, {H_ADDR, "address"}};
	if (!p->cluster) {
		if (ps->host_line) {
			ps->lineno = ps->host_line;
			return plan_fail(ps, "cluster.host.* keys need cluster=NAME");
		}
		return 0;
	}
	ps->lineno = ps->cluster_line;
	for (int h = 0; h < BB_CLUSTER_HOSTS; h++)
		for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			if (!(ps->host_seen[h] & need[i].bit))
				return plan_fail(ps, "cluster=%s: missing key 'cluster.host.%d.%s'",
				                 p->cluster, h, need[i].name);
	if (p->hosts[0].role == p->hosts[1].role)
		return plan_fail(ps,
		                 "cluster=%s: cluster.host.0.role and cluster.host.1.role are both "
		                 "'%s' (one server and one client)",
		                 p->cluster, bb_role_name(p->hosts[0].role));
	if (!strcmp(p->hosts[0].name, p->hosts[1].name))
		return plan_fail(ps, "cluster=%s: both hosts are named '%s'", p->cluster,
		                 p->hosts[0].name);
	char a0[INET6_ADDRSTRLEN], a1[INET6_ADDRSTRLEN];
	int l0, l1;
	bb_plan_addr_prefix(p->hosts[0].address, a0, sizeof(a0), &l0);
	bb_plan_addr_prefix(p->hosts[1].address, a1, sizeof(a1), &l1);
	if (!strcmp(a0, a1))
		return plan_fail(ps, "cluster=%s: both hosts have the address %s", p->cluster, a0);
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
		return plan_fail(ps, "%s: expected monitor.NAME.OPTION", key);
	snprintf(opt, sizeof opt, "%s", dot + 1);
	char mon[64];
	snprintf(mon, sizeof mon, "%.*s", (int)(dot - name), name);
	if (!plan_name_ok(mon, "_-") || !plan_name_ok(opt, "_-"))
		return plan_fail(ps, "%s: bad monitor or option name", key);
	if (!*value)
		return plan_fail(ps, "%s: empty value", key);
	int timed = !strcmp(opt, "interval") || !strcmp(opt, "duration") || !strcmp(opt, "delay");
	if (timed && (plan_parse_seconds(value, &secs) || secs > 86400 ||
	              (secs < 0.01 && strcmp(opt, "delay"))))
		return plan_fail(ps, "%s: expected seconds%s, not '%s'", key,
		                 strcmp(opt, "delay") ? " 0.01..86400" : " 0..86400", value);
	struct bb_kv *kv = bb_kvs_find(&ps->plan->monitor_options, name);
	if (kv) {
		if (!cmdline)
			return plan_fail(ps, "%s: duplicate key", key);
		return plan_set_str(&kv->value, value) ? plan_fail(ps, "out of memory") : 0;
	}
	return bb_kvs_add(&ps->plan->monitor_options, name, value) ? plan_fail(ps, "out of memory")
	                                                           : 0;
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
	const char *what; /* the error says "KEY: expected WHAT MIN..MAX, not 'VALUE'" (or WHAT) */
	const char *const *words; /* set_word's, in the order of the enum's values */
	long min, max;
	size_t field; /* offsetof(struct bb_plan, ...), an int */
};

static int oom_or_ok(struct parser *ps, int r)
{
	return r ? plan_fail(ps, "out of memory") : 0;
}

/* A whole number in a range, kept in an int of the plan. */
static int set_int(struct parser *ps, const struct global_key *g, const char *key,
                   const char *value, int cmdline, unsigned *bit)
{
	long v;
	if (plan_parse_int(value, g->min, g->max, &v))
		return plan_fail(ps, "%s: expected %s %ld..%ld, not '%s'", key, g->what, g->min,
		                 g->max, value);
	*(int *)((char *)ps->plan + g->field) = (int)v;
	return 0;
}

/* 0 or 1, kept in an int of the plan. */
static int set_flag(struct parser *ps, const struct global_key *g, const char *key,
                    const char *value, int cmdline, unsigned *bit)
{
	if (strcmp(value, "0") && strcmp(value, "1"))
		return plan_fail(ps, "%s: expected 0 or 1, not '%s'", key, value);
	*(int *)((char *)ps->plan + g->field) = value[0] == '1';
	return 0;
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

_Static_assert(sizeof(enum bb_cgroup_mode) == sizeof(int) && sizeof(enum bb_order) == sizeof(int),
               "set_word stores the enums as ints");

/* One of the words G->words (NULL-terminated, in the order of the enum's values), kept as the
 * enum (an int) in the plan; G->what lists them in the error. */
static int set_word(struct parser *ps, const struct global_key *g, const char *key,
                    const char *value, int cmdline, unsigned *bit)
{
	int i;
	if (word_index(value, g->words, &i))
		return plan_fail(ps, "%s: expected %s, not '%s'", key, g->what, value);
	*(int *)((char *)ps->plan + g->field) = i;
	return 0;
}

/* cgroup.limit.FILE=VALUE: a file of the run's cgroup, written as it is. */
static int set_cgroup_limit(struct parser *ps, const struct global_key *g, const char *key,
                            const char *value, int cmdline, unsigned *bit)
{
	struct bb_plan *p = ps->plan;
	const char *file = key + strlen(g->key);
	struct bb_kv *kv;
	if (!plan_name_ok(file, "._-") || file[0] == '.')
		return plan_fail(ps, "%s: bad cgroup file name", key);
	if (!*value)
		return plan_fail(ps, "%s: empty value", key);
	if ((kv = bb_kvs_find(&p->cgroup_limits, file))) {
		if (!cmdline)
			return plan_fail(ps, "%s: duplicate key", key);
		return oom_or_ok(ps, plan_set_str(&kv->value, value));
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
		return plan_fail(ps, "job.set: expected KEY=VALUE, not '%s'", value);
	return oom_or_ok(ps, bb_strv_add(&ps->plan->job_sets, value));
}

static int set_job(struct parser *ps, const struct global_key *g, const char *key,
                   const char *value, int cmdline, unsigned *bit)
{
	return oom_or_ok(ps, plan_set_str(&ps->plan->job, value));
}

static int set_digest(struct parser *ps, const struct global_key *g, const char *key,
                      const char *value, int cmdline, unsigned *bit)
{
	if (!*value || !plan_name_ok(value, "") ||
	    strspn(value, "0123456789abcdef") != strlen(value))
		return plan_fail(ps, "plan.digest: not lowercase hex: '%s'", value);
	return oom_or_ok(ps, plan_set_str(&ps->plan->digest, value));
}

static int set_boot_group(struct parser *ps, const struct global_key *g, const char *key,
                          const char *value, int cmdline, unsigned *bit)
{
	long v;
	if (plan_parse_int(value, 0, 1000000, &v))
		return plan_fail(ps, "boot.group: not a number >= 0: '%s'", value);
	ps->plan->boot_group = (int)v;
	return 0;
}

static int set_boot_params(struct parser *ps, const struct global_key *g, const char *key,
                           const char *value, int cmdline, unsigned *bit)
{
	return oom_or_ok(ps, plan_set_str(&ps->plan->boot_params, value));
}

static int set_cgroup_path(struct parser *ps, const struct global_key *g, const char *key,
                           const char *value, int cmdline, unsigned *bit)
{
	if (plan_cgroup_path_ok(value))
		return plan_fail(
		    ps,
		    "cgroup.path: '%s' is not a cgroup path (/NAME/NAME..., at most 4 levels "
		    "of [A-Za-z0-9._@-], no '.' or '..')",
		    value);
	return oom_or_ok(ps, plan_set_str(&ps->plan->cgroup_path, value + 1));
}

/* Replace *sv with VALUE's words, each a name of [A-Za-z0-9] and EXTRA; WHAT for the error. */
static int set_names(struct parser *ps, const char *key, const char *value, struct bb_strv *sv,
                     const char *extra, const char *what)
{
	if (plan_strv_split(sv, value))
		return plan_fail(ps, "out of memory");
	for (size_t i = 0; i < sv->n; i++)
		if (!plan_name_ok(sv->v[i], extra))
			return plan_fail(ps, "%s: bad %s name '%s'", key, what, sv->v[i]);
	return 0;
}

static int set_cgroup_controllers(struct parser *ps, const struct global_key *g, const char *key,
                                  const char *value, int cmdline, unsigned *bit)
{
	return set_names(ps, key, value, &ps->plan->cgroup_controllers, "_", "controller");
}

static int set_governor(struct parser *ps, const struct global_key *g, const char *key,
                        const char *value, int cmdline, unsigned *bit)
{
	if (!plan_name_ok(value, "_-"))
		return plan_fail(ps, "cpufreq.governor: bad governor name '%s'", value);
	return oom_or_ok(ps, plan_set_str(&ps->plan->cpufreq_governor, value));
}

static int set_net_dummy(struct parser *ps, const struct global_key *g, const char *key,
                         const char *value, int cmdline, unsigned *bit)
{
	if (!plan_dummy_ok(value))
		return plan_fail(ps, "net.dummy: expected IPv4ADDR/PREFIX, not '%s'", value);
	ps->plan->net_dummy_given = 1;
	return oom_or_ok(ps, plan_set_str(&ps->plan->net_dummy, value));
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
	if (plan_parse_int(value, 68, 65535, &v))
		return plan_fail(ps, "net.nic.mtu: expected 68..65535, not '%s'", value);
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

/* modules.params.NAME=PARAMS: what the init passes to finit_module when it loads NAME (brd's
 * rd_nr and rd_size), space-separated param=value words. */
static int set_module_params(struct parser *ps, const struct global_key *g, const char *key,
                             const char *value, int cmdline, unsigned *bit)
{
	const char *name = key + strlen("modules.params.");
	if (!plan_name_ok(name, "_-"))
		return plan_fail(ps, "%s: bad module name '%s'", key, name);
	for (const char *w = value; *w;) {
		size_t n = strcspn(w, " ");
		const char *eq = memchr(w, '=', n);
		if (!eq || eq == w)
			return plan_fail(ps, "%s: '%.*s' is not PARAM=VALUE", key, (int)n, w);
		w += n;
		w += strspn(w, " ");
	}
	if (bb_kvs_find(&ps->plan->module_params, name))
		return plan_fail(ps, "%s: duplicate key", key);
	return oom_or_ok(ps, bb_kvs_add(&ps->plan->module_params, name, value));
}

/* disk.devices=/dev/NAME ...: the scratch devices, absolute /dev paths. */
static int set_disk_devices(struct parser *ps, const struct global_key *g, const char *key,
                            const char *value, int cmdline, unsigned *bit)
{
	struct bb_plan *p = ps->plan;
	bb_strv_free(&p->disk_devices);
	if (plan_strv_split(&p->disk_devices, value))
		return plan_fail(ps, "out of memory");
	if (!p->disk_devices.n)
		return plan_fail(ps, "%s: no device", key);
	for (size_t i = 0; i < p->disk_devices.n; i++) {
		const char *d = p->disk_devices.v[i];
		if (strncmp(d, "/dev/", 5) || !plan_name_ok(d + 5, "_-") || strlen(d) > 64)
			return plan_fail(ps, "%s: '%s' is not a device /dev/NAME", key, d);
	}
	return 0;
}

/* disk.vm=nvme|hdd BYTES */
static int set_disk_vm(struct parser *ps, const struct global_key *g, const char *key,
                       const char *value, int cmdline, unsigned *bit)
{
	char kind[8];
	unsigned long long bytes;
	int n = 0;
	if (sscanf(value, "%7s %llu%n", kind, &bytes, &n) != 2 || value[n] ||
	    (strcmp(kind, "nvme") && strcmp(kind, "hdd")) || bytes < (1ULL << 20) ||
	    bytes > (1ULL << 50))
		return plan_fail(ps, "%s: expected nvme|hdd BYTES (1 MiB to 1 PiB), not '%s'", key,
		                 value);
	ps->plan->disk_vm_bytes = bytes;
	return oom_or_ok(ps, plan_set_str(&ps->plan->disk_vm, kind));
}

static int set_disk_description(struct parser *ps, const struct global_key *g, const char *key,
                                const char *value, int cmdline, unsigned *bit)
{
	if (!plan_name_ok(value, "_-"))
		return plan_fail(ps, "%s: '%s' is not a word", key, value);
	return oom_or_ok(ps, plan_set_str(&ps->plan->disk_description, value));
}

static int set_monitors(struct parser *ps, const struct global_key *g, const char *key,
                        const char *value, int cmdline, unsigned *bit)
{
	struct bb_plan *p = ps->plan;
	p->monitors_cmdline = cmdline;
	if (monitors_split(&p->monitors, value))
		return plan_fail(ps, "out of memory");
	for (size_t i = 0; i < p->monitors.n; i++)
		if (!bb_monitor_known(p->monitors.v[i]))
			return plan_fail(ps, "monitors: '%s' is not a monitor benchboot runs",
			                 p->monitors.v[i]);
	return 0;
}

static int set_order_seed(struct parser *ps, const struct global_key *g, const char *key,
                          const char *value, int cmdline, unsigned *bit)
{
	long v;
	if (plan_parse_int(value, 0, 4294967295L, &v))
		return plan_fail(ps, "order.seed: expected a number 0..4294967295, not '%s'",
		                 value);
	ps->plan->order_seed = (unsigned long)v;
	ps->plan->order_seed_set = 1;
	return 0;
}

static int set_debug_crash(struct parser *ps, const struct global_key *g, const char *key,
                           const char *value, int cmdline, unsigned *bit)
{
	if (!plan_name_ok(value, "-_"))
		return plan_fail(ps, "debug.crash: expected a step name, not '%s'", value);
	return oom_or_ok(ps, plan_set_str(&ps->plan->debug_crash, value));
}

/* read by the results writer from /proc/cmdline (init/results.c) */
static int set_debug_disk_stat(struct parser *ps, const struct global_key *g, const char *key,
                               const char *value, int cmdline, unsigned *bit)
{
	if (strcmp(value, "0") && strcmp(value, "1"))
		return plan_fail(ps, "%s: expected 0 or 1, not '%s'", key, value);
	return 0;
}

#define KEY(k, b, c, fn)                                                                           \
	{                                                                                          \
		.key = k, .bit = b, .cmdline_only = c, .set = fn                                   \
	}
#define INT_KEY(k, b, w, lo, hi, f)                                                                \
	{                                                                                          \
		.key = k, .bit = b, .set = set_int, .what = w, .min = lo, .max = hi,               \
		.field = offsetof(struct bb_plan, f)                                               \
	}
#define WORD_KEY(k, b, w, f, ...)                                                                  \
	{                                                                                          \
		.key = k, .bit = b, .set = set_word, .what = w,                                    \
		.words = (const char *const[]){__VA_ARGS__, NULL},                                 \
		.field = offsetof(struct bb_plan, f)                                               \
	}
#define FLAG_KEY(k, b, c, f)                                                                       \
	{                                                                                          \
		.key = k, .bit = b, .cmdline_only = c, .set = set_flag,                            \
		.field = offsetof(struct bb_plan, f)                                               \
	}

/* The global keys, in the order of docs/plan.md (tests/host/docs-contracts.sh checks that each
 * is there, through bb_plan_each_key). */
static const struct global_key global_keys[] = {
    KEY("job", G_JOB, 0, set_job),
    KEY("job.set", 0, 0, set_job_set),
    KEY("plan.digest", G_DIGEST, 0, set_digest),
    KEY("boot.group", G_GROUP, 0, set_boot_group),
    KEY("boot.params", G_PARAMS, 0, set_boot_params),
    WORD_KEY("cgroup.mode", G_CGMODE, "v1, v2, hybrid or none", cgroup_mode, "v2", "v1", "none",
             "hybrid"),
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
    KEY("modules.params.", 0, 0, set_module_params),
    KEY("disk.devices", G_DISK, 0, set_disk_devices),
    KEY("disk.description", 0, 0, set_disk_description),
    KEY("disk.vm", 0, 0, set_disk_vm),
    KEY("monitors", G_MONITORS, 0, set_monitors),
    KEY("monitor.", 0, 0, set_monitor_key),
    WORD_KEY("order", G_ORDER, "interleaved, random or blocked", order, "interleaved", "random",
             "blocked"),
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
int plan_set_global(struct parser *ps, const char *key, const char *value, int cmdline)
{
	const struct global_key *g = global_key_of(key, cmdline);
	if (!g)
		return plan_fail(ps, "unknown %skey '%s'", cmdline ? "" : "global ", key);
	unsigned bit = g->bit;
	int r = g->set(ps, g, key, value, cmdline, &bit);
	if (r || !bit)
		return r;
	if (!cmdline && (ps->global_seen & bit))
		return plan_fail(ps, "%s: duplicate key", key);
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
	R_FS = 1 << 6,
	R_FSMOUNT = 1 << 7,
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
		return plan_fail(ps, "%s: expected server.N.arg, .ready or .cpus", key);
	unsigned long n = strtoul(s, &end, 10);
	if (*end != '.' || n >= SERVERS_MAX || (s[0] == '0' && s[1] != '.'))
		return plan_fail(ps, "%s: bad server number (0 to %d)", key, SERVERS_MAX - 1);
	if (n >= run->nservers) {
		if (bb_grow(&run->servers, &run->servers_cap, n + 1, sizeof(*run->servers)))
			return plan_fail(ps, "out of memory");
		memset(run->servers + run->nservers, 0,
		       (n + 1 - run->nservers) * sizeof(*run->servers));
		run->nservers = n + 1;
	}
	struct bb_plan_server *srv = &run->servers[n];
	int field = field_index(end + 1, server_fields);
	if (field == SERVER_ARG) {
		if (bb_strv_add(&srv->argv, value))
			return plan_fail(ps, "out of memory");
		return 0;
	}
	if (field == SERVER_READY) {
		if (srv->ready)
			return plan_fail(ps, "%s: duplicate key", key);
		if (!plan_ready_ok(value))
			return plan_fail(ps, "%s: expected tcp:ADDR:PORT, not '%s'", key, value);
		return plan_set_str(&srv->ready, value) ? plan_fail(ps, "out of memory") : 0;
	}
	if (field == SERVER_CPUS) {
		if (srv->cpus)
			return plan_fail(ps, "%s: duplicate key", key);
		if (!plan_cpus_ok(value))
			return plan_fail(ps, "%s: bad CPU list '%s'", key, value);
		return plan_set_str(&srv->cpus, value) ? plan_fail(ps, "out of memory") : 0;
	}
	return plan_fail(ps, "unknown run key '%s'", key);
}

/* The run keys' setters, as the global keys' (set_global): *bit preset to the key's R_ bit. */
typedef int run_setter(struct parser *ps, const char *key, const char *value, unsigned *bit);

static int set_param(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	struct bb_plan_run *run = ps->run;
	if (!key[6])
		return plan_fail(ps, "param.: empty parameter name");
	if (bb_kvs_find(&run->params, key + 6))
		return plan_fail(ps, "%s: duplicate key", key);
	return oom_or_ok(ps, bb_kvs_add(&run->params, key + 6, value));
}

static int set_sysctl(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	struct bb_plan_run *run = ps->run;
	const char *name = key + 7;
	if (!plan_name_ok(name, "._-") || name[0] == '.' || strstr(name, ".."))
		return plan_fail(ps, "%s: bad sysctl name", key);
	if (bb_kvs_find(&run->sysctls, name))
		return plan_fail(ps, "%s: duplicate key", key);
	return oom_or_ok(ps, bb_kvs_add(&run->sysctls, name, value));
}

static int set_server_key(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	return set_server(ps, key, value);
}

static int set_suite(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	if (!plan_name_ok(value, "._-"))
		return plan_fail(ps, "suite: bad suite name '%s'", value);
	return oom_or_ok(ps, plan_set_str(&ps->run->suite, value));
}

static int set_iterations(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	long v;
	if (plan_parse_int(value, 1, 100000, &v))
		return plan_fail(ps, "iterations: expected a number >= 1, not '%s'", value);
	ps->run->iterations = (int)v;
	return 0;
}

static int set_run_seconds(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	if (plan_parse_seconds(value, key[0] == 'r' ? &ps->run->runtime : &ps->run->grace))
		return plan_fail(ps, "%s: expected seconds, not '%s'", key, value);
	return 0;
}

static int set_needs_module(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	if (!plan_name_ok(value, "_-"))
		return plan_fail(ps, "needs.module: bad module name '%s'", value);
	return oom_or_ok(ps, bb_strv_add(&ps->run->needs_modules, value));
}

static int set_client_arg(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	return oom_or_ok(ps, bb_strv_add(&ps->run->client_argv, value));
}

static int set_monitored_arg(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	return oom_or_ok(ps, bb_strv_add(&ps->run->monitored_argv, value));
}

/* The filesystems the init makes (docs/jobs.md "Disks and filesystems"). */
static const char *const filesystems[] = {"ext2", "ext3", "ext4", "xfs", "btrfs", NULL};

static int set_fs(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	for (size_t i = 0; filesystems[i]; i++)
		if (!strcmp(value, filesystems[i]))
			return oom_or_ok(ps, plan_set_str(&ps->run->fs, value));
	return plan_fail(ps, "fs: '%s' is not ext2, ext3, ext4, xfs or btrfs", value);
}

static int set_fs_mkfs(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	if (!ps->run->fs_mkfs.n && *value != '/')
		return plan_fail(ps, "fs.mkfs.arg: the program '%s' is not an absolute path",
		                 value);
	return oom_or_ok(ps, bb_strv_add(&ps->run->fs_mkfs, value));
}

static int set_fs_mount(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	if (strpbrk(value, " \t"))
		return plan_fail(ps, "fs.mount: '%s': mount options are comma-separated, no blanks",
		                 value);
	return oom_or_ok(ps, plan_set_str(&ps->run->fs_mount, value));
}

static int set_monitored_runtime(struct parser *ps, const char *key, const char *value,
                                 unsigned *bit)
{
	if (plan_parse_seconds(value, &ps->run->monitored_runtime) ||
	    ps->run->monitored_runtime <= 0)
		return plan_fail(ps, "%s: expected seconds > 0, not '%s'", key, value);
	return 0;
}

/* client.count=N, or P%: a share of the CPUs the init counts */
static int set_client_count(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	struct bb_plan_run *run = ps->run;
	size_t len = strlen(value);
	long v;
	if (len && value[len - 1] == '%') {
		char num[16];
		if (len > sizeof(num))
			return plan_fail(ps, "client.count: bad percentage '%s'", value);
		memcpy(num, value, len - 1);
		num[len - 1] = 0;
		if (plan_parse_int(num, 1, 100000, &v))
			return plan_fail(ps, "client.count: bad percentage '%s'", value);
		run->client_percent = (int)v;
		return 0;
	}
	if (plan_parse_int(value, 1, 100000, &v))
		return plan_fail(ps, "client.count: expected N or P%%, not '%s'", value);
	run->client_count = (int)v;
	run->client_percent = -1;
	return 0;
}

static int set_client_cpus(struct parser *ps, const char *key, const char *value, unsigned *bit)
{
	if (!plan_cpus_ok(value))
		return plan_fail(ps, "client.cpus: bad CPU list '%s'", value);
	return oom_or_ok(ps, plan_set_str(&ps->run->client_cpus, value));
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
    {"fs", R_FS, set_fs},
    {"fs.mkfs.arg", 0, set_fs_mkfs},
    {"fs.mount", R_FSMOUNT, set_fs_mount},
};

int plan_set_run(struct parser *ps, const char *key, const char *value)
{
	const struct run_key *rk = NULL;
	for (size_t i = 0; !rk && i < sizeof(run_keys) / sizeof(run_keys[0]); i++) {
		size_t n = strlen(run_keys[i].key);
		if (run_keys[i].key[n - 1] == '.' ? !strncmp(key, run_keys[i].key, n)
		                                  : !strcmp(key, run_keys[i].key))
			rk = &run_keys[i];
	}
	if (!rk)
		return plan_fail(ps, "unknown run key '%s'", key);
	unsigned bit = rk->bit;
	int r = rk->set(ps, key, value, &bit);
	if (r || !bit)
		return r;
	if (ps->run_seen & bit)
		return plan_fail(ps, "%s: duplicate key", key);
	ps->run_seen |= bit;
	return 0;
}

/* Checks that need the whole section. */
int plan_end_run(struct parser *ps)
{
	struct bb_plan_run *run = ps->run;
	if (!run)
		return 0;
	if (!run->suite)
		return plan_fail(ps, "run %s: missing key 'suite'", run->id);
	if (!(ps->run_seen & R_RUNTIME))
		return plan_fail(ps, "run %s: missing key 'runtime'", run->id);
	if (!run->client_argv.n)
		return plan_fail(ps, "run %s: missing key 'client.arg'", run->id);
	if (!run->monitored_argv.n != !run->monitored_runtime)
		return plan_fail(ps,
		                 "run %s: monitored.runtime and monitored.client.arg come together",
		                 run->id);
	if (!run->fs != !run->fs_mkfs.n)
		return plan_fail(ps, "run %s: fs and fs.mkfs.arg come together", run->id);
	if (run->fs && !ps->plan->disk_devices.n)
		return plan_fail(ps, "run %s: fs=%s needs disk.devices (before the runs)", run->id,
		                 run->fs);
	for (size_t i = 0; i < run->nservers; i++)
		if (!run->servers[i].argv.n)
			return plan_fail(ps, "run %s: server.%zu has no server.%zu.arg", run->id, i,
			                 i);
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
