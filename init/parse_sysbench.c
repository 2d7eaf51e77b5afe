/* sysbench's output into LKP's stats (parse_sysbench.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_sysbench.h"

/* How LKP's parse reduces a stat's values over the clients' lines. */
enum reduce { SUM, MEAN, LEAST, MOST };

/* LKP's stats, in the order of its parse's lines. */
enum {
	OPS,
	MBS,
	WORKLOAD,
	EPS,
	TIME,
	LAT_MIN,
	LAT_AVG,
	LAT_MAX,
	LAT_95TH,
	EV_AVG,
	EV_STDDEV,
	RT_AVG,
	RT_STDDEV,
	NSTATS
};

static const struct {
	const char *name, *unit;
	enum reduce reduce;
} stats[NSTATS] = {
    [OPS] = {"throughput_ops/s", "ops/s", SUM},
    [MBS] = {"throughput_MB/s", "MiB/s", SUM},
    [WORKLOAD] = {"workload", "events", SUM},
    [EPS] = {"throughput_events/s", "events/s", MEAN},
    [TIME] = {"throughput_time", "s", MEAN},
    [LAT_MIN] = {"latency_ms.min", "ms", LEAST},
    [LAT_AVG] = {"latency_ms.avg", "ms", MEAN},
    [LAT_MAX] = {"latency_ms.max", "ms", MOST},
    [LAT_95TH] = {"latency_ms.95th", "ms", MEAN},
    [EV_AVG] = {"events/thread.avg", "events", MEAN},
    [EV_STDDEV] = {"events/thread.stddev", "events", MEAN},
    [RT_AVG] = {"runtime/thread.avg", "s", MEAN},
    [RT_STDDEV] = {"runtime/thread.stddev", "s", MEAN},
};

struct acc {
	double v[NSTATS];
	size_t n[NSTATS];
};

static void add(struct acc *a, int k, double v)
{
	switch (stats[k].reduce) {
	case LEAST:
		if (!a->n[k] || v < a->v[k])
			a->v[k] = v;
		break;
	case MOST:
		if (!a->n[k] || v > a->v[k])
			a->v[k] = v;
		break;
	default:
		a->v[k] += v;
	}
	a->n[k]++;
}

/* The number LKP's `LABEL\s+([0-9.]+)` takes after label in the line [l, end): 0 and *v, or -1. */
static int number_after(const char *l, const char *end, const char *label, double *v)
{
	const char *at = strstr(l, label);
	if (!at || at >= end)
		return -1;
	at += strlen(label);
	size_t sp = strspn(at, " \t");
	if (!sp || !at[sp] || !strchr("0123456789.", at[sp]))
		return -1;
	*v = strtod(at + sp, NULL);
	return 0;
}

/* "A/B" after the last ": " of the line (LKP's `:\s+([0-9.]+)\/([0-9.]+)`): 0, or -1. */
static int pair_after_colon(const char *l, const char *end, double *a, double *b)
{
	const char *c = NULL;
	for (const char *p = l; p < end; p++)
		if (*p == ':')
			c = p;
	if (!c || (c[1] != ' ' && c[1] != '\t') || sscanf(c + 1, "%lf/%lf", a, b) != 2)
		return -1;
	return 0;
}

