/* fio's JSON into LKP's stats (parse_fio.h): a reader of just what the stats need. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_fio.h"

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* The end of the string at p ('"'), or NULL. */
static const char *string_end(const char *p)
{
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p ? p + 1 : NULL;
}

/* The end of the JSON value at p, or NULL when it is not one. */
static const char *skip(const char *p, int depth)
{
	p = ws(p);
	if (depth > 64)
		return NULL;
	if (*p == '"')
		return string_end(p);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		p = ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				if (*p != '"' || !(p = string_end(p)) || *(p = ws(p)) != ':')
					return NULL;
				p++;
			}
			if (!(p = skip(p, depth + 1)))
				return NULL;
			p = ws(p);
			if (*p == close)
				return p + 1;
			if (*p != ',')
				return NULL;
			p = ws(p + 1);
		}
	}
	const char *s = p;
	while (*p && !strchr(",]} \t\r\n", *p))
		p++;
	return p > s ? p : NULL;
}

/* Each member of the object at o: fn(key, keylen, value, arg) until it returns non-zero. */
static int members(const char *o, int (*fn)(const char *, size_t, const char *, void *), void *arg)
{
	o = ws(o);
	if (*o != '{')
		return -1;
	const char *p = ws(o + 1);
	if (*p == '}')
		return 0;
	for (;;) {
		const char *k = p, *e;
		if (*k != '"' || !(e = string_end(k)) || *(p = ws(e)) != ':')
			return -1;
		const char *v = ws(p + 1);
		int rc = fn(k + 1, (size_t)(e - k - 2), v, arg);
		if (rc)
			return rc;
		if (!(p = skip(v, 0)))
			return -1;
		p = ws(p);
		if (*p == '}')
			return 0;
		if (*p != ',')
			return -1;
		p = ws(p + 1);
	}
}

struct find {
	const char *key, *val;
};

static int find_one(const char *k, size_t n, const char *v, void *arg)
{
	struct find *f = arg;
	if (strlen(f->key) == n && !strncmp(k, f->key, n)) {
		f->val = v;
		return 1;
	}
	return 0;
}

/* The value of member key of the object at o, or NULL. */
static const char *get(const char *o, const char *key)
{
	struct find f = {key, NULL};
	if (!o)
		return NULL;
	return members(o, find_one, &f) == 1 ? f.val : NULL;
}

/* The number at v into *d: 0, or -1 when v is no number. */
static int num(const char *v, double *d)
{
	char *e;
	if (!v)
		return -1;
	*d = strtod(v, &e);
	return e == v ? -1 : 0;
}

struct emit {
	struct bb_stats *out;
	const char *prefix, *suffix, *unit;
	int rc;
};

/* LKP's percentile names: "90.000000" -> 90 */
static const char *const percentiles[] = {"90.000000", "95.000000", "99.000000", NULL};

static int add_percentile(const char *k, size_t n, const char *v, void *arg)
{
	struct emit *e = arg;
	double d;
	for (size_t i = 0; percentiles[i]; i++)
		if (strlen(percentiles[i]) == n && !strncmp(k, percentiles[i], n) && !num(v, &d)) {
			char name[128];
			snprintf(name, sizeof name, "%s%.2s%s", e->prefix, k, e->suffix);
			if ((e->rc = bb_stats_add(e->out, name, d, e->unit)))
				return 1;
		}
	return 0;
}

/* fio's latency buckets: "2": 0.01, ">=2000": 0.00 -> fio.latency_2us%, fio.latency_>=2000ms% */
static int add_bucket(const char *k, size_t n, const char *v, void *arg)
{
	struct emit *e = arg;
	double d;
	char name[128];
	if (num(v, &d))
		return 0;
	snprintf(name, sizeof name, "%s%.*s%s", e->prefix, (int)(n < 32 ? n : 32), k, e->suffix);
	return (e->rc = bb_stats_add(e->out, name, d, "%")) != 0;
}

/* One op of the job (LKP's parse_op_stats): its stats, its I/Os into *ios. */
static int op_stats(const char *job, const char *op, struct bb_stats *out, double *ios, char *err,
                    size_t errlen)
{
	const char *o = get(job, op);
	double bw, iops, d;
	char name[128];
	int rc;
	if (!o || num(get(o, "bw"), &bw) || num(get(o, "iops"), &iops)) {
		snprintf(err, errlen, "fio: no %s bw and iops in the first job of fio's JSON", op);
		return -EINVAL;
	}
#define ADD(fmt, value, unit)                                                                      \
	do {                                                                                       \
		snprintf(name, sizeof name, "fio.%s_" fmt, op);                                    \
		if ((rc = bb_stats_add(out, name, (value), (unit))))                               \
			return rc;                                                                 \
	} while (0)
	ADD("bw_MBps", bw / 1024, "MB/s");
	ADD("iops", iops, "iops");
	/* fio 3's clat_ns and slat_ns (LKP also takes fio 2's clat and slat) */
	const char *clat = get(o, "clat_ns") ? get(o, "clat_ns") : get(o, "clat");
	if (!num(get(clat, "mean"), &d))
		ADD("clat_mean_ns", d, "ns");
	if (!num(get(clat, "stddev"), &d))
		ADD("clat_stddev", d, "ns");
	const char *pct = get(clat, "percentile");
	if (pct) {
		char prefix[64];
		snprintf(prefix, sizeof prefix, "fio.%s_clat_", op);
		struct emit e = {out, prefix, "%_ns", "ns", 0};
		members(pct, add_percentile, &e);
		if (e.rc)
			return e.rc;
	}
	const char *slat = get(o, "slat_ns") ? get(o, "slat_ns") : get(o, "slat");
	if (!num(get(slat, "mean"), &d))
		ADD("slat_mean_us", d, "ns");
	if (!num(get(slat, "stddev"), &d))
		ADD("slat_stddev", d, "ns");
#undef ADD
	if (!num(get(o, "total_ios"), &d))
		*ios += d;
	return 0;
}

int parse_fio_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                    size_t errlen)
{
	const char *s = n && outs[0] ? strchr(outs[0], '{') : NULL;
	if (!s) {
		snprintf(err, errlen,
		         "fio: no JSON in its output (maybe it is not a json format file)");
		return -EINVAL;
	}
	if (!skip(s, 0)) {
		snprintf(err, errlen, "fio: its JSON output is cut short or damaged");
		return -EINVAL;
	}
	const char *jobs = get(s, "jobs");
	const char *job = jobs && *jobs == '[' ? ws(jobs + 1) : NULL;
	if (!job || *job != '{') {
		snprintf(err, errlen, "fio: no job in fio's JSON");
		return -EINVAL;
	}
	double ios = 0;
	int rc;
	if ((rc = op_stats(job, "read", out, &ios, err, errlen)) ||
	    (rc = op_stats(job, "write", out, &ios, err, errlen)))
		return rc;
	struct emit us = {out, "fio.latency_", "us%", "%", 0},
	            ms = {out, "fio.latency_", "ms%", "%", 0};
	if (get(job, "latency_us"))
		members(get(job, "latency_us"), add_bucket, &us);
	if (!us.rc && get(job, "latency_ms"))
		members(get(job, "latency_ms"), add_bucket, &ms);
	if (us.rc || ms.rc)
		return us.rc ? us.rc : ms.rc;
	return bb_stats_add(out, "fio.workload", ios, "");
}
