/* The LKP monitors of a job; see monitors.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/editdist.h"
#include "host/job/monitors.h"
#include "parse/parse_monitor.h"
#include "parse/parse_perf.h"

/* LKP's monitors that could not run in benchboot's VM even if benchboot had them. */
static const struct {
	const char *name, *why;
} unavailable[] = {
    {"numa-numastat", "needs a second NUMA node; benchboot's VM has one (LKP's monitor exits "
                      "without one); not implemented by benchboot"},
    {"numa-vmstat", "needs a second NUMA node; benchboot's VM has one (LKP's monitor exits "
                    "without one); not implemented by benchboot"},
    {"numa-meminfo", "needs a second NUMA node; benchboot's VM has one (LKP's monitor exits "
                     "without one); not implemented by benchboot"},
    {"turbostat", "reads the CPUs' MSRs, which QEMU's TCG CPUs do not have; not implemented by "
                  "benchboot"},
};

static int has(const struct bb_strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

const char *bb_monitor_unavailable(const char *name)
{
	if (bb_monitor_known(name))
		return NULL;
	for (size_t i = 0; i < sizeof unavailable / sizeof unavailable[0]; i++)
		if (!strcmp(unavailable[i].name, name))
			return unavailable[i].why;
	return NULL;
}

static int add(const char *name, struct bb_strv *run, struct bb_strv *missing)
{
	struct bb_strv *to = bb_monitor_known(name) ? run : missing;
	if (has(run, name) || has(missing, name))
		return 0;
	return bb_strv_add(to, name) ? -ENOMEM : 0;
}

/* Take name out of sv. */
static void drop(struct bb_strv *sv, const char *name)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], name)) {
			free(sv->v[i]);
			memmove(sv->v + i, sv->v + i + 1, (sv->n - i - 1) * sizeof *sv->v);
			sv->n--;
			return;
		}
}

int bb_job_monitors(const struct bb_job *job, struct bb_strv *run, struct bb_strv *missing)
{
	int benchmark = 0;
	struct bb_strv minus = {0};
	for (size_t d = 0; d < job->ndocs; d++)
		for (size_t i = 0; i < job->docs[d].n; i++) {
			const struct bb_jparam *p = &job->docs[d].p[i];
			if (p->level != BB_LEVEL_NOTE || strncmp(p->name, "lkp.", 4))
				continue;
			const char *name = p->name + 4;
			size_t l = strlen(name);
			if (!strcmp(p->name, "lkp.category"))
				benchmark |= p->n && p->v[0].s && !strcmp(p->v[0].s, "benchmark");
			else if (l > 1 && name[l - 1] == '-') {
				/* LKP's minus key: NAME- takes NAME out of the merged job */
				if (bb_strv_addn(&minus, name, l - 1))
					goto out_nomem;
			} else if (bb_monitor_is_lkp(name) && add(name, run, missing))
				goto out_nomem;
		}
	for (size_t i = 0; benchmark && bb_monitor_lkp_default[i]; i++)
		if (add(bb_monitor_lkp_default[i], run, missing))
			goto out_nomem;
	for (size_t i = 0; i < minus.n; i++) {
		drop(run, minus.v[i]);
		drop(missing, minus.v[i]);
	}
	bb_strv_free(&minus);
	return 0;
out_nomem:
	bb_strv_free(&minus);
	return -ENOMEM;
}

int bb_job_runs_monitors(const struct bb_job *job)
{
	struct bb_strv run = {0}, missing = {0};
	if (bb_job_monitors(job, &run, &missing))
		return -ENOMEM;
	int n = run.n > 0;
	bb_strv_free(&run);
	bb_strv_free(&missing);
	return n;
}

/* "vmstat proc-vmstat ...": the monitors benchboot runs, for messages. */
static void runnable(char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = 0;
	for (size_t i = 0; i < bb_nmonitors && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "",
		                        bb_monitors[i].name);
	for (size_t i = 0; bb_monitor_lkp_default[i] && off < len; i++)
		if (bb_perf_monitor(bb_monitor_lkp_default[i]))
			off += (size_t)snprintf(buf + off, len - off, " %s",
			                        bb_monitor_lkp_default[i]);
}

/* Why name is not a monitor benchboot runs, into err; -EINVAL. */
static int not_runnable(const char *name, char *err, size_t errlen)
{
	char all[512];
	const char *why = bb_monitor_unavailable(name);
	runnable(all, sizeof all);
	if (why)
		snprintf(err, errlen, "'%s': %s (benchboot runs: %s)", name, why, all);
	else if (bb_monitor_is_lkp(name))
		snprintf(err, errlen,
		         "'%s': LKP's monitor, not implemented by benchboot (it runs: %s)", name,
		         all);
	else {
		const char *best = NULL;
		unsigned bd = 3;
		for (size_t i = 0; bb_monitor_lkp_default[i]; i++) {
			const char *m = bb_monitor_lkp_default[i];
			unsigned d = bb_monitor_known(m) ? bb_edit_distance(name, m) : bd;
			if (d < bd) {
				bd = d;
				best = m;
			}
		}
		snprintf(err, errlen, "'%s' is not a monitor%s%s%s (benchboot runs: %s)", name,
		         best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "", all);
	}
	return -EINVAL;
}

