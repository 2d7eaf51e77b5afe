/*
 * LKP's /proc monitors: raw samples -> LKP's series -> one value per iteration. See
 * parse_monitor.h; each parser says which of LKP's files it follows (read at lkp-tests
 * bbbc29c4).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "parse/parse_monitor.h"
#include "parse/parse_monitor_int.h"

const struct bb_monitor bb_monitors[] = {
    {"vmstat", {"/proc/stat", "/proc/vmstat", "/proc/meminfo", NULL}, BB_MON_EVERY, 1, 0},
    {"proc-vmstat", {"/proc/vmstat", NULL}, BB_MON_EVERY, 1, 0},
    {"meminfo", {"/proc/meminfo", NULL}, BB_MON_EVERY, 1, 0},
    {"interrupts", {"/proc/interrupts", NULL}, BB_MON_START_END, 0, 0},
    {"softirqs", {"/proc/softirqs", NULL}, BB_MON_START_END, 0, 0},
    {"uptime", {"/proc/uptime", NULL}, BB_MON_END, 0, 0},
    {"mpstat", {"/proc/stat", NULL}, BB_MON_EVERY, 1, 0},
    /* LKP's programs/proc-vmstat/monitor: debugfs first, /proc/sched_debug before 5.13 */
    {"sched_debug",
     {"/sys/kernel/debug/sched/debug", "/proc/sched_debug", NULL},
     BB_MON_EVERY,
     60,
     1},
    {"cpuidle",
     {"/sys/devices/system/cpu/cpu*/cpuidle/state*/name",
      "/sys/devices/system/cpu/cpu*/cpuidle/state*/time",
      "/sys/devices/system/cpu/cpu*/cpuidle/state*/usage", NULL},
     BB_MON_START_END,
     0,
     0},
    {"slabinfo", {"/proc/slabinfo", NULL}, BB_MON_EVERY, 1, 0},
};
const size_t bb_nmonitors = sizeof bb_monitors / sizeof bb_monitors[0];

const char *const bb_monitor_lkp_default[] = {
    "kmsg",          "boot-time",   "uptime",       "iostat",        "heartbeat", "vmstat",
    "numa-numastat", "numa-vmstat", "numa-meminfo", "proc-vmstat",   "proc-stat", "meminfo",
    "slabinfo",      "interrupts",  "lock_stat",    "perf-sched",    "softirqs",  "bdi_dev_mapping",
    "diskstats",     "nfsstat",     "cpuidle",      "cpufreq-stats", "turbostat", "sched_debug",
    "perf-stat",     "mpstat",      "perf-c2c",     "perf-profile",  NULL};

const struct bb_monitor *bb_monitor_find(const char *name)
{
	for (size_t i = 0; i < bb_nmonitors; i++)
		if (!strcmp(bb_monitors[i].name, name))
			return &bb_monitors[i];
	return NULL;
}

const struct bb_monitor *bb_monitor_of_stat(const char *stat)
{
	for (size_t i = 0; i < bb_nmonitors; i++) {
		size_t n = strlen(bb_monitors[i].name);
		if (!strncmp(stat, bb_monitors[i].name, n) && stat[n] == '.')
			return &bb_monitors[i];
	}
	return NULL;
}

/* LKP's etc/event-counter-prefixes, whole. Its prefix for softirqs is `softirq.` (sic), which
 * no softirqs.* stat starts with: those are means, as in LKP. etc/event-counter-patterns only
 * names numa-vmstat.nodeN.* stats, which no monitor here makes. */
