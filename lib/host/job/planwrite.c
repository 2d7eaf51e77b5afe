/* Plan writer: one boot group of a matrix -> the flat plan the init reads (docs/plan.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/cluster.h"
#include "host/job/monitors.h"
#include "parse/parse_perf.h"
#include "host/job/planwrite.h"
#include "host/job/storage.h"
#include "host/strbuf.h"

static int argv_add_unique(struct bb_strv *a, const char *s)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i], s))
			return 0;
	return bb_strv_add(a, s);
}

int bb_plan_boot_params(const struct bb_boot *b, char *buf, size_t len)
{
	size_t n = 0;
	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < b->params.n; i++) {
		n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
		                      "%s%s=", i ? " " : "", b->params.v[i].key);
		for (const char *s = b->params.v[i].value; *s; s++) {
			const char *enc = *s == ' ' ? "%20" : *s == '%' ? "%25" : NULL;
			if (enc)
				n += (size_t)snprintf(buf + (n < len ? n : len),
				                      n < len ? len - n : 0, "%s", enc);
			else
				n += (size_t)snprintf(buf + (n < len ? n : len),
				                      n < len ? len - n : 0, "%c", *s);
		}
	}
	return (int)n;
}

int bb_plan_needs(const struct bb_matrix *m, size_t boot, struct bb_strv *modules,
                  struct bb_strv *files, char *err, size_t errlen)
{
	const struct bb_boot *b = &m->boots[boot];
	int rc = 0;
	/* the suite's own (netperf: the dummy interface, one non-loopback address) */
	if ((rc = bb_suite_boot_modules(m->job->suite, modules)) ||
	    (rc = bb_disk_boot_modules(&b->params, modules)))
		return rc;
	/* the NIC's driver (`nic: module:`, words): in the image, loaded at boot; a two-host
	 * job's default is virtio_net (QEMU's NIC, and a LAVA QEMU device's) */
	const char *nicmods =
	    bb_kvs_get_or(&b->params, "nic.module", m->job->cluster ? "virtio_pci virtio_net" : "");
	while (*nicmods && !rc) {
		size_t n = strcspn(nicmods, " \t");
		char name[64];
		if (n && n < sizeof name) {
			memcpy(name, nicmods, n);
			name[n] = 0;
			rc = argv_add_unique(modules, name);
		}
		nicmods += n;
		nicmods += strspn(nicmods, " \t");
	}
	if (rc)
		return rc;
	for (size_t r = 0; r < b->nruns && !rc; r++) {
		struct bb_suite_run sr;
		rc = bb_suite_run(m->job->suite, &b->runs[r].params, &sr, err, errlen);
		if (rc)
			return rc;
		for (size_t i = 0; i < sr.modules.n && !rc; i++)
			rc = argv_add_unique(modules, sr.modules.v[i]);
		for (size_t i = 0; i < sr.files.n && !rc; i++)
			rc = argv_add_unique(files, sr.files.v[i]);
		bb_suite_run_free(&sr);
	}
	/* perf (Debian's linux-perf, with its libraries) only for a job with a perf monitor */
	struct bb_strv mons = {0}, missing = {0};
	if (!rc && !(rc = bb_job_monitors(m->job, &mons, &missing)))
		for (size_t i = 0; i < mons.n && !rc; i++)
			if (bb_perf_monitor(mons.v[i]))
				rc = argv_add_unique(files, "/usr/bin/perf");
	bb_strv_free(&mons);
	bb_strv_free(&missing);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* A two-host job's cluster (docs/plan.md): its name, the inits' port and wait, each host. */