/* One client's output into a; 1 when it had the events line. */
static int one(const char *s, struct acc *a)
{
	double v, w, events = -1, total = -1;
	int eps = 0, elapsed = 0;
	for (const char *l = s; l && *l; l += strcspn(l, "\n"), l += *l == '\n') {
		const char *end = l + strcspn(l, "\n"), *at;
		/* LKP's lines in its order: the first that matches takes the line */
		if ((at = strstr(l, "Total operations:")) && at < end &&
		    sscanf(at, "Total operations: %*u (%lf", &v) == 1)
			add(a, OPS, v);
		else if ((at = strstr(l, " transferred (")) && at > l && at < end &&
		         sscanf(at, " transferred (%lf", &v) == 1)
			add(a, MBS, v);
		else if (!number_after(l, end, "total number of events:", &v))
			add(a, WORKLOAD, events = v);
		else if (!number_after(l, end, "events/s (eps):", &v))
			add(a, EPS, v), eps = 1;
		else if (!number_after(l, end, "time elapsed:", &v))
			add(a, TIME, v), elapsed = 1;
		else if (!number_after(l, end, "min:", &v))
			add(a, LAT_MIN, v);
		else if (!number_after(l, end, "avg:", &v))
			add(a, LAT_AVG, v);
		else if (!number_after(l, end, "max:", &v))
			add(a, LAT_MAX, v);
		else if (!number_after(l, end, "95th percentile:", &v))
			add(a, LAT_95TH, v);
		else if ((at = strstr(l, "events (avg/stddev):")) && at < end &&
		         !pair_after_colon(at, end, &v, &w))
			add(a, EV_AVG, v), add(a, EV_STDDEV, w);
		else if ((at = strstr(l, "execution time")) && at < end &&
		         !pair_after_colon(at, end, &v, &w))
			add(a, RT_AVG, v), add(a, RT_STDDEV, w);
		/* sysbench 1.0's "total time:", the "time elapsed:" of the sysbench LKP builds */
		else if (!number_after(l, end, "total time:", &v))
			total = v;
	}
	if (total > 0 && !elapsed)
		add(a, TIME, total);
	if (total > 0 && events >= 0 && !eps)
		add(a, EPS, events / total);
	return events >= 0;
}

/* What sysbench said instead: its FATAL line, else its first line; at most len - 1 bytes. */
static void said(const char *s, char *out, size_t len)
{
	const char *f = strstr(s, "FATAL");
	if (!f) {
		f = s + strspn(s, "\r\n");
	} else {
		while (f > s && f[-1] != '\n')
			f--;
	}
	size_t n = strcspn(f, "\r\n");
	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), f);
}

/*
 * The stats of an iteration's clients' outputs (one sysbench each; sysbench-memory's
 * nr_processes are several), named SUITE.STAT as LKP's programs/sysbench/parse names them:
 * summed over the clients, throughput_ops/s and throughput_MB/s (sysbench memory's "Total
 * operations" and "transferred" lines) and workload (the events); the mean of the clients,
 * throughput_events/s, throughput_time, latency_ms.avg, latency_ms.95th, events/thread.avg,
 * events/thread.stddev, runtime/thread.avg, runtime/thread.stddev; the least
 * latency_ms.min; the greatest latency_ms.max. sysbench 1.0's "total time:" stands for the
 * "time elapsed:" of the sysbench LKP builds, and events / total time for its "events/s
 * (eps):". 0, or -EINVAL with the reason in err (sysbench's own first line quoted).
 */
static int parse_sysbench_stats(const char *suite, const char *const *outs, size_t n,
                                struct bb_stats *out, char *err, size_t errlen)
{
	struct acc a = {0};
	int rc;
	if (n == 0) {
		snprintf(err, errlen, "%s: no clients", suite);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		if (!one(outs[i] ? outs[i] : "", &a)) {
			char line[160];
			said(outs[i] ? outs[i] : "", line, sizeof line);
			snprintf(err, errlen,
			         "%s: no \"total number of events:\" line in the output of client "
			         "%zu%s%s%s",
			         suite, i, *line ? " (it said: " : "", line, *line ? ")" : "");
			return -EINVAL;
		}
	for (int k = 0; k < NSTATS; k++) {
		char name[96];
		if (!a.n[k])
			continue;
		snprintf(name, sizeof name, "%s.%s", suite, stats[k].name);
		double v = stats[k].reduce == MEAN ? a.v[k] / (double)a.n[k] : a.v[k];
		if ((rc = bb_stats_add(out, name, v, stats[k].unit)))
			return rc;
	}
	return 0;
}

int parse_sysbench_cpu(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                       size_t errlen)
{
	return parse_sysbench_stats("sysbench-cpu", outs, n, out, err, errlen);
}

int parse_sysbench_memory(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                          size_t errlen)
{
	return parse_sysbench_stats("sysbench-memory", outs, n, out, err, errlen);
}

int parse_sysbench_threads(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                           size_t errlen)
{
	return parse_sysbench_stats("sysbench-threads", outs, n, out, err, errlen);
}

int parse_sysbench_mutex(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                         size_t errlen)
{
	return parse_sysbench_stats("sysbench-mutex", outs, n, out, err, errlen);
}