static const char *const event_counter_prefixes[] = {"cpuidle.",
                                                     "diskstats.io_ticks.",
                                                     "diskstats.read_ios.",
                                                     "diskstats.read_merges.",
                                                     "diskstats.read_sectors.",
                                                     "diskstats.read_ticks.",
                                                     "diskstats.write_ios.",
                                                     "diskstats.write_merges.",
                                                     "diskstats.write_sectors.",
                                                     "diskstats.write_ticks.",
                                                     "energy.",
                                                     "ethtool.",
                                                     "interrupts.",
                                                     "numa-numastat.",
                                                     "numa-vmstat.nr_dirtied",
                                                     "numa-vmstat.nr_vmscan_immediate_reclaim",
                                                     "numa-vmstat.nr_written",
                                                     "numa-vmstat.numa_",
                                                     "pmu-numa.total_moved",
                                                     "proc-vmstat.allocstall",
                                                     "proc-vmstat.compact_",
                                                     "proc-vmstat.htlb_buddy_alloc_",
                                                     "proc-vmstat.kswapd_",
                                                     "proc-vmstat.nr_dirtied",
                                                     "proc-vmstat.nr_promoted",
                                                     "proc-vmstat.nr_promote_fail",
                                                     "proc-vmstat.nr_promote_isolate_fail",
                                                     "proc-vmstat.nr_promote_ratelimit",
                                                     "proc-vmstat.nr_vmscan_immediate_reclaim",
                                                     "proc-vmstat.nr_written",
                                                     "proc-vmstat.numa_",
                                                     "proc-vmstat.pageoutrun",
                                                     "proc-vmstat.pg",
                                                     "proc-vmstat.pswp",
                                                     "proc-vmstat.slabs_scanned",
                                                     "proc-vmstat.thp_",
                                                     "proc-vmstat.unevictable_pgs_",
                                                     "proc-vmstat.zone_reclaim_failed",
                                                     "softirq."};

int bb_monitor_event_counter(const char *stat)
{
	for (size_t i = 0; i < sizeof event_counter_prefixes / sizeof *event_counter_prefixes; i++)
		if (!strncmp(stat, event_counter_prefixes[i], strlen(event_counter_prefixes[i])))
			return 1;
	return 0;
}

/* programs/proc-vmstat/parse: `KEY VALUE` (the monitor's awk keeps a key's first line). */
static void proc_vmstat_line(struct parse *p, char *line)
{
	char *w[2];
	if (bb_mon_split(line, w, 2) < 2)
		return;
	size_t n = strlen(w[0]);
	if (n && w[0][n - 1] == ':')
		w[0][n - 1] = 0;
	bb_mon_emit(p, w[0], w[1]);
}

/* programs/meminfo/parse: `KEY: VALUE [UNIT]`, plus Memused = MemTotal (the first one read)
 * - MemFree and max_used_UNIT, the largest Memused so far. */
static void meminfo_line(struct parse *p, char *line)
{
	char *w[3];
	size_t nw;
	if (!strncmp(line, "test_klp_atomic_replace:", 24) || !strncmp(line, "entries", 7) ||
	    (nw = bb_mon_split(line, w, 3)) < 2)
		return;
	size_t n = strlen(w[0]);
	if (n && w[0][n - 1] == ':')
		w[0][n - 1] = 0;
	bb_mon_emit(p, w[0], w[1]);
	double v = strtoll(w[1], NULL, 10); /* Ruby's to_i */
	if (!p->have_total && !strcmp(w[0], "MemTotal")) {
		p->have_total = 1;
		p->mem_total = v;
	}
	if (!strcmp(w[0], "MemFree")) {
		double used = p->mem_total - v;
		if (!*p->mem_unit)
			snprintf(p->mem_unit, sizeof p->mem_unit, "%s", nw > 2 ? w[2] : "");
		if (!p->nused++ || used > p->max_used)
			p->max_used = used;
		char key[32];
		bb_mon_emit_num(p, "Memused", used);
		snprintf(key, sizeof key, "max_used_%s", p->mem_unit);
		bb_mon_emit_num(p, key, p->max_used);
	}
}

