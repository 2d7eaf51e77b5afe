/* The LKP monitors of a job; see monitors.h. */
#include <errno.h>
#include <string.h>

#include "host/job/monitors.h"
#include "parse_monitor.h"
#include "parse_perf.h"

static int has(const struct bb_strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

/* An LKP monitor's name: one of LKP's default set or a key job.h knows as LKP's monitor. */
static int lkp_monitor(const char *name)
{
	for (size_t i = 0; bb_monitor_lkp_default[i]; i++)
		if (!strcmp(bb_monitor_lkp_default[i], name))
			return 1;
	const char *kind = bb_lkp_key_kind(name);
	return kind && !strncmp(kind, "LKP monitors", 12);
}

static int add(const char *name, struct bb_strv *run, struct bb_strv *missing)
{
	struct bb_strv *to = bb_monitor_known(name) ? run : missing;
	if (has(run, name) || has(missing, name))
		return 0;
	return bb_strv_add(to, name) ? -ENOMEM : 0;
}

int bb_job_monitors(const struct bb_job *job, struct bb_strv *run, struct bb_strv *missing)
{
	int benchmark = 0;
	for (size_t d = 0; d < job->ndocs; d++)
		for (size_t i = 0; i < job->docs[d].n; i++) {
			const struct bb_jparam *p = &job->docs[d].p[i];
			if (p->level != BB_LEVEL_NOTE || strncmp(p->name, "lkp.", 4))
				continue;
			if (!strcmp(p->name, "lkp.category"))
				benchmark |= p->n && p->v[0].s && !strcmp(p->v[0].s, "benchmark");
			else if (lkp_monitor(p->name + 4) && add(p->name + 4, run, missing))
				return -ENOMEM;
		}
	for (size_t i = 0; benchmark && bb_monitor_lkp_default[i]; i++)
		if (add(bb_monitor_lkp_default[i], run, missing))
			return -ENOMEM;
	return 0;
}

void bb_job_print_monitors(FILE *f, const char *prefix, const struct bb_job *job)
{
	struct bb_strv run = {0}, missing = {0};
	if (bb_job_monitors(job, &run, &missing))
		goto out_free;
	if (run.n) {
		fprintf(f, "%smonitors (sampled in every iteration's measured window):", prefix);
		for (size_t i = 0; i < run.n; i++)
			fprintf(f, " %s", run.v[i]);
		fputc('\n', f);
	}
	if (missing.n) {
		fprintf(f, "%smonitors not implemented yet (recorded only):", prefix);
		for (size_t i = 0; i < missing.n; i++)
			fprintf(f, " %s", missing.v[i]);
		fputc('\n', f);
	}
out_free:
	bb_strv_free(&run);
	bb_strv_free(&missing);
}
