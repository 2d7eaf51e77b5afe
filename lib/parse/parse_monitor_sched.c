/*
 * sched_debug (parse_monitor_int.h): LKP's programs/sched_debug/parse over
 * /sys/kernel/debug/sched/debug (or /proc/sched_debug), read at lkp-tests bbbc29c4.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "parse/parse_monitor_int.h"

/* Ruby's to_f: the number the text starts with, 0 when none. */
static double to_f(const char *s)
{
	return strtod(s, NULL);
}

/* One per-CPU value of key this sample, for its .max .min .avg .stddev. */
static void percpu_add(struct parse *p, const char *key, double v)
{
	struct bb_resjson *r = &p->percpu;
	struct bb_resjson_series *s = NULL;
	for (size_t i = 0; i < r->n && !s; i++)
		if (!strcmp(r->s[i].name, key))
			s = &r->s[i];
	if (!s) {
		if (strlen(key) >= sizeof r->s[0].name)
			return;
		if (bb_grow(&r->s, &r->cap, r->n + 1, sizeof *r->s)) {
			p->err = -ENOMEM;
			return;
		}
		s = &r->s[r->n++];
		memset(s, 0, sizeof *s);
		strcpy(s->name, key);
	}
	if (bb_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v)) {
		p->err = -ENOMEM;
		return;
	}
	s->v[s->n++] = v;
}

/* LKP's statistics after each sample: KEY.max .min .avg .stddev (population) of each
 * per-CPU key, in the order the keys came. */
static void sched_debug_finish(struct parse *p)
{
	struct bb_resjson *r = &p->percpu;
	for (size_t i = 0; i < r->n && !p->err; i++) {
		const struct bb_resjson_series *s = &r->s[i];
		double max = s->v[0], min = s->v[0], sum = 0, var = 0;
		char key[160];
		for (size_t k = 0; k < s->n; k++) {
			max = s->v[k] > max ? s->v[k] : max;
			min = s->v[k] < min ? s->v[k] : min;
			sum += s->v[k];
		}
		double avg = sum / (double)s->n;
		for (size_t k = 0; k < s->n; k++)
			var += (s->v[k] - avg) * (s->v[k] - avg);
		static const char *const what[4] = {"max", "min", "avg", "stddev"};
		double v[4] = {max, min, avg, sqrt(var / (double)s->n)};
		for (int w = 0; w < 4; w++) {
			snprintf(key, sizeof key, "%s.%s", s->name, what[w]);
			bb_mon_emit_num(p, key, v[w]);
		}
	}
	bb_resjson_free(r);
}

/* LKP's /^\s*(\S+)\s*:\s+([0-9.-]+)/ on line: 1 with the key and the value's text. */
static int key_value(const char *line, char *key, size_t klen, char *val, size_t vlen)
{
	const char *k = line + strspn(line, " \t\r\n\f\v");
	size_t kn = strcspn(k, " \t\r\n\f\v");
	if (!kn)
		return 0;
	/* the word may end in ':' itself (backtracking: the ':' is the regex's) */
	for (size_t cut = kn; cut >= 1; cut--) {
		const char *q = k + cut;
		if (cut == kn)
			q += strspn(q, " \t\r\n\f\v");
		if (*q != ':')
			continue;
		q++;
		size_t sp = strspn(q, " \t\r\n\f\v");
		size_t vn = strspn(q + sp, "0123456789.-");
		if (!sp || !vn)
			continue;
		snprintf(key, klen, "%.*s", (int)cut, k);
		snprintf(val, vlen, "%.*s", (int)vn, q + sp);
		return 1;
	}
	return 0;
}

static void sched_debug_line(struct parse *p, char *line)
{
	char key[256], val[64], name[600];
	if (!strncmp(line, "Sched Debug Version:", 20) || !strncmp(line, "runnable tasks:", 15))
		return;
	if (key_value(line, key, sizeof key, val, sizeof val)) {
		if (strstr(p->prefix, ":/autogroup-"))
			return;
		snprintf(name, sizeof name, "%s%s", p->prefix, key);
		if (*p->no) {
			char full[620];
			snprintf(full, sizeof full, "%s.%s", name, p->no);
			bb_mon_emit(p, full, val);
			percpu_add(p, name, to_f(val));
		} else
			bb_mon_emit(p, name, val);
		return;
	}
	char *w[1];
	if (!bb_mon_split(line, w, 1))
		return;
	/* values[0].tr(',', ''), then `PREFIX#N` or `PREFIX[N]REST` */
	char pre[256];
	size_t n = 0;
	for (const char *c = w[0]; *c && n + 1 < sizeof pre; c++)
		if (*c != ',')
			pre[n++] = *c;
	pre[n] = 0;
	*p->no = 0;
	char *hash = strrchr(pre, '#'), *open = strrchr(pre, '['), *close;
	if (hash && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1)) {
		snprintf(p->no, sizeof p->no, "%.15s", hash + 1);
		*hash = 0;
	} else if (open && (close = strchr(open, ']')) && close > open + 1 &&
	           strspn(open + 1, "0123456789") == (size_t)(close - open - 1)) {
		snprintf(p->no, sizeof p->no, "%.*s", (int)(close - open - 1), open + 1);
		memmove(open, close + 1, strlen(close + 1) + 1);
	}
	snprintf(p->prefix, sizeof p->prefix, "%s", pre);
}

/*
 * A sample: top-level `KEY : VALUE` lines as KEY, a section's (`sysctl_sched`, `cpu#N, F
 * MHz`, `cfs_rq[N]:/PATH`, `rt_rq[N]:`, `dl_rq[N]:`) as SECTION.KEY, and for a numbered
 * section per CPU SECTION.KEY.N (cpu.nr_switches.0, cfs_rq:/.min_vruntime.1) with, after the
 * sample, SECTION.KEY.max .min .avg .stddev over the CPUs. Autogroup cfs_rqs are left out,
 * the runnable tasks' table gives nothing. Means over the samples (60 s apart).
 */
void bb_mon_sched_debug_sample(struct parse *p, const char *text, size_t len)
{
	*p->prefix = 0;
	bb_mon_each_line(p, text, len, sched_debug_line);
	sched_debug_finish(p);
}
