/* What every suite shares, and the questions asked of the suite table (see suites.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/storage.h"
#include "host/job/suites.h"
#include "host/job/suites/suite.h"
#include "host/job/units.h"

int bb_suite_known(const char *suite)
{
	return bb_suite_find(suite) != NULL;
}

const char *bb_suite_names(void)
{
	static char names[1024];
	size_t n = 0, o = 0;
	while (bb_suites[n])
		n++;
	for (size_t i = 0; i < n && o < sizeof names; i++)
		o += (size_t)snprintf(names + o, sizeof names - o, "%s%s",
		                      !i           ? ""
		                      : i + 1 == n ? " and "
		                                   : ", ",
		                      bb_suites[i]->name);
	return names;
}

const char *bb_suite_default_runtime(const char *suite)
{
	const struct bb_suite *s = bb_suite_find(suite);
	return s ? s->default_runtime : "300s";
}

void bb_suite_run_free(struct bb_suite_run *sr)
{
	bb_strv_free(&sr->modules);
	bb_strv_free(&sr->sysctls);
	bb_strv_free(&sr->server_argv);
	bb_strv_free(&sr->client_argv);
	bb_strv_free(&sr->files);
	bb_strv_free(&sr->fs_mkfs);
	free(sr->fs_mount);
	free(sr->server_cpus);
	free(sr->client_cpus);
	memset(sr, 0, sizeof *sr);
}

/* Parameters every suite shares: iterations, runtime, grace, sysctls, affinity. */
static int common(const struct bb_suite *s, const struct bb_kvs *p, struct bb_suite_run *sr,
                  double *runtime, char *err, size_t errlen)
{
	double grace;
	const char *rt = bb_kvs_get_or(p, "runtime", s->default_runtime);
	const char *to = bb_kvs_get_or(p, "timeout", "30s");
	sr->suite = s->name;
	sr->iterations = atoi(bb_kvs_get_or(p, "iterations", "1"));
	if (bb_parse_duration(rt, runtime) || *runtime <= 0) {
		snprintf(err, errlen, "runtime: '%s' is not a positive duration", rt);
		return -EINVAL;
	}
	if (bb_parse_duration(to, &grace)) {
		snprintf(err, errlen, "timeout: '%s' is not a duration", to);
		return -EINVAL;
	}
	sr->grace_s = grace;
	for (size_t i = 0; i < p->n; i++)
		if (!strncmp(p->v[i].key, "sysctl.", 7) &&
		    bb_suite_argv_addf(&sr->sysctls, "%s=%s", p->v[i].key + 7, p->v[i].value))
			return -ENOMEM;
	/* LKP's net-buffer setup: socket buffers of MemTotal / nr_threads / 16 bytes, sctp
	 * loaded, its buffers up to that size; the init computes the size (@netbuf:N@) */
	if (bb_kvs_get(p, "net-buffer")) {
		static const char *const keys[] = {"net.core.wmem_max",     "net.core.rmem_max",
		                                   "net.core.wmem_default", "net.core.rmem_default",
		                                   "net.sctp.sctp_rmem",    "net.sctp.sctp_wmem"};
		const char *nr = bb_kvs_get_or(p, "nr_threads", "1");
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (bb_suite_argv_addf(&sr->sysctls, "%s=%s@netbuf:%s@", keys[i],
			                       strstr(keys[i], "sctp") ? "4096 349500 " : "", nr))
				return -ENOMEM;
		if (bb_strv_add(&sr->modules, "sctp"))
			return -ENOMEM;
	}
	int rc = bb_fs_run(p, sr, err, errlen);
	if (rc)
		return rc;
	const char *cpus = bb_kvs_get(p, "affinity.server");
	if (cpus && !(sr->server_cpus = strdup(cpus)))
		return -ENOMEM;
	cpus = bb_kvs_get(p, "affinity.client");
	if (cpus && !(sr->client_cpus = strdup(cpus)))
		return -ENOMEM;
	return 0;
}

int bb_suite_run(const char *suite, const struct bb_kvs *params, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	const struct bb_suite *s = bb_suite_find(suite);
	double runtime;
	int rc;
	memset(sr, 0, sizeof *sr);
	if (!s) {
		snprintf(err, errlen, "unknown suite '%s'", suite);
		return -EINVAL;
	}
	rc = common(s, params, sr, &runtime, err, errlen);
	if (!rc) {
		long secs = lround(runtime);
		rc = s->build(params, secs < 1 ? 1 : secs, sr, err, errlen);
	}
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc)
		bb_suite_run_free(sr);
	return rc;
}

int bb_suite_monitored(const char *suite, const struct bb_kvs *params, struct bb_kvs *twin,
                       char *err, size_t errlen)
{
	const struct bb_suite *s = bb_suite_find(suite);
	return s && s->monitored ? s->monitored(params, twin, err, errlen) : 0;
}

int bb_suite_defaults(const char *suite, struct bb_kvs *rp)
{
	const struct bb_suite *s = bb_suite_find(suite);
	int rc = 0;
	for (size_t i = 0; s && s->defaults && s->defaults[i].key && !rc; i++)
		if (!bb_kvs_get(rp, s->defaults[i].key))
			rc = bb_kvs_add(rp, s->defaults[i].key, s->defaults[i].value);
	return rc;
}

int bb_suite_boot_modules(const char *suite, struct bb_strv *modules)
{
	const struct bb_suite *s = bb_suite_find(suite);
	int rc = 0;
	for (size_t i = 0; s && s->boot_modules && s->boot_modules[i] && !rc; i++)
		rc = bb_suite_add_unique(modules, s->boot_modules[i]);
	return rc;
}

int bb_suite_file_source(const char *image_path, const char **src, int *from_tree)
{
	for (size_t i = 0; bb_suites[i]; i++)
		for (const struct bb_suite_file *f = bb_suites[i]->files; f && f->image_path; f++)
			if (!strcmp(f->image_path, image_path)) {
				*src = f->src;
				*from_tree = f->from_tree;
				return 0;
			}
	*from_tree = 0;
	return bb_fs_file_source(image_path, src);
}

int bb_suite_is_server_addr(const char *suite, const struct bb_strv *client_argv, size_t i)
{
	const struct bb_suite *s = bb_suite_find(suite);
	/* the loopback address after the option: a shell's -c SCRIPT is not an address */
	return s && s->server_addr_opt && i > 0 && i < client_argv->n &&
	       !strcmp(client_argv->v[i - 1], s->server_addr_opt) &&
	       (!strcmp(client_argv->v[i], "127.0.0.1") || !strcmp(client_argv->v[i], "::1"));
}

int bb_suite_is_server_key(const char *name)
{
	for (size_t i = 0; bb_suites[i]; i++)
		for (size_t k = 0; k < bb_suites[i]->nkeys; k++)
			if (bb_suites[i]->keys[k].kind == K_SERVER &&
			    !strcmp(bb_suites[i]->keys[k].key, name))
				return 1;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

int bb_suite_primary_rank(const char *stat)
{
	int rank = 0;
	for (size_t i = 0; bb_suites[i]; i++)
		for (const char *const *p = bb_suites[i]->primary; p && *p; p++, rank++)
			if (**p == '*' ? ends_with(stat, *p + 1) : !strcmp(stat, *p))
				return rank;
	return -1;
}

int bb_suite_owns_stat(const char *stat)
{
	for (size_t i = 0; bb_suites[i]; i++) {
		size_t n = strlen(bb_suites[i]->name);
		if (!strncmp(stat, bb_suites[i]->name, n) && stat[n] == '.')
			return 1;
	}
	return 0;
}
