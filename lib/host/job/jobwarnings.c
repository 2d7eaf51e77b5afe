/* The warnings and notes of a job file, printed the same way by check, build and run. */
#include <stdio.h>
#include <string.h>

#include "host/job/job.h"
#include "host/job/jobwarnings.h"
#include "host/job/monitors.h"
#include "parse/parse_monitor.h"
#include "parse/parse_perf.h"

void bb_job_print_warnings(const char *verb, const struct bb_job *job)
{
	for (size_t i = 0; i < job->warnings.n; i++)
		fprintf(stderr, "benchboot %s: warning: %s\n", verb, job->warnings.v[i]);
}

/* One of LKP's monitors, or a minus key NAME- taking one out: monitors.h lists them. */
static int is_monitor(const char *name)
{
	char base[128];
	size_t l = strlen(name);
	if (bb_monitor_is_lkp(name))
		return 1;
	if (l < 2 || l >= sizeof base || name[l - 1] != '-')
		return 0;
	memcpy(base, name, l - 1);
	base[l - 1] = 0;
	return bb_monitor_is_lkp(base);
}

/* The LKP keys recorded with the results, not acted on: one line per kind (host facts
 * with their values, which are not this machine's). */
void bb_job_print_notes(FILE *f, const char *prefix, const struct bb_job *job)
{
	const char *kinds[16];
	size_t nkinds = 0;
	int header = 0;
	for (size_t d = 0; d < job->ndocs; d++)
		for (size_t i = 0; i < job->docs[d].n; i++) {
			const struct bb_jparam *p = &job->docs[d].p[i];
			if (p->level != BB_LEVEL_NOTE || is_monitor(p->name + 4))
				continue; /* a monitor: bb_job_print_monitors says it */
			const char *kind = bb_lkp_key_kind(p->name + 4);
			if (!kind)
				kind = "not read by this suite in LKP";
			size_t k;
			for (k = 0; k < nkinds && kinds[k] != kind; k++)
				;
			if (k == nkinds && nkinds < sizeof kinds / sizeof kinds[0])
				kinds[nkinds++] = kind;
		}
	for (size_t k = 0; k < nkinds; k++) {
		if (!header++)
			fprintf(
			    f, "%snot acted on (LKP keys, recorded with the results as lkp.KEY):\n",
			    prefix);
		fprintf(f, "%s  %s:", prefix, kinds[k]);
		int host = strstr(kinds[k], "0-day host") != NULL;
		for (size_t d = 0; d < job->ndocs; d++)
			for (size_t i = 0; i < job->docs[d].n; i++) {
				const struct bb_jparam *p = &job->docs[d].p[i];
				const char *kind =
				    p->level == BB_LEVEL_NOTE ? bb_lkp_key_kind(p->name + 4) : NULL;
				int seen = 0;
				if (p->level != BB_LEVEL_NOTE || is_monitor(p->name + 4) ||
				    (kind ? kind : "not read by this suite in LKP") != kinds[k])
					continue;
				if (!kind && strcmp(kinds[k], "not read by this suite in LKP"))
					continue;
				for (size_t e = 0; e < d && !seen; e++)
					seen = bb_jdoc_get(&job->docs[e], p->name) != NULL;
				if (seen)
					continue;
				if (host || !kind)
					fprintf(f, " %s=%s", p->name + 4, p->v[0].s);
				else
					fprintf(f, " %s", p->name + 4);
			}
		fputc('\n', f);
	}
	bb_job_print_monitors(f, prefix, job);
}

void bb_job_file_warnings(const char *verb, const char *path, const struct bb_strv *sets)
{
	struct bb_job job;
	char err[1024], prefix[64];
	if (bb_job_parse_file_set(path, sets, &job, err, sizeof err))
		return; /* the verb itself reports a job that does not parse */
	bb_job_print_warnings(verb, &job);
	snprintf(prefix, sizeof prefix, "benchboot %s: ", verb);
	bb_job_print_notes(stderr, prefix, &job);
	bb_job_free(&job);
}