int bb_monitors_from_list(const char *list, struct bb_strv *out, char *err, size_t errlen)
{
	bb_strv_free(out);
	if (!strcmp(list, "none"))
		return 0;
	if (!strcmp(list, "default")) {
		for (size_t i = 0; bb_monitor_lkp_default[i]; i++)
			if (bb_monitor_known(bb_monitor_lkp_default[i]) &&
			    bb_strv_add(out, bb_monitor_lkp_default[i]))
				return -ENOMEM;
		return 0;
	}
	for (const char *s = list;; s++) {
		size_t n = strcspn(s, ",");
		char name[64];
		if (!n || n >= sizeof name) {
			snprintf(err, errlen,
			         "expected none, default, or monitor names separated by commas "
			         "(vmstat,uptime)");
			bb_strv_free(out);
			return -EINVAL;
		}
		memcpy(name, s, n);
		name[n] = 0;
		if (!strcmp(name, "none") || !strcmp(name, "default")) {
			snprintf(err, errlen, "'%s' stands alone, not in a list of names", name);
			bb_strv_free(out);
			return -EINVAL;
		}
		if (!bb_monitor_known(name)) {
			bb_strv_free(out);
			return not_runnable(name, err, errlen);
		}
		if (!has(out, name) && bb_strv_add(out, name))
			return -ENOMEM;
		s += n;
		if (!*s)
			break;
	}
	return 0;
}

/* The options of the job for the monitors that run: "vmstat.interval=2 ...", into buf. */
static void options_line(const struct bb_job *job, const struct bb_strv *run, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = 0;
	for (size_t d = 0; d < job->ndocs; d++)
		for (size_t i = 0; i < job->docs[d].n; i++) {
			const struct bb_jparam *p = &job->docs[d].p[i];
			const char *opt =
			    strncmp(p->name, "monitor.", 8) ? NULL : strrchr(p->name, '.');
			char mon[64], item[256];
			if (!opt || p->level != BB_LEVEL_BOOT)
				continue;
			snprintf(mon, sizeof mon, "%.*s", (int)(opt - p->name - 8), p->name + 8);
			if (!has(run, mon))
				continue;
			size_t il = (size_t)snprintf(item, sizeof item, "%s=", p->name + 8);
			for (size_t v = 0; v < p->n && il < sizeof item; v++)
				il += (size_t)snprintf(item + il, sizeof item - il, "%s%s",
				                       v ? "," : "", p->v[v].s);
			if (off < len && !strstr(buf, item))
				off += (size_t)snprintf(buf + off, len - off, "%s%s",
				                        off ? " " : "", item);
		}
}

void bb_job_print_monitors(FILE *f, const char *prefix, const struct bb_job *job)
{
	struct bb_strv run = {0}, missing = {0};
	char opts[1024];
	int header = 0;
	if (bb_job_monitors(job, &run, &missing))
		goto out_free;
	if (run.n) {
		fprintf(
		    f, "%smonitors (sampled in the measured window of the iterations they run in):",
		    prefix);
		for (size_t i = 0; i < run.n; i++)
			fprintf(f, " %s", run.v[i]);
		fputc('\n', f);
		options_line(job, &run, opts, sizeof opts);
		if (*opts)
			fprintf(f, "%smonitor options (plan monitor.NAME.OPTION): %s\n", prefix,
			        opts);
		/* what they cost where the numbers are measured (docs/compare.md "What the
		 * monitors cost") */
		if (has(&run, "perf-profile") || has(&run, "perf-stat"))
			fprintf(
			    f,
			    "%snote: perf's monitors slow the benchmark they sample (what they "
			    "cost here: bench/monitors-cost.sh,\n%s  docs/compare.md): they run "
			    "in each run's monitored iterations, apart from the measured ones\n%s "
			    " (with `monitored: 0` in the measured ones: compare those with "
			    "monitored results only)\n",
			    prefix, prefix, prefix);
	}
	for (size_t i = 0; i < run.n; i++)
		if (!strcmp(run.v[i], "cpuidle")) {
			fprintf(f, "%smonitors unavailable here:\n", prefix);
			fprintf(f,
			        "%s  cpuidle: under TCG (QEMU's CPUs have no cpuidle driver): its "
			        "status says unavailable, it has no stats\n",
			        prefix);
			header = 1;
		}
	for (size_t i = 0; i < missing.n; i++) {
		const char *why = bb_monitor_unavailable(missing.v[i]);
		if (!why)
			continue;
		if (!header++)
			fprintf(f, "%smonitors unavailable here:\n", prefix);
		fprintf(f, "%s  %s: %s\n", prefix, missing.v[i], why);
	}
	header = 0;
	for (size_t d = 0; d < job->ndocs; d++)
		for (size_t i = 0; i < job->docs[d].n; i++) {
			const struct bb_jparam *p = &job->docs[d].p[i];
			size_t l = strlen(p->name);
			char base[128];
			if (p->level != BB_LEVEL_NOTE || strncmp(p->name, "lkp.", 4) || l < 6 ||
			    p->name[l - 1] != '-' || l - 5 >= sizeof base)
				continue;
			snprintf(base, sizeof base, "%.*s", (int)(l - 5), p->name + 4);
			if (!bb_monitor_is_lkp(base) || (d && bb_jdoc_get(&job->docs[0], p->name)))
				continue;
			if (!header++)
				fprintf(f, "%smonitors taken out (NAME-: keys):", prefix);
			fprintf(f, " %s", base);
		}
	if (header)
		fputc('\n', f);
	header = 0;
	for (size_t i = 0; i < missing.n; i++) {
		if (bb_monitor_unavailable(missing.v[i]))
			continue;
		if (!header++)
			fprintf(f, "%smonitors not implemented yet (recorded only):", prefix);
		fprintf(f, " %s", missing.v[i]);
	}
	if (header)
		fputc('\n', f);
out_free:
	bb_strv_free(&run);
	bb_strv_free(&missing);
}