/* The CPU header of /proc/interrupts and /proc/softirqs: CPU0 CPU1 ... */
static int header_line(struct parse *p, char *line, int need_cpu_names)
{
	char *w[64];
	char copy[1024];
	snprintf(copy, sizeof copy, "%s", line);
	size_t n = bb_mon_split(copy, w, 64);
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (need_cpu_names ? strncmp(w[i], "CPU", 3) || !w[i][3] ||
		                         strspn(w[i] + 3, "0123456789") != strlen(w[i] + 3)
		                   : strchr(w[i], ':') != NULL)
			return 0;
	p->ncols = n;
	for (size_t i = 0; i < n; i++)
		snprintf(p->cols[i], sizeof p->cols[i], "%s", w[i]);
	return 1;
}

/* A line whose first word ends in ':' (after blanks): LKP's /^\s*[^\s]+:/. */
static int key_line(const char *line)
{
	line += strspn(line, " \t");
	size_t n = strcspn(line, " \t");
	return n > 0 && memchr(line, ':', n) != NULL;
}

/*
 * programs/interrupts/parse: per CPU column CPUn.KEY and the sum as KEY, KEY being the IRQ's
 * first word and the words after the CPU columns, joined by '.' for a numbered IRQ
 * (`27:PCI-MSIX-0000:00:03.0.0-edge.virtio0-config`, with ",." made ",") and by '_' for a
 * named one (`LOC:Local_timer_interrupts`); a line of one value (ERR:, MIS:) as it is.
 */
static void interrupts_line(struct parse *p, char *line)
{
	if (header_line(p, line, 1) || !key_line(line))
		return;
	char *w[512];
	size_t n = bb_mon_split(line, w, 512);
	if (!n)
		return;
	if (n == 2) {
		w[0][strlen(w[0]) - 1] = 0;
		bb_mon_emit(p, w[0], w[1]);
		return;
	}
	char key[512];
	int numbered = strspn(w[0], "0123456789") == strlen(w[0]) - 1;
	snprintf(key, sizeof key, "%s", w[0]);
	for (size_t i = p->ncols + 1; i < n; i++) {
		size_t l = strlen(key);
		snprintf(key + l, sizeof key - l, "%s%s",
		         i == p->ncols + 1 ? ""
		         : numbered        ? "."
		                           : "_",
		         w[i]);
	}
	if (numbered) /* gsub(',.', ',') */
		for (char *c; (c = strstr(key, ",.")); memmove(c + 1, c + 2, strlen(c + 2) + 1))
			;
	unsigned long long sum = 0;
	for (size_t i = 0; i < p->ncols; i++) {
		char name[600];
		const char *v = i + 1 < n ? w[i + 1] : "";
		snprintf(name, sizeof name, "%s.%s", p->cols[i], key);
		/* key ends with the IRQ's ':' for a line without words after the CPU columns */
		bb_mon_emit(p, name, v);
		sum += strtoull(v, NULL, 10);
	}
	bb_mon_emit_num(p, key, (double)sum);
}

/* programs/softirqs/parse: CPUn.NAME per column and NAME, their sum; any other line is the
 * header. The key keeps its ':' out: LKP prints `CPU0.HI: 0`. */
static void softirqs_line(struct parse *p, char *line)
{
	if (!key_line(line)) {
		header_line(p, line, 0);
		return;
	}
	char *w[512];
	size_t n = bb_mon_split(line, w, 512);
	w[0][strlen(w[0]) - 1] = 0;
	unsigned long long sum = 0;
	for (size_t i = 0; i < p->ncols; i++) {
		char name[300];
		const char *v = i + 1 < n ? w[i + 1] : "";
		snprintf(name, sizeof name, "%s.%s", p->cols[i], w[0]);
		bb_mon_emit(p, name, v);
		sum += strtoull(v, NULL, 10);
	}
	bb_mon_emit_num(p, w[0], (double)sum);
}

/* programs/uptime/monitor: boot and idle from /proc/uptime. */
static void uptime_line(struct parse *p, char *line)
{
	char *w[2];
	if (bb_mon_split(line, w, 2) < 2)
		return;
	bb_mon_emit(p, "boot", w[0]);
	bb_mon_emit(p, "idle", w[1]);
}