static void write_cluster(struct strbuf *o, const struct bb_cluster *c)
{
	bb_strbuf_printf(o, "cluster=%s\n", c->name);
	bb_strbuf_printf(o, "cluster.port=%d\n", BB_CLUSTER_PORT);
	bb_strbuf_printf(o, "cluster.wait=%d\n", BB_CLUSTER_WAIT);
	for (size_t i = 0; i < c->nhosts; i++) {
		const struct bb_cluster_host *h = &c->hosts[i];
		bb_strbuf_printf(o, "cluster.host.%zu.name=%s\n", i, h->name);
		bb_strbuf_printf(o, "cluster.host.%zu.role=%s\n", i,
		                 h->server ? "server" : "client");
		bb_strbuf_printf(o, "cluster.host.%zu.address=%s\n", i, h->address);
		bb_strbuf_printf(o, "cluster.host.%zu.nic=%s\n", i, h->nic);
	}
}

/*
 * A client word of a run: in a two-host job the server's address (netperf's -H) is the server
 * host's on the test network (not 127.0.0.1). 0, or -EINVAL when the run's IP version is not the
 * address's.
 */
static int client_word(const struct bb_matrix *m, const struct bb_suite_run *sr, size_t i,
                       const char **word, char *err, size_t errlen)
{
	static char addr[64];
	const struct bb_cluster *c = m->job->cluster;
	*word = sr->client_argv.v[i];
	if (!c || !bb_suite_is_server_addr(m->job->suite, &sr->client_argv, i))
		return 0;
	bb_cluster_addr(&c->hosts[c->server], addr, sizeof addr);
	int v6 = !strcmp(*word, "::1");
	if (v6 != !!strchr(addr, ':')) {
		snprintf(err, errlen,
		         "ip: ipv%d, but the server host %s of cluster %s has the address %s (%s)",
		         v6 ? 6 : 4, c->hosts[c->server].name, c->name, addr, c->file);
		return -EINVAL;
	}
	*word = addr;
	return 0;
}

/* Parameters that are plan keys of their own, not param.NAME. */
static int plan_key_param(const char *name)
{
	return !strcmp(name, "iterations") || !strcmp(name, "timeout") ||
	       bb_suite_is_server_key(name) || !strncmp(name, "affinity.", 9);
}

/* The global keys of boot group BOOT's plan, the monitors' and the run sections' aside. */
static void write_globals(struct strbuf *o, const struct bb_matrix *m, size_t boot,
                          const struct bb_strv *modules)
{
	const struct bb_boot *b = &m->boots[boot];
	char bp[4096];
	bb_strbuf_printf(o, "benchboot-plan 1\n");
	/* the job file's name, not its path: the image must not depend on where the job lives */
	const char *base = strrchr(m->job->file, '/');
	bb_strbuf_printf(o, "# %s, boot group %zu of %zu: written by benchboot from the job file\n",
	                 base ? base + 1 : m->job->file, boot, m->nboots);
	bb_strbuf_printf(o, "job=%s\n", m->job->name);
	bb_strbuf_printf(o, "plan.digest=%s\n", m->job->digest);
	bb_strbuf_printf(o, "boot.group=%zu\n", boot);
	bb_plan_boot_params(b, bp, sizeof bp);
	bb_strbuf_printf(o, "boot.params=%s\n", bp);
	bb_strbuf_printf(o, "cgroup.mode=%s\n", bb_kvs_get_or(&b->params, "cgroup.mode", "none"));
	const char *cgpath = bb_kvs_get(&b->params, "cgroup.path");
	if (cgpath)
		bb_strbuf_printf(o, "cgroup.path=%s\n", cgpath);
	for (size_t i = 0; i < m->job->sets.n; i++)
		bb_strbuf_printf(o, "job.set=%s\n", m->job->sets.v[i]);
	const char *ctrls = bb_kvs_get(&b->params, "cgroup.controllers");
	if (ctrls)
		bb_strbuf_printf(o, "cgroup.controllers=%s\n", ctrls);
	for (size_t i = 0; i < b->params.n; i++)
		if (!strncmp(b->params.v[i].key, "cgroup.limit.", 13))
			bb_strbuf_printf(o, "cgroup.limit.%s=%s\n", b->params.v[i].key + 13,
			                 b->params.v[i].value);
	const char *gov = bb_kvs_get(&b->params, "cpufreq_governor");
	if (gov)
		bb_strbuf_printf(o, "cpufreq.governor=%s\n", gov);
	/* the iterations' order within the boot (`order:`, `seed:`), the warm-up (`warmup:`) and
	 * the monitored iterations (`monitored:`): a job without them writes none (the init's
	 * defaults: interleaved, none, BB_MONITORED_DEFAULT) */
	static const char *const order_keys[] = {"order", "order.seed", "warmup", "monitored"};
	for (size_t i = 0; i < sizeof order_keys / sizeof order_keys[0]; i++) {
		const char *v = bb_kvs_get(&b->params, order_keys[i]);
		if (v)
			bb_strbuf_printf(o, "%s=%s\n", order_keys[i], v);
	}
	/* `nic:`: the job's NIC, net.nic.* (the job parser checked the values with the plan's
	 * own parser) */
	static const char *const nic_keys[] = {"name", "address", "gateway", "mtu", "wait"};
	for (size_t i = 0; i < sizeof nic_keys / sizeof nic_keys[0]; i++) {
		char pname[32];
		snprintf(pname, sizeof pname, "nic.%s", nic_keys[i]);
		const char *v = bb_kvs_get(&b->params, pname);
		if (v)
			bb_strbuf_printf(o, "net.%s=%s\n", pname, v);
	}
	bb_disk_plan(&b->params, o);
	if (m->job->cluster)
		write_cluster(o, m->job->cluster);
	if (modules->n) {
		bb_strbuf_printf(o, "modules.boot=");
		for (size_t i = 0; i < modules->n; i++)
			bb_strbuf_printf(o, "%s%s", i ? " " : "", modules->v[i]);
		bb_strbuf_printf(o, "\n");
	}
}

