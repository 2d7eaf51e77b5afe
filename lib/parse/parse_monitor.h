/*
 * LKP's monitors that read /proc files, as benchboot runs them (docs/results.md, "Monitors"):
 * the table of what each samples and when, the parsers of the raw samples into LKP's stat
 * names (programs/NAME/parse and sbin/dump-stat of LKP's tree) and LKP's reduction to one
 * value per iteration (lib/matrix.rb create_stats_matrix). Plain C, shared by the init (which
 * samples and reduces after each iteration) and the host (which can re-run a parser on the raw
 * samples kept in the iteration folder).
 *
 * A raw file (ITER/monitor.NAME) is the samples one after the other, each a line
 * `time: SECONDS` (CLOCK_BOOTTIME) followed by the /proc file as read; a monitor reading
 * several files (vmstat, or the files a glob pattern matched: cpuidle) puts
 * `==> /proc/FILE <==` before each. Next to it, ITER/monitor.NAME.status says whether the
 * monitor could run (init/monitor_status.h).
 */
#ifndef BENCHBOOT_PARSE_MONITOR_H
#define BENCHBOOT_PARSE_MONITOR_H

#include <stddef.h>

#include "results/resjson.h"
#include "results/statset.h"

enum bb_monitor_when {
	BB_MON_EVERY, /* at the start, then every interval until the end (no sample at the end) */
	BB_MON_START_END, /* two snapshots: the start and the end */
	BB_MON_END,       /* one read at the end */
};

struct bb_monitor {
	const char *name;     /* LKP's program name, the stats' prefix */
	const char *files[4]; /* the files it reads, NULL-terminated; a '*' makes a glob pattern */
	enum bb_monitor_when when;
	double interval_s; /* BB_MON_EVERY: LKP's default interval */
	int one_of;        /* files are alternatives: the first that opens is read (sched_debug) */
};

extern const struct bb_monitor bb_monitors[];
extern const size_t bb_nmonitors;

/* The monitor called name, or NULL when benchboot does not implement it. */
const struct bb_monitor *bb_monitor_find(const char *name);

/* LKP's default set (include/category/benchmark), in that file's order, NULL-terminated. */
extern const char *const bb_monitor_lkp_default[];

/* The monitor a stat belongs to ("proc-vmstat" for proc-vmstat.pgfree), or NULL. */
const struct bb_monitor *bb_monitor_of_stat(const char *stat);

/*
 * A raw file of monitor m -> LKP's series, as dump-stat writes NAME.json: "NAME.KEY" -> one
 * value per sample, NAME.time included; a key that appears late is padded with leading zeros;
 * non-numeric values are left out; stats whose first, last and sum are 0 are dropped; when
 * one sample is short of a key, the last sample is dropped (meminfo excepted), as dump-stat
 * does. series must be zeroed. 0, -ENOMEM, or -EINVAL with the reason in err.
 */
int bb_monitor_parse(const struct bb_monitor *m, const char *raw, struct bb_resjson *series,
                     char *err, size_t errlen);

/* 1 when LKP reduces the stat as an event counter (last - first: etc/event-counter-prefixes). */
int bb_monitor_event_counter(const char *stat);

/* bb_monitor_parse then bb_monitor_reduce. */
int bb_monitor_stats(const struct bb_monitor *m, const char *raw, struct bb_stats *out, char *err,
                     size_t errlen);

#endif
