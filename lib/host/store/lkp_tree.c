/* LKP's result trees as boots; see lkp_tree.h. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/store/lkp_tree.h"
#include "strv.h"

/* the result roots nftw found: folders with stats.json and job.yaml */
static struct bb_strv *found;
static int found_oom;

static int find_root(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	if (type != FTW_F || strcmp(path + ftw->base, "stats.json"))
		return 0;
	char job[PATH_MAX];
	snprintf(job, sizeof job, "%.*s/job.yaml", ftw->base ? ftw->base - 1 : 0, path);
	if (!access(job, R_OK) && bb_strv_addn(found, path, ftw->base ? ftw->base - 1 : 0))
		found_oom = 1;
	return 0;
}

/* job.yaml's top-level scalars ("key: value", quotes taken off) into kv as lkp.KEY, and a few
 * by their own names into want (testcase, commit, kernel). */
static int job_keys(const char *text, struct bb_kvs *env, struct bb_kvs *want)
{
	for (const char *l = text; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		size_t n = strcspn(l, "\n"),
		       k = strspn(
		           l, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");
		if (!k || k >= n || l[k] != ':' || (l[k + 1] != ' ' && k + 1 != n))
			continue;
		const char *v = l + k + 1;
		size_t vn = n - k - 1;
		while (vn && (*v == ' ' || *v == '\t'))
			v++, vn--;
		if (vn >= 2 && (*v == '"' || *v == '\'') && v[vn - 1] == *v)
			v++, vn -= 2;
		if (!vn || *v == '#' || *v == '&' || *v == '*')
			continue;
		char key[160], val[1024];
		snprintf(key, sizeof key, "lkp.%.*s", (int)k, l);
		snprintf(val, sizeof val, "%.*s", (int)vn, v);
		if (bb_kvs_set(env, key, val) || bb_kvs_set(want, key + 4, val))
			return -ENOMEM;
	}
	return 0;
}

/* stats.json's numbers (and arrays of numbers) as the run's stats. */
static int add_stats(const char *file, struct bb_res_run *run, char *err, size_t errlen)
{
	json_error_t je;
	json_t *j = json_load_file(file, 0, &je);
	if (!j || !json_is_object(j)) {
		json_decref(j);
		return bb_errbuf_fail(err, errlen, -EINVAL, "%s: not LKP's stats (%s)", file,
		                      j ? "not an object" : je.text);
	}
	const char *name;
	json_t *v;
	size_t cap = json_object_size(j);
	run->stats = calloc(cap ? cap : 1, sizeof *run->stats);
	if (!run->stats) {
		json_decref(j);
		return -ENOMEM;
	}
	json_object_foreach(j, name, v)
	{
		size_t n = json_is_array(v) ? json_array_size(v) : json_is_number(v) ? 1 : 0;
		if (!n)
			continue;
		struct bb_res_stat *s = &run->stats[run->nstats];
		if (!(s->name = strdup(name)) || !(s->vals = calloc(n, sizeof *s->vals))) {
			free(s->name);
			json_decref(j);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			json_t *e = json_is_array(v) ? json_array_get(v, i) : v;
			if (json_is_number(e))
				s->vals[s->n++] = json_number_value(e);
		}
		run->nstats++;
	}
	json_decref(j);
	return 0;
}

/* The path's component i from the end (0: the last), or NULL. */
static const char *from_end(const struct bb_strv *parts, size_t i)
{
	return i < parts->n ? parts->v[parts->n - 1 - i] : NULL;
}

/* One result root as a boot. */
static int load_root(const char *root, struct bb_res_boot *b, char *err, size_t errlen)
{
	char file[PATH_MAX], real[PATH_MAX], id[PATH_MAX + 8];
	unsigned char *text;
	size_t len;
	struct bb_kvs want = {0};
	struct bb_strv parts = {0};
	memset(b, 0, sizeof *b);
	snprintf(file, sizeof file, "%s/job.yaml", root);
	int rc = bb_fileio_read_all(file, &text, &len);
	if (rc)
		return bb_errbuf_fail(err, errlen, rc, "%s: %s", file, strerror(-rc));
	rc = job_keys((const char *)text, &b->env, &want);
	free(text);
	if (!realpath(root, real))
		snprintf(real, sizeof real, "%s", root);
	char split[PATH_MAX];
	snprintf(split, sizeof split, "%s", real);
	for (char *p = split, *s; !rc && (s = strsep(&p, "/"));)
		if (*s && bb_strv_add(&parts, s))
			rc = -ENOMEM;
	/* TESTCASE/PATH_PARAMS/TBOX_GROUP/ROOTFS/KCONFIG/COMPILER/COMMIT/RUN */
	const char *commit =
	    bb_kvs_get(&want, "commit") ? bb_kvs_get(&want, "commit") : from_end(&parts, 1);
	const char *testcase =
	    bb_kvs_get(&want, "testcase") ? bb_kvs_get(&want, "testcase") : from_end(&parts, 7);
	const char *path_params = parts.n >= 8 ? from_end(&parts, 6) : "default";
	const char *kernel = bb_kvs_get(&want, "kernel"),
	           *vm = kernel ? strstr(kernel, "vmlinuz-") : NULL;
	char release[256], label[16];
	snprintf(release, sizeof release, "%s", vm ? vm + 8 : commit ? commit : "");
	snprintf(label, sizeof label, "%.12s", commit ? commit : "");
	snprintf(id, sizeof id, "lkp:%s", real);
	if (!rc &&
	    (!(b->path = strdup(root)) || !(b->name = strdup(id + 4)) ||
	     bb_kvs_set(&b->env, "boot_id", id) ||
	     bb_kvs_set(&b->env, "job", testcase ? testcase : "lkp") ||
	     bb_kvs_set(&b->env, "plan_digest", "lkp") ||
	     bb_kvs_set(&b->env, "kernel.release", release) ||
	     bb_kvs_set(&b->env, "kernel.cmdline", "") || bb_kvs_set(&b->labels, "kernel", label) ||
	     (commit && !(b->commit = strdup(commit)))))
		rc = -ENOMEM;
	b->done = 1;
	if (!rc && !(b->runs = calloc(1, sizeof *b->runs)))
		rc = -ENOMEM;
	if (!rc) {
		b->nruns = 1;
		b->runs[0].boot = b;
		b->runs[0].iterations = 1;
		if (!(b->runs[0].id = strdup(path_params)) ||
		    bb_kvs_set(&b->runs[0].params, "path_params", path_params))
			rc = -ENOMEM;
	}
	snprintf(file, sizeof file, "%s/stats.json", root);
	if (!rc)
		rc = add_stats(file, &b->runs[0], err, errlen);
	bb_kvs_sort(&b->env);
	bb_kvs_free(&want);
	bb_strv_free(&parts);
	if (rc == -ENOMEM)
		bb_errbuf_fail(err, errlen, rc, "out of memory");
	return rc;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int bb_lkp_tree_load(const char *dir, struct bb_results *res, char *err, size_t errlen)
{
	struct bb_strv roots = {0};
	memset(res, 0, sizeof *res);
	found = &roots;
	found_oom = 0;
	int rc = nftw(dir, find_root, 32, FTW_PHYS) ? -errno : found_oom ? -ENOMEM : 0;
	found = NULL;
	if (rc) {
		bb_strv_free(&roots);
		return bb_errbuf_fail(err, errlen, rc, "%s: %s", dir, strerror(-rc));
	}
	/* in the order of their paths: the same every time (readdir's order is not) */
	qsort(roots.v, roots.n, sizeof *roots.v, by_path);
	if (roots.n && !(res->boots = calloc(roots.n, sizeof *res->boots)))
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < roots.n; i++) {
		rc = load_root(roots.v[i], &res->boots[i], err, errlen);
		res->nboots++;
	}
	res->path = strdup(dir);
	bb_strv_free(&roots);
	if (rc)
		bb_results_free(res);
	return rc;
}
