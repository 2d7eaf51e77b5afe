/*
 * Stats of one iteration with LKP's names: the suite's parser per client, then aggregation
 * (mean and sum for netperf, sum for stress-ng), then <suite>.time.* from the rusages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int bb_stats_add(struct bb_stats *s, const char *name, double value, const char *unit)
{
	if (strlen(name) >= sizeof s->v[0].name)
		return -ENAMETOOLONG;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct bb_stat *v = realloc(s->v, cap * sizeof *v);
		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	struct bb_stat *st = &s->v[s->n++];
	memset(st, 0, sizeof *st);
	strcpy(st->name, name);
	st->value = value;
	snprintf(st->unit, sizeof st->unit, "%s", unit ? unit : "");
	return 0;
}

const struct bb_stat *bb_stats_find(const struct bb_stats *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}

void bb_stats_free(struct bb_stats *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

static double tv_seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int bb_stats_add_rusage(struct bb_stats *s, const char *suite, const struct rusage *ru,
                        size_t nclients, double elapsed_s)
{
	double user = 0, sys = 0, vcs = 0, ivcs = 0, maxrss = 0, minflt = 0, majflt = 0, inb = 0,
	       oub = 0;
	for (size_t i = 0; i < nclients; i++) {
		user += tv_seconds(ru[i].ru_utime);
		sys += tv_seconds(ru[i].ru_stime);
		vcs += (double)ru[i].ru_nvcsw;
		ivcs += (double)ru[i].ru_nivcsw;
		minflt += (double)ru[i].ru_minflt;
		majflt += (double)ru[i].ru_majflt;
		inb += (double)ru[i].ru_inblock;
		oub += (double)ru[i].ru_oublock;
		if ((double)ru[i].ru_maxrss > maxrss)
			maxrss = (double)ru[i].ru_maxrss;
	}
	const struct {
		const char *name;
		double value;
		const char *unit;
	} t[] = {
	    {"user_time", user, "s"},
	    {"system_time", sys, "s"},
	    {"percent_of_cpu_this_job_got", elapsed_s > 0 ? 100.0 * (user + sys) / elapsed_s : 0,
	     "%"},
	    {"elapsed_time", elapsed_s, "s"},
	    {"voluntary_context_switches", vcs, ""},
	    {"involuntary_context_switches", ivcs, ""},
	    {"max_resident_set_size", maxrss, "KB"},
	    {"minor_page_faults", minflt, ""},
	    {"major_page_faults", majflt, ""},
	    {"file_system_inputs", inb, ""},
	    {"file_system_outputs", oub, ""},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char name[128];
		snprintf(name, sizeof name, "%s.time.%s", suite, t[i].name);
		int rc = bb_stats_add(s, name, t[i].value, t[i].unit);
		if (rc)
			return rc;
	}
	return 0;
}

static int netperf_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                         size_t errlen)
{
	double sum = 0, lc = 0, rc_ = 0, lsd = 0, rsd = 0;
	size_t ncpu = 0, nlc = 0, nrc = 0, nlsd = 0, nrsd = 0;
	int rr = -1, rc;

	if (n == 0) {
		snprintf(err, errlen, "netperf: no clients");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct bb_netperf_result r;
		char why[224];
		rc = bb_parse_netperf(outs[i], &r, why, sizeof why);
		if (rc) {
			snprintf(err, errlen, "client %zu: %s", i, why);
			return rc;
		}
		if (rr >= 0 && rr != r.rr) {
			snprintf(err, errlen, "client %zu: mixes RR and stream results", i);
			return -EINVAL;
		}
		rr = r.rr;
		sum += r.throughput;
		if (r.has_cpu) {
			ncpu++;
			/* netperf prints -1 for a side it did not measure */
			if (r.local_cpu >= 0)
				lc += r.local_cpu, nlc++;
			if (r.remote_cpu >= 0)
				rc_ += r.remote_cpu, nrc++;
			if (r.local_sd >= 0)
				lsd += r.local_sd, nlsd++;
			if (r.remote_sd >= 0)
				rsd += r.remote_sd, nrsd++;
		}
	}
	const char *u = rr ? "tps" : "Mbps";
	const char *sdu = rr ? "us_per_Tr" : "us_per_KB";
	char name[128];
	snprintf(name, sizeof name, "netperf.Throughput_%s", u);
	if ((rc = bb_stats_add(out, name, sum / (double)n, u)))
		return rc;
	snprintf(name, sizeof name, "netperf.Throughput_total_%s", u);
	if ((rc = bb_stats_add(out, name, sum, u)))
		return rc;
	if (ncpu) {
		if (nlc && (rc = bb_stats_add(out, "netperf.local_cpu_util_percent",
		                              lc / (double)nlc, "%")))
			return rc;
		if (nrc && (rc = bb_stats_add(out, "netperf.remote_cpu_util_percent",
		                              rc_ / (double)nrc, "%")))
			return rc;
		snprintf(name, sizeof name, "netperf.local_service_demand_%s", sdu);
		if (nlsd &&
		    (rc = bb_stats_add(out, name, lsd / (double)nlsd, rr ? "us/Tr" : "us/KB")))
			return rc;
		snprintf(name, sizeof name, "netperf.remote_service_demand_%s", sdu);
		if (nrsd &&
		    (rc = bb_stats_add(out, name, rsd / (double)nrsd, rr ? "us/Tr" : "us/KB")))
			return rc;
	}
	return 0;
}

/* Every client's stress-ng stats, summed by name (instances spread over clients add up). */
static int stressng_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                          size_t errlen)
{
	size_t first = out->n;
	if (n == 0) {
		snprintf(err, errlen, "stress-ng: no clients");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct bb_stats one = {0};
		char why[224];
		int rc = bb_parse_stressng(outs[i], &one, why, sizeof why);
		if (rc) {
			snprintf(err, errlen, "client %zu: %s", i, why);
			bb_stats_free(&one);
			return rc;
		}
		for (size_t k = 0; k < one.n; k++) {
			struct bb_stat *have = NULL;
			for (size_t j = first; j < out->n; j++)
				if (!strcmp(out->v[j].name, one.v[k].name))
					have = &out->v[j];
			if (have) {
				have->value += one.v[k].value;
			} else if ((rc = bb_stats_add(out, one.v[k].name, one.v[k].value,
			                              one.v[k].unit))) {
				bb_stats_free(&one);
				return rc;
			}
		}
		bb_stats_free(&one);
	}
	return 0;
}

int bb_stats_for_run(const char *suite, const char *const *client_outputs,
                     const struct rusage *rusages, size_t nclients, double elapsed_s,
                     struct bb_stats *out, char *err, size_t errlen)
{
	int rc;
	if (errlen)
		err[0] = 0;
	if (!strcmp(suite, "netperf"))
		rc = netperf_stats(client_outputs, nclients, out, err, errlen);
	else if (!strcmp(suite, "stress-ng"))
		rc = stressng_stats(client_outputs, nclients, out, err, errlen);
	else {
		snprintf(err, errlen, "unknown suite '%s'", suite);
		return -ENOTSUP;
	}
	if (rc)
		return rc;
	if (rusages)
		return bb_stats_add_rusage(out, suite, rusages, nclients, elapsed_s);
	return 0;
}
