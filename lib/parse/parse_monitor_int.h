/*
 * The monitors' parsers, inside (parse_monitor.c and parse_monitor_*.c): the state of one
 * parse and dump-stat's helpers they share. Not for other code: parse_monitor.h is the API.
 */
#ifndef BENCHBOOT_PARSE_MONITOR_INT_H
#define BENCHBOOT_PARSE_MONITOR_INT_H

#include <stddef.h>

#include "parse/parse_monitor.h"
#include "results/resjson.h"

/* One monitor's parse in progress: the series, the sample being read, the parsers' state. */
struct parse {
	const struct bb_monitor *m;
	struct bb_resjson *series;
	size_t sample; /* index of the sample being read */
	int err;
	char errmsg[160]; /* err -EINVAL: why */
	/* meminfo */
	int have_total;
	double mem_total, max_used;
	size_t nused;
	char mem_unit[16];
	/* interrupts, softirqs: the CPU columns of the header */
	char cols[64][16];
	size_t ncols;
	/* vmstat, mpstat: the previous sample's counters */
	int have_prev;
	unsigned long long prev[16];
	/* mpstat: each record's idle% and iowait% (for max_utilization) */
	double *idle, *iowait;
	size_t nrec, caprec;
	/* sched_debug: the section's prefix and CPU number, this sample's per-CPU values */
	char prefix[256], no[16];
	struct bb_resjson percpu;
	/* slabinfo: the header's column names */
	char sub[24][24];
	int nsub; /* -1: no header yet */
};

/* dump-stat's `KEY: VALUE` for this sample: NAME.KEY (see parse_monitor.c). */
void bb_mon_emit(struct parse *p, const char *key, const char *value);
void bb_mon_emit_num(struct parse *p, const char *key, double v);
/* The blank-separated words of line (modified in place), at most max. */
size_t bb_mon_split(char *line, char **w, size_t max);
/* fn on each line of text[0..len) (a NUL-terminated copy, without its newline). */
void bb_mon_each_line(struct parse *p, const char *text, size_t len,
                      void (*fn)(struct parse *, char *));
/* The section after `==> FILE <==` in a sample (to the next such line), or NULL. */
const char *bb_mon_section(const char *text, size_t len, const char *file, size_t *slen);

/* The parsers of parse_monitor_cpu.c (mpstat, cpuidle), parse_monitor_sched.c (sched_debug)
 * and parse_monitor_slab.c (slabinfo): one sample each. */
void bb_mon_mpstat_sample(struct parse *p, const char *text, size_t len);
void bb_mon_mpstat_finish(struct parse *p);
void bb_mon_cpuidle_sample(struct parse *p, const char *text, size_t len);
void bb_mon_sched_debug_sample(struct parse *p, const char *text, size_t len);
void bb_mon_slabinfo_line(struct parse *p, char *line);

#endif