/* The LKP monitors the job turns on that benchboot runs (monitors.h) and their options; the
 * number of monitored iterations of each run into *monitored. 0 or -ENOMEM. */
static int write_monitors(struct strbuf *o, const struct bb_matrix *m, const struct bb_boot *b,
                          int *monitored)
{
	struct bb_strv mons = {0}, missing = {0};
	int rc;
	if ((rc = bb_job_monitors(m->job, &mons, &missing)) == 0 && mons.n) {
		bb_strbuf_printf(o, "monitors=");
		for (size_t i = 0; i < mons.n; i++)
			bb_strbuf_printf(o, "%s%s", i ? " " : "", mons.v[i]);
		bb_strbuf_printf(o, "\n");
	}
	/* their options (`vmstat: {interval: 2}`): the boot's monitor.NAME.OPTION parameters */
	for (size_t i = 0; i < b->params.n && !rc; i++) {
		const char *k = b->params.v[i].key, *dot = strrchr(k, '.');
		if (strncmp(k, "monitor.", 8) || dot < k + 8)
			continue;
		for (size_t j = 0; j < mons.n; j++)
			if (strlen(mons.v[j]) == (size_t)(dot - k - 8) &&
			    !strncmp(mons.v[j], k + 8, (size_t)(dot - k - 8)))
				bb_strbuf_printf(o, "%s=%s\n", k, b->params.v[i].value);
	}
	*monitored = mons.n ? bb_boot_monitored(b) : 0;
	bb_strv_free(&mons);
	bb_strv_free(&missing);
	return rc;
}

/* The client words of SR as KEY=WORD lines (client.arg or monitored.client.arg). 0 or -errno
 * with err. */
static int write_client_words(struct strbuf *o, const struct bb_matrix *m,
                              const struct bb_suite_run *sr, const char *key, char *err,
                              size_t errlen)
{
	int rc = 0;
	for (size_t i = 0; i < sr->client_argv.n && !rc; i++) {
		const char *word;
		if (!(rc = client_word(m, sr, i, &word, err, errlen)))
			bb_strbuf_printf(o, "%s=%s\n", key, word);
	}
	return rc;
}

/* The section of RUN: its parameters, the suite's command lines, and its monitored
 * iterations' shorter twin when MONITORED. 0 or -errno with err. */