/* The value of `KEY VALUE` or `KEY: VALUE ...` in a section, or 0. */
static unsigned long long field(const char *s, size_t len, const char *key)
{
	size_t kl = strlen(key);
	for (const char *l = s; l && l < s + len;) {
		if ((size_t)(s + len - l) > kl && !memcmp(l, key, kl) &&
		    (l[kl] == ' ' || l[kl] == ':' || l[kl] == '\t'))
			return strtoull(l + kl + 1 + strspn(l + kl + 1, " \t:"), NULL, 10);
		l = memchr(l, '\n', (size_t)(s + len - l));
		if (l)
			l++;
	}
	return 0;
}

enum { C_USE, C_SYS, C_IDL, C_IOW, C_STO, C_GUE, C_IN, C_CS, C_PGIN, C_PGOUT, C_SWIN, C_SWOUT };

/*
 * vmstat: the columns of procps's `vmstat --timestamp -n 1` (programs/vmstat/monitor), as
 * programs/vmstat/parse names them, computed here from /proc/stat, /proc/vmstat and
 * /proc/meminfo as procps computes them: the first sample gives the averages since boot
 * (rates per 100 jiffies of all CPUs, as procps's first line), the next ones the changes over
 * the interval (per second of the nominal interval); cpu.* in whole per cent of the jiffies.
 */
static void vmstat_sample(struct parse *p, const char *text, size_t len)
{
	size_t sl = 0, vl = 0, ml = 0;
	const char *st = bb_mon_section(text, len, "/proc/stat", &sl);
	const char *vm = bb_mon_section(text, len, "/proc/vmstat", &vl);
	const char *mi = bb_mon_section(text, len, "/proc/meminfo", &ml);
	if (!st || !vm || !mi)
		return;
	unsigned long long cpu[10] = {0}, c[12];
	const char *l = st;
	if (sl > 4 && !memcmp(l, "cpu ", 4)) {
		char *e;
		l += 4;
		for (int i = 0; i < 10; i++, l = e)
			cpu[i] = strtoull(l, &e, 10);
	}
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	c[C_USE] = cpu[0] + cpu[1];
	c[C_SYS] = cpu[2] + cpu[5] + cpu[6];
	c[C_IDL] = cpu[3];
	c[C_IOW] = cpu[4];
	c[C_STO] = cpu[7];
	c[C_GUE] = cpu[8] + cpu[9];
	c[C_IN] = field(st, sl, "intr");
	c[C_CS] = field(st, sl, "ctxt");
	c[C_PGIN] = field(vm, vl, "pgpgin");
	c[C_PGOUT] = field(vm, vl, "pgpgout");
	c[C_SWIN] = field(vm, vl, "pswpin");
	c[C_SWOUT] = field(vm, vl, "pswpout");
	unsigned long long d[12];
	for (int i = 0; i < 12; i++)
		d[i] = !p->have_prev ? c[i] : c[i] >= p->prev[i] ? c[i] - p->prev[i] : 0;
	memcpy(p->prev, c, sizeof c);
	int first = !p->have_prev;
	p->have_prev = 1;
	unsigned long long div = d[C_USE] + d[C_SYS] + d[C_IDL] + d[C_IOW] + d[C_STO];
	if (!div) {
		div = 1;
		d[C_IDL] = 1;
	}
	unsigned long long half = div / 2, use = d[C_USE] >= d[C_GUE] ? d[C_USE] - d[C_GUE] : 0;
	const unsigned long long hz = 100, kb_per_page = 4,
	                         interval = (unsigned long long)p->m->interval_s;
	unsigned long long rate[6];
	for (int i = 0; i < 6; i++) {
		unsigned long long x = d[C_IN + i] * (i >= 4 ? kb_per_page : 1);
		rate[i] =
		    first ? (x * hz + half) / div : (x + interval / 2) / (interval ? interval : 1);
	}
	bb_mon_emit_num(p, "procs.r", (double)field(st, sl, "procs_running"));
	bb_mon_emit_num(p, "procs.b", (double)field(st, sl, "procs_blocked"));
	unsigned long long swap_total = field(mi, ml, "SwapTotal"),
	                   swap_free = field(mi, ml, "SwapFree");
	bb_mon_emit_num(p, "memory.swpd",
	                (double)(swap_total > swap_free ? swap_total - swap_free : 0));
	bb_mon_emit_num(p, "memory.free", (double)field(mi, ml, "MemFree"));
	bb_mon_emit_num(p, "memory.buff", (double)field(mi, ml, "Buffers"));
	bb_mon_emit_num(p, "memory.cache",
	                (double)(field(mi, ml, "Cached") + field(mi, ml, "SReclaimable")));
	bb_mon_emit_num(p, "swap.si", (double)rate[4]);
	bb_mon_emit_num(p, "swap.so", (double)rate[5]);
	bb_mon_emit_num(p, "io.bi", (double)rate[2]);
	bb_mon_emit_num(p, "io.bo", (double)rate[3]);
	bb_mon_emit_num(p, "system.in", (double)rate[0]);
	bb_mon_emit_num(p, "system.cs", (double)rate[1]);
	bb_mon_emit_num(p, "cpu.us", (double)((100 * use + half) / div));
	bb_mon_emit_num(p, "cpu.sy", (double)((100 * d[C_SYS] + half) / div));
	bb_mon_emit_num(p, "cpu.id", (double)((100 * d[C_IDL] + half) / div));
	bb_mon_emit_num(p, "cpu.wa", (double)((100 * d[C_IOW] + half) / div));
	bb_mon_emit_num(p, "cpu.st", (double)((100 * d[C_STO] + half) / div));
	bb_mon_emit_num(p, "cpu.gu", (double)((100 * d[C_GUE] + half) / div));
}

