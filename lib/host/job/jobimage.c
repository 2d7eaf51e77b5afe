/* A job's images, one per boot group (see jobimage.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/image/cpio.h"
#include "host/job/jobimage.h"
#include "host/job/planwrite.h"
#include "host/job/suites.h"

/* Where the programs of the monitors come from; a suite's are in its file (suites/). */
static const struct {
	const char *image_path;
	const char *src; /* relative to the sysroot */
} monitor_programs[] = {
    {"/usr/bin/perf", "usr/bin/perf"}, /* the perf-stat and perf-profile monitors */
};

/* The source of a program the image carries: 0, or -1 when none is known. */
static int program_source(const char *image_path, const char **src, int *from_tree)
{
	for (size_t k = 0; k < sizeof monitor_programs / sizeof monitor_programs[0]; k++)
		if (!strcmp(monitor_programs[k].image_path, image_path)) {
			*src = monitor_programs[k].src;
			*from_tree = 0;
			return 0;
		}
	return bb_suite_file_source(image_path, src, from_tree);
}

int bb_jobimage_is_job(const char *path)
{
	size_t n = strlen(path);
	return (n > 5 && !strcmp(path + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(path + n - 4, ".yml"));
}

void bb_jobimage_free(struct bb_jobimage *g)
{
	free(g->plan_text);
	bb_strv_free(&g->modules);
	for (size_t i = 0; i < g->nbinaries; i++) {
		free((char *)g->binaries[i].src);
		free((char *)g->binaries[i].dest);
	}
	free(g->binaries);
	memset(g, 0, sizeof *g);
}

int bb_jobimage_add_file(struct bb_jobimage *g, const char *path, char *err, size_t errlen)
{
	const char *from;
	int from_tree;
	char src[4096];
	for (size_t i = 0; i < g->nbinaries; i++)
		if (!strcmp(g->binaries[i].dest, path))
			return 0;
	if (program_source(path, &from, &from_tree)) {
		snprintf(err, errlen, "no source known for %s", path);
		return -EINVAL;
	}
	if (!from_tree)
		snprintf(src, sizeof src, "%s", from);
	else if (bb_image_find_data(from, src, sizeof src) < 0) {
		snprintf(err, errlen, "%s not found (make netperf builds it)", from);
		return -ENOENT;
	}
	struct image_pair *b = realloc(g->binaries, (g->nbinaries + 1) * sizeof *b);
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	g->binaries = b;
	struct image_pair *p = &b[g->nbinaries];
	if (!(p->src = strdup(src)) || !(p->dest = strdup(path))) {
		free((char *)p->src);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	g->nbinaries++;
	return 0;
}

int bb_jobimage_group(const struct bb_matrix *m, size_t boot, const char *name_prefix,
                      const char *base_cmdline, struct bb_jobimage *g, char *err, size_t errlen)
{
	struct bb_strv mods = {0}, files = {0};
	const struct bb_boot *b = &m->boots[boot];
	const char *prefix = name_prefix ? name_prefix : m->job->name;
	int rc;

	memset(g, 0, sizeof *g);
	if (m->nboots == 1)
		snprintf(g->name, sizeof g->name, "%s", prefix);
	else
		snprintf(g->name, sizeof g->name, "%s.boot%zu", prefix, boot);
	const char *extra = bb_kvs_get(&b->params, "kernel_cmdline");
	snprintf(g->cmdline, sizeof g->cmdline, "%s%s%s",
	         base_cmdline ? base_cmdline : IMAGE_DEFAULT_CMDLINE, extra ? " " : "",
	         extra ? extra : "");
	if ((rc = bb_plan_write(m, boot, &g->plan_text, err, errlen)) ||
	    (rc = bb_plan_needs(m, boot, &mods, &files, err, errlen)))
		goto out;
	g->modules = mods; /* taken over */
	mods = (struct bb_strv){0};
	for (size_t i = 0; i < files.n && !rc; i++)
		rc = bb_jobimage_add_file(g, files.v[i], err, errlen);
out:
	bb_strv_free(&mods);
	bb_strv_free(&files);
	if (rc)
		bb_jobimage_free(g);
	return rc;
}

int bb_jobimage_build_group(const struct bb_jobimage *g, const struct image_spec *base,
                            const char *name, struct image_result *res, char *err, size_t errlen)
{
	struct image_spec spec = *base;
	char planpath[] = "/tmp/benchboot-plan.XXXXXX";
	const char **mods = calloc(base->nmodules + g->modules.n + 1, sizeof *mods);
	struct image_pair *bins = calloc(base->nbinaries + g->nbinaries + 1, sizeof *bins);
	int fd = -1, rc;

	if (!mods || !bins) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < g->modules.n; i++)
		mods[i] = g->modules.v[i];
	spec.nmodules = g->modules.n;
	for (size_t i = 0; i < base->nmodules; i++)
		mods[spec.nmodules++] = base->modules[i];
	for (size_t i = 0; i < g->nbinaries; i++)
		bins[i] = g->binaries[i];
	spec.nbinaries = g->nbinaries;
	for (size_t i = 0; i < base->nbinaries; i++)
		bins[spec.nbinaries++] = base->binaries[i];
	spec.modules = mods;
	spec.binaries = bins;
	spec.name = name ? name : g->name;
	spec.cmdline = g->cmdline;
	spec.busybox = 1;
	if (!base->plan) {
		size_t len = strlen(g->plan_text);
		fd = mkstemp(planpath);
		if (fd < 0 || write(fd, g->plan_text, len) != (ssize_t)len) {
			rc = errno ? -errno : -EIO;
			snprintf(err, errlen, "unable to write a temporary plan %s: %s", planpath,
			         strerror(errno));
			goto out;
		}
		spec.plan = planpath;
	}
	rc = bb_image_build(&spec, res, err, errlen);
out:
	if (fd >= 0) {
		close(fd);
		unlink(planpath);
	}
	free(mods);
	free(bins);
	return rc;
}

int bb_jobimage_build(const char *jobpath, const struct bb_strv *sets,
                      const struct image_spec *base, struct image_result **res, size_t *nres,
                      char *err, size_t errlen)
{
	struct bb_job job;
	struct bb_matrix m;
	int rc;

	*res = NULL;
	*nres = 0;
	if ((rc = bb_job_parse_file_set(jobpath, sets, &job, err, errlen)))
		return rc;
	if ((rc = bb_matrix_expand(&job, &m, err, errlen))) {
		bb_job_free(&job);
		return rc;
	}
	if (!(*res = calloc(m.nboots, sizeof **res))) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t b = 0; b < m.nboots; b++) {
		struct bb_jobimage g;
		if ((rc = bb_jobimage_group(&m, b, base->name, base->cmdline, &g, err, errlen))) {
			rc = rc == -ENOENT ? -EINVAL : rc; /* a missing input of the job */
			goto out;
		}
		rc = bb_jobimage_build_group(&g, base, NULL, &(*res)[b], err, errlen);
		bb_jobimage_free(&g);
		if (rc)
			goto out;
		(*nres)++;
	}
out:
	bb_matrix_free(&m);
	bb_job_free(&job);
	return rc;
}
