/*
 * The plan parser (docs/plan.md). Strict on purpose: the host writes plans, so anything the
 * table does not know is a bug on one side, reported with its line number, never skipped.
 * This file reads the lines and the command line; the keys are plan_keys.c's, the value
 * checks plan_values.c's.
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
#include "plan/plan_parser.h"

static int start_run(struct parser *ps, const char *line, size_t len)
{
	struct bb_plan *p = ps->plan;
	if (len < 7 || strncmp(line, "[run ", 5) || line[len - 1] != ']')
		return plan_fail(ps, "expected '[run RUNID]'");
	const char *id = line + 5;
	size_t idlen = len - 6;
	if (!idlen || idlen > RUNID_MAX)
		return plan_fail(ps, "run id must have 1 to %d characters", RUNID_MAX);
	for (size_t i = 0; i < idlen; i++)
		if (!plan_name_ok((char[]){id[i], 0}, "._+=-"))
			return plan_fail(ps, "run id: character '%c' not allowed (A-Za-z0-9._+=-)",
			                 id[i]);
	for (size_t i = 0; i < p->nruns; i++)
		if (strlen(p->runs[i].id) == idlen && !strncmp(p->runs[i].id, id, idlen))
			return plan_fail(ps, "duplicate run id '%.*s' (first on line %d)",
			                 (int)idlen, id, p->runs[i].line);
	if (bb_grow(&p->runs, &p->runs_cap, p->nruns + 1, sizeof(*p->runs)))
		return plan_fail(ps, "out of memory");
	ps->run = &p->runs[p->nruns++];
	memset(ps->run, 0, sizeof(*ps->run));
	ps->run->iterations = 1;
	ps->run->grace = 30;
	ps->run->client_count = 1;
	ps->run->client_percent = -1;
	ps->run->line = ps->lineno;
	ps->run_seen = 0;
	if (!(ps->run->id = strndup(id, idlen)))
		return plan_fail(ps, "out of memory");
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
		r = plan_fail(&ps, "NUL byte in the plan");
		goto out;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = strndup(p, n);
		ps.lineno = ++lineno;
		p += n + (nl ? 1 : 0);
		if (!line) {
			r = plan_fail(&ps, "out of memory");
			goto out;
		}
		if (lineno == 1) {
			if (strcmp(line, "benchboot-plan 1")) {
				if (!strncmp(line, "benchboot-plan ", 15))
					r = plan_fail(
					    &ps,
					    "plan version '%s' not supported (this init reads "
					    "version %d)",
					    line + 15, BB_PLAN_VERSION);
				else
					r = plan_fail(
					    &ps,
					    "not a benchboot plan (expected 'benchboot-plan %d')",
					    BB_PLAN_VERSION);
			}
		} else if (strchr(line, '\r')) {
			r = plan_fail(&ps, "carriage return in line");
		} else if (!n || line[0] == '#') {
			r = 0;
		} else if (line[0] == '[') {
			if (!(r = plan_end_run(&ps)))
				r = start_run(&ps, line, n);
		} else {
			char *eq = strchr(line, '=');
			if (!eq)
				r = plan_fail(&ps, "expected key=value");
			else if (eq == line)
				r = plan_fail(&ps, "empty key");
			else if (eq[-1] == ' ' || eq[-1] == '\t' || eq[1] == ' ' || eq[1] == '\t')
				r = plan_fail(&ps, "no spaces around '=' please");
			else if (strpbrk(line, " \t") && strpbrk(line, " \t") < eq)
				r = plan_fail(&ps, "space in key");
			else {
				*eq = 0;
				r = ps.run ? plan_set_run(&ps, line, eq + 1)
				           : plan_set_global(&ps, line, eq + 1, 0);
			}
		}
		free(line);
		if (r)
			goto out;
	}
	if (lineno == 0) {
		lineno = 1;
		r = plan_fail(&ps, "empty plan (expected 'benchboot-plan %d')", BB_PLAN_VERSION);
		goto out;
	}
	r = plan_end_run(&ps);
	if (!r && (r = plan_end_cluster(&ps)))
		lineno = ps.lineno;
	if (!r && ps.nic_line && !plan->nic_name) {
		lineno = ps.nic_line;
		r = plan_fail(&ps,
		              "net.nic.address, .gateway and .mtu need net.nic.name (which NIC)");
	}
	if (!r && !plan->net_dummy && plan_set_str(&plan->net_dummy, "192.0.2.1/24"))
		r = plan_fail(&ps, "out of memory");
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
			r = plan_fail(&ps, "missing '=VALUE'");
		else {
			*eq = 0;
			r = plan_set_global(&ps, key, eq + 1, 1);
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
		(void)plan_set_str(&plan->net_dummy, "192.0.2.2/24"); /* out of memory: .1 stays */
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
		free(r->fs);
		bb_strv_free(&r->fs_mkfs);
		free(r->fs_mount);
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
	bb_kvs_free(&plan->module_params);
	bb_strv_free(&plan->disk_devices);
	free(plan->disk_description);
	free(plan->disk_vm);
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