static void parse_sample(struct parse *p, const char *text, size_t len)
{
	const char *name = p->m->name;
	if (!strcmp(name, "vmstat"))
		vmstat_sample(p, text, len);
	else if (!strcmp(name, "proc-vmstat"))
		bb_mon_each_line(p, text, len, proc_vmstat_line);
	else if (!strcmp(name, "meminfo"))
		bb_mon_each_line(p, text, len, meminfo_line);
	else if (!strcmp(name, "interrupts"))
		bb_mon_each_line(p, text, len, interrupts_line);
	else if (!strcmp(name, "softirqs"))
		bb_mon_each_line(p, text, len, softirqs_line);
	else if (!strcmp(name, "uptime"))
		bb_mon_each_line(p, text, len, uptime_line);
	else if (!strcmp(name, "mpstat"))
		bb_mon_mpstat_sample(p, text, len);
	else if (!strcmp(name, "sched_debug"))
		bb_mon_sched_debug_sample(p, text, len);
	else if (!strcmp(name, "cpuidle"))
		bb_mon_cpuidle_sample(p, text, len);
	else if (!strcmp(name, "slabinfo"))
		bb_mon_each_line(p, text, len, bb_mon_slabinfo_line);
}

/* dump-stat after the records: all-zero stats out, a short last record cut. */
static void dump_stat_finish(const struct bb_monitor *m, struct bb_resjson *r)
{
	size_t keep = 0, min = (size_t)-1, max = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct bb_resjson_series *s = &r->s[i];
		double sum = 0;
		for (size_t k = 0; k < s->n; k++)
			sum += s->v[k];
		if (s->n > max)
			max = s->n;
		if (s->n < min)
			min = s->n;
		if (!s->n || (s->v[0] == 0 && s->v[s->n - 1] == 0 && sum == 0)) {
			free(s->v);
			continue;
		}
		r->s[keep++] = *s;
	}
	r->n = keep;
	/* the sizes are those before the zero stats went, as in dump-stat, which leaves its
	 * UNSTRUCTURED_MONITORS alone */
	int unstructured = !strcmp(m->name, "meminfo") || !strcmp(m->name, "sched_debug") ||
	                   !strcmp(m->name, "slabinfo");
	if (!unstructured && min + 1 == max)
		for (size_t i = 0; i < r->n; i++)
			if (r->s[i].n == max)
				r->s[i].n--;
}

