/*
 * mpstat and cpuidle (parse_monitor_int.h): LKP's programs/mpstat/{monitor,parse} and
 * programs/cpuidle/{monitor,parse}, read at lkp-tests bbbc29c4.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "parse/parse_monitor_int.h"

enum { J_USER, J_NICE, J_SYS, J_IDLE, J_IOWAIT, J_IRQ, J_SOFT, J_STEAL, J_GUEST, J_GNICE };

/* mpstat -o JSON prints its per cents with two decimals; LKP's parse reads those. */
static double pct(unsigned long long part, unsigned long long total)
{
	return total ? round(10000.0 * (double)part / (double)total) / 100 : 0;
}

static unsigned long long sub(unsigned long long a, unsigned long long b)
{
	return a > b ? a - b : 0;
}

/*
 * mpstat: the "all" row of `mpstat -o JSON 1` (what LKP runs: no -P, so no per-CPU rows),
 * computed as sysstat computes it from two reads of /proc/stat's `cpu` line one interval
 * apart: the change of each field over the change of user + nice + system + idle + iowait +
 * irq + softirq + steal (guest time is inside user time), usr and nice without the guests'.
 * The first sample only gives the counters (bb_monitor_parse does not count it as a record):
 * mpstat's first report is one interval after it starts. LKP's names: cpu.all.usr% ...
 */
void bb_mon_mpstat_sample(struct parse *p, const char *text, size_t len)
{
	unsigned long long c[10] = {0}, d[10];
	if (len < 4 || memcmp(text, "cpu ", 4))
		return;
	const char *l = text + 4;
	for (int i = 0; i < 10; i++) {
		char *e;
		c[i] = strtoull(l, &e, 10);
		l = e;
	}
	int first = !p->have_prev;
	for (int i = 0; i < 10; i++)
		d[i] = sub(c[i], p->prev[i]);
	memcpy(p->prev, c, sizeof c);
	p->have_prev = 1;
	if (first)
		return;
	unsigned long long tot = d[J_USER] + d[J_NICE] + d[J_SYS] + d[J_IDLE] + d[J_IOWAIT] +
	                         d[J_IRQ] + d[J_SOFT] + d[J_STEAL];
	double v[10] = {pct(sub(d[J_USER], d[J_GUEST]), tot),
	                pct(sub(d[J_NICE], d[J_GNICE]), tot),
	                pct(d[J_SYS], tot),
	                pct(d[J_IOWAIT], tot),
	                pct(d[J_IRQ], tot),
	                pct(d[J_SOFT], tot),
	                pct(d[J_STEAL], tot),
	                pct(d[J_GUEST], tot),
	                pct(d[J_GNICE], tot),
	                tot ? pct(d[J_IDLE], tot) : 100};
	static const char *const names[10] = {"usr",  "nice",  "sys",   "iowait", "irq",
	                                      "soft", "steal", "guest", "gnice",  "idle"};
	for (int i = 0; i < 10; i++) {
		char key[32];
		snprintf(key, sizeof key, "cpu.all.%s%%", names[i]);
		bb_mon_emit_num(p, key, v[i]);
	}
	if (bb_grow(&p->idle, &p->caprec, p->nrec + 1, sizeof *p->idle)) {
		p->err = -ENOMEM;
		return;
	}
	/* the same capacity for both: grow the second to the first's */
	double *io = realloc(p->iowait, p->caprec * sizeof *io);
	if (!io) {
		p->err = -ENOMEM;
		return;
	}
	p->iowait = io;
	p->idle[p->nrec] = v[9];
	p->iowait[p->nrec++] = v[3];
}

/*
 * After the last record, LKP's display_max_util: max_utilization_pct, the highest 100 - idle
 * - iowait of a record, and max_utilization.seconds, the record's number from 1 (the first
 * of equal ones), each times the number of records since it is printed once and averaged
 * with the records before it (as zeros).
 */
void bb_mon_mpstat_finish(struct parse *p)
{
	size_t best = 0;
	double max = 0;
	for (size_t i = 0; i < p->nrec; i++) {
		double u = 100 - p->idle[i] - p->iowait[i];
		if (!i || u > max) {
			max = u;
			best = i;
		}
	}
	if (p->nrec) {
		p->sample = p->nrec - 1;
		bb_mon_emit_num(p, "max_utilization_pct", max * (double)p->nrec);
		bb_mon_emit_num(p, "max_utilization.seconds", (double)((best + 1) * p->nrec));
	}
	free(p->idle);
	free(p->iowait);
	p->idle = p->iowait = NULL;
}

/*
 * cpuidle: a snapshot is the files of every cpuN/cpuidle/stateM (name, time, usage), each
 * after its `==> PATH <==`. LKP's monitor loses the state's name in a shell pipeline (`cat
 * name | sed | read state_name` reads it in a subshell), so it prints `cpuN..time: T` and
 * its parse sums each key over the CPUs: LKP's stats are cpuidle..time (µs idle, all CPUs
 * and states) and cpuidle..usage (entries), kept so here; event counters (last - first).
 */
void bb_mon_cpuidle_sample(struct parse *p, const char *text, size_t len)
{
	unsigned long long sum[2] = {0, 0};
	int seen[2] = {0, 0};
	const char *end = text + len;
	for (const char *l = text; l < end;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		size_t n = nl ? (size_t)(nl - l) : (size_t)(end - l);
		if (n > 8 && !memcmp(l, "==> ", 4) && !memcmp(l + n - 4, " <==", 4) && nl) {
			const char *path_end = l + n - 4;
			int which = path_end - l > 9 && !memcmp(path_end - 5, "/time", 5)     ? 0
			            : path_end - l > 10 && !memcmp(path_end - 6, "/usage", 6) ? 1
			                                                                      : -1;
			if (which >= 0 && strstr(l, "/cpuidle/state")) {
				char *e;
				unsigned long long v = strtoull(nl + 1, &e, 10);
				if (e != nl + 1) {
					sum[which] += v;
					seen[which] = 1;
				}
			}
		}
		l += n + (nl != NULL);
	}
	if (seen[0])
		bb_mon_emit_num(p, ".time", (double)sum[0]);
	if (seen[1])
		bb_mon_emit_num(p, ".usage", (double)sum[1]);
}