static int write_run(struct strbuf *o, const struct bb_matrix *m, const struct bb_boot *b,
                     const struct bb_run *run, int monitored, char *err, size_t errlen)
{
	struct bb_suite_run sr, ms;
	int rc;
	if ((rc = bb_suite_run(m->job->suite, &run->params, &sr, err, errlen)))
		return rc;
	bb_strbuf_printf(o, "\n[run %s]\n", run->id);
	bb_strbuf_printf(o, "suite=%s\n", m->job->suite);
	for (size_t i = 0; i < run->params.n; i++)
		if (!plan_key_param(run->params.v[i].key))
			bb_strbuf_printf(o, "param.%s=%s\n", run->params.v[i].key,
			                 run->params.v[i].value);
	bb_strbuf_printf(o, "iterations=%d\n", sr.iterations);
	bb_strbuf_printf(o, "runtime=%g\n", sr.runtime_s);
	bb_strbuf_printf(o, "grace=%g\n", sr.grace_s);
	for (size_t i = 0; i < sr.modules.n; i++)
		bb_strbuf_printf(o, "needs.module=%s\n", sr.modules.v[i]);
	for (size_t i = 0; i < sr.sysctls.n; i++)
		bb_strbuf_printf(o, "sysctl.%s\n", sr.sysctls.v[i]);
	if (sr.fs) {
		bb_strbuf_printf(o, "fs=%s\n", sr.fs);
		for (size_t i = 0; i < sr.fs_mkfs.n; i++)
			bb_strbuf_printf(o, "fs.mkfs.arg=%s\n", sr.fs_mkfs.v[i]);
		if (sr.fs_mount)
			bb_strbuf_printf(o, "fs.mount=%s\n", sr.fs_mount);
	}
	if (sr.server_argv.n) {
		for (size_t i = 0; i < sr.server_argv.n; i++)
			bb_strbuf_printf(o, "server.0.arg=%s\n", sr.server_argv.v[i]);
		bb_strbuf_printf(o, "server.0.ready=%s\n", sr.server_ready);
		if (sr.server_cpus)
			bb_strbuf_printf(o, "server.0.cpus=%s\n", sr.server_cpus);
	}
	if ((rc = write_client_words(o, m, &sr, "client.arg", err, errlen)))
		goto out;
	/* the monitored iterations' shorter length and command (`monitored_runtime:`) */
	int mr = monitored ? bb_run_monitored_suite(m->job->suite, b, run, &ms, err, errlen) : 0;
	if (mr < 0) {
		rc = mr;
		goto out;
	}
	if (mr) {
		bb_strbuf_printf(o, "monitored.runtime=%g\n", ms.runtime_s);
		rc = write_client_words(o, m, &ms, "monitored.client.arg", err, errlen);
		bb_suite_run_free(&ms);
		if (rc)
			goto out;
	}
	bb_strbuf_printf(o, "client.count=%s\n", sr.client_count);
	if (sr.client_cpus)
		bb_strbuf_printf(o, "client.cpus=%s\n", sr.client_cpus);
out:
	bb_suite_run_free(&sr);
	return rc;
}

int bb_plan_write(const struct bb_matrix *m, size_t boot, char **text, char *err, size_t errlen)
{
	const struct bb_boot *b = &m->boots[boot];
	struct strbuf o = {0};
	struct bb_strv modules = {0}, files = {0};
	int rc, monitored;

	*text = NULL;
	if ((rc = bb_plan_needs(m, boot, &modules, &files, err, errlen)))
		goto out_free;
	write_globals(&o, m, boot, &modules);
	if ((rc = write_monitors(&o, m, b, &monitored))) {
		snprintf(err, errlen, "out of memory");
		goto out_free;
	}
	for (size_t r = 0; r < b->nruns && !rc; r++)
		rc = write_run(&o, m, b, &b->runs[r], monitored, err, errlen);
	if (!rc && o.oom) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
	}
	if (!rc) {
		*text = o.s;
		o.s = NULL;
	}
out_free:
	free(o.s);
	bb_strv_free(&modules);
	bb_strv_free(&files);
	return rc;
}
