/*
 * LKP's perf monitors, perf-stat and perf-profile, as benchboot parses them (docs/jobs.md,
 * "Monitors"; LKP's programs/perf-stat/parse and programs/perf-profile/parse, read at
 * lkp-tests bbbc29c4). Plain C, shared by the init and the host (a parser fix can be re-run on
 * the raw files an iteration folder keeps).
 *
 * perf-stat's raw file, ITER/monitor.perf-stat, is what `perf stat -a --scale -I MS -x , -e
 * EVENTS --log-fd 1` printed, after a first line with its command line (as LKP's echo_exec
 * writes it; the parser takes the event names from it). perf-profile's, ITER/monitor.perf-profile,
 * is `perf report --children --header -U -g folded,0.5,callee --sort=dso,symbol` of the
 * recording (ITER/monitor.perf-profile.data); its call stacks are folded from `perf script`
 * into ITER/monitor.perf-profile.folded.
 */
#ifndef BENCHBOOT_PARSE_PERF_H
#define BENCHBOOT_PARSE_PERF_H

#include <stddef.h>
#include <stdio.h>

#include "results/statset.h"

/* 1 for the monitors of this file: "perf-stat", "perf-profile". */
int bb_perf_monitor(const char *name);

/* 1 when name is a monitor benchboot runs: a /proc one (parse_monitor.h) or a perf one. */
int bb_monitor_known(const char *name);

/* LKP's event list of perf-stat: the hardware groups, then the software events. */
extern const char *const bb_perf_stat_hw_groups[];
extern const char *const bb_perf_stat_sw_events;

/*
 * perf-stat's stats from its raw file, with LKP's names and reduction: perf-stat.i.EV (the
 * per-second rate of each interval, the mean over the intervals), perf-stat.i.metric.UNIT,
 * perf-stat.ps.EV (the total over the intervals / the run time), perf-stat.total.instructions,
 * the derived i./overall. ipc, cpi, *-miss-rate%, MPKI, ...; as LKP, the last interval (cut by
 * the end) is left out of the totals, an event perf printed as `<not supported>` or `<not
 * counted>` gives nothing, and stats whose every value is 0 are dropped. Appended to out. The
 * events perf said it does not support, blank-separated, into unsupported (may be NULL).
 * 0, -ENOMEM, or -EINVAL with the reason in err (no command line, or a line that names none of
 * its events: LKP's parse fails on those).
 */
int bb_perf_stat_stats(const char *raw, struct bb_stats *out, char *unsupported, size_t ulen,
                       char *err, size_t errlen);

/*
 * perf-profile's stats from `perf report` text, as LKP's parse: the event of the report's
 * `# Samples: N of event 'EV'` line, `:` as `-` (cycles:pp -> cycles-pp), into event (may be
 * NULL); perf-profile.children.EV.SYM and perf-profile.self.EV.SYM (percent of the samples),
 * perf-profile.calltrace.EV.F1.F2.F3.F4.F5 (the first five frames of each folded call chain,
 * callee first, summed), `.isra.N`, `.constprop.N`, `.part.N` stripped, rounded to 0.01 and
 * kept when >= 0.05. 0, -ENOMEM, or -EINVAL with err (not a report made with --header).
 */
int bb_perf_profile_stats(const char *report, struct bb_stats *out, char *event, size_t elen,
                          char *err, size_t errlen);

/*
 * Folding `perf script -F comm,ip,sym,dso` output into Brendan Gregg's folded stacks (contract
 * of ITER/monitor.perf-profile.folded): one line per distinct stack `COMM;ROOT;...;LEAF COUNT`,
 * outermost frame first, kernel frames with a `_[k]` suffix, a `;` or blank inside a frame
 * name as `_`, COUNT the number of samples.
 */
struct bb_perf_fold;
struct bb_perf_fold *bb_perf_fold_new(void);
/* Feed one line of perf script's output (without its newline). 0 or -ENOMEM. */
int bb_perf_fold_line(struct bb_perf_fold *f, const char *line);
/* Write `# event: EVENT` then the stacks, most samples first (then by name). The number of
 * samples folded, or -errno. */
long bb_perf_fold_write(struct bb_perf_fold *f, const char *event, FILE *out);
void bb_perf_fold_free(struct bb_perf_fold *f);

#endif