int bb_monitor_parse(const struct bb_monitor *m, const char *raw, struct bb_resjson *series,
                     char *err, size_t errlen)
{
	struct parse p = {.m = m, .series = series, .nsub = -1};
	const char *s = raw ? raw : "";
	size_t nsamples = 0;
	/* mpstat reports intervals: its first sample is no record, only the counters */
	int deltas = !strcmp(m->name, "mpstat");
	if (*s && strncmp(s, "time: ", 6)) {
		snprintf(err, errlen, "%s: the raw samples do not start with a time: line",
		         m->name);
		return -EINVAL;
	}
	while (*s && !p.err) {
		const char *nl = strchr(s, '\n');
		char tbuf[64];
		size_t tl = nl ? (size_t)(nl - s) : strlen(s);
		snprintf(tbuf, sizeof tbuf, "%.*s", (int)(tl < 63 ? tl : 63), s + 6);
		const char *body = nl ? nl + 1 : s + tl;
		const char *next = body;
		while (*next && strncmp(next, "time: ", 6)) {
			const char *e = strchr(next, '\n');
			next = e ? e + 1 : next + strlen(next);
		}
		if (deltas && !p.have_prev) {
			p.sample = nsamples;
			parse_sample(&p, body, (size_t)(next - body));
			s = next;
			continue;
		}
		p.sample = nsamples++;
		bb_mon_emit(&p, "time", tbuf);
		parse_sample(&p, body, (size_t)(next - body));
		s = next;
	}
	if (deltas)
		bb_mon_mpstat_finish(&p);
	bb_resjson_free(&p.percpu);
	if (p.err == -EINVAL)
		snprintf(err, errlen, "%s: %s", m->name, p.errmsg);
	if (p.err)
		return p.err;
	dump_stat_finish(m, series);
	return 0;
}

/*
 * LKP's one value per run from the series of one monitor: a single sample is that value; an
 * event counter is last - first; anything else is the sum over the monitor's longest series'
 * length (the mean). NAME.time is left out. Appended to out. 0 or -ENOMEM.
 */
static int bb_monitor_reduce(const struct bb_monitor *m, const struct bb_resjson *series,
                             struct bb_stats *out)
{
	char tname[160];
	size_t len = 0;
	snprintf(tname, sizeof tname, "%s.time", m->name);
	for (size_t i = 0; i < series->n; i++)
		if (series->s[i].n > len)
			len = series->s[i].n;
	for (size_t i = 0; i < series->n; i++) {
		const struct bb_resjson_series *s = &series->s[i];
		double v = 0;
		if (!strcmp(s->name, tname) || !s->n)
			continue;
		if (s->n == 1)
			v = s->v[0];
		else if (bb_monitor_event_counter(s->name))
			v = s->v[s->n - 1] - s->v[0];
		else {
			for (size_t k = 0; k < s->n; k++)
				v += s->v[k];
			v /= (double)len;
		}
		int r = bb_stats_add(out, s->name, v, "");
		if (r && r != -ENAMETOOLONG)
			return r;
	}
	return 0;
}

int bb_monitor_stats(const struct bb_monitor *m, const char *raw, struct bb_stats *out, char *err,
                     size_t errlen)
{
	struct bb_resjson series = {0};
	int r = bb_monitor_parse(m, raw, &series, err, errlen);
	if (!r)
		r = bb_monitor_reduce(m, &series, out);
	bb_resjson_free(&series);
	return r;
}
