/*
 * LKP's rules on the names of stats, for compare (lkp-tests bbbc29c4: lib/stats.rb,
 * lib/perf_metrics.rb, lib/compare.rb, etc/perf-metrics-prefixes, etc/perf-metrics-patterns,
 * etc/perf-metrics-threshold.yaml, etc/stat-denylist, etc/report-allowlist): which stats are a
 * monitor's, which are perf metrics (the 1% threshold), the minimum size of a change, which
 * are hidden unless asked (--more), which show an absolute change. Host only; no I/O.
 */
#ifndef BENCHBOOT_HOST_COMPARE_STAT_RULES_H
#define BENCHBOOT_HOST_COMPARE_STAT_RULES_H

#include <stddef.h>

/* LKP's stat_key_base: the name up to its first '.' ("perf-profile" of
 * "perf-profile.self.cpu-clock.memcpy"), into buf. */
const char *bb_stat_base(const char *name, char *buf, size_t len);
/* 1 when the stat is a monitor's (its base a monitor of LKP's default set or one benchboot
 * runs), 0 for a test program's own stats. */
int bb_stat_is_monitor(const char *name);
/* LKP's perf_metric?: a test program's stats (netperf., stress-ng.), the prefixes of
 * etc/perf-metrics-prefixes and the patterns of etc/perf-metrics-patterns. */
int bb_stat_perf_metric(const char *name);
/* LKP's reasonable_perf_change?: the first pattern of etc/perf-metrics-threshold.yaml that
 * matches the whole name wants max >= V (and, V an integer, delta >= V / 2); else iostat.*
 * max > 1, slabinfo.* (buddyinfo, pagetypeinfo) delta > 100, proc-vmstat.* and *meminfo* max >
 * 1000, lock_stat.* delta over 1000 to 100000, interrupts.* and softirqs.* max > 10000. delta:
 * the higher median minus the lower; max: the larger of the two sides' maxima. */
int bb_stat_reasonable_change(const char *name, double delta, double max);
/* The same, with the rule that applied into why ("LKP's minimum for .*.time.system_time: max
 * >= 10 and delta >= half of it"; empty when none: any size will do). */
int bb_stat_reasonable_change_why(const char *name, double delta, double max, char *why,
                                  size_t len);
/* Hidden unless asked (LKP's `-m`, benchboot's --more): in etc/stat-denylist and not in
 * etc/report-allowlist, which for benchboot's monitors are interrupts.*, softirqs.* and
 * slabinfo.*. */
int bb_stat_hidden(const char *name);
/* LKP's $stat_absolute_changes: perf-profile.* and stats whose name ends in '%' show the
 * change as B's mean minus A's (points), not a %change. */
int bb_stat_absolute_change(const char *name);
/*
 * LKP's sort key of a stat within its monitor (Compare.stat_sort_key): perf-profile's first
 * two components ("perf-profile.calltrace", "perf-profile.children", "perf-profile.self"), the
 * whole name for the others; into buf.
 */
const char *bb_stat_sort_key(const char *name, char *buf, size_t len);

#endif
