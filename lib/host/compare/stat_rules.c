/* LKP's rules on the names of stats; see stat_rules.h. */
#include <regex.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "host/compare/stat_rules.h"
#include "host/job/suites.h"
#include "parse/parse_monitor.h"

#define N(a) (sizeof(a) / sizeof(*(a)))

static int has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int matches(const char *pattern, const char *s)
{
	regex_t re;
	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB))
		return 0;
	int m = !regexec(&re, s, 0, NULL, 0);
	regfree(&re);
	return m;
}

const char *bb_stat_base(const char *name, char *buf, size_t len)
{
	size_t n = strcspn(name, ".");
	snprintf(buf, len, "%.*s", (int)n, name);
	return buf;
}

int bb_stat_is_monitor(const char *name)
{
	char base[64];
	bb_stat_base(name, base, sizeof base);
	if (bb_monitor_of_stat(name))
		return 1;
	for (size_t i = 0; bb_monitor_lkp_default[i]; i++)
		if (!strcmp(base, bb_monitor_lkp_default[i]))
			return 1;
	return 0;
}

int bb_stat_perf_metric(const char *name)
{
	/* etc/perf-metrics-prefixes, whole (turbostat's list written out) */
	static const char *const prefixes[] = {
	    "boot-meminfo.DirectMap1G",
	    "boot-meminfo.DirectMap2M",
	    "boot-meminfo.DirectMap4k",
	    "boot-meminfo.KernelStack",
	    "boot-meminfo.MemFree",
	    "boot-meminfo.MemTotal",
	    "boot-meminfo.PageTables",
	    "boot-meminfo.Slab",
	    "boot-meminfo.VmallocUsed",
	    "boot-memory.bootmem",
	    "boot-memory.code",
	    "boot-memory.init",
	    "boot-slabinfo.",
	    "boot-time.",
	    "energy.",
	    "interrupts.CAL:Function_call_interrupts",
	    "iostat.",
	    "perf-c2c.HITM.total",
	    "perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath",
	    "perf-stat.",
	    "pmeter.",
	    "proc-vmstat.",
	    "turbostat.%Busy",
	    "turbostat.Bzy_MHz",
	    "turbostat.C1%",
	    "turbostat.C1E%",
	    "turbostat.CorWatt",
	    "turbostat.Pk%pc10",
	    "turbostat.Pkg%pc2",
	    "turbostat.Pkg%pc3",
	    "turbostat.Pkg%pc6",
	    "turbostat.Pkg%pc7",
	    "turbostat.Pkg%pc8",
	    "turbostat.Pkg%pc9",
	    "turbostat.PkgTmp",
	    "turbostat.PkgWatt",
	    "turbostat.POLL%",
	    "turbostat.RAMWatt",
	    "turbostat.SYS%LPI",
	    "vmstat.cpu.",
	    "vmstat.io.",
	    "vmstat.swap.",
	    "vmstat.system.",
	};
	/* etc/perf-metrics-patterns */
	static const char *const patterns[] = {"^(.*\\.)?time..*", "^lock_stat..*..contentions"};
	/* the test programs' own stats: LKP adds every test's prefix to the perf metrics */
	if (bb_suite_owns_stat(name))
		return 1;
	for (size_t i = 0; i < N(prefixes); i++)
		if (has_prefix(name, prefixes[i]))
			return 1;
	for (size_t i = 0; i < N(patterns); i++)
		if (matches(patterns[i], name))
			return 1;
	return 0;
}

int bb_stat_reasonable_change_why(const char *name, double delta, double max, char *why, size_t len)
{
	char none[8];
	if (!why)
		why = none, len = sizeof none;
	*why = 0;
	/* etc/perf-metrics-threshold.yaml, in its order; each pattern anchored as LKP's
	 * %r{^#{k}$}. integer: the value is written as an integer (the delta rule applies). The
	 * first match decides: perf-profile.* comes before the 2.00 of
	 * perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath, which never applies. */
	static const struct {
		const char *pattern;
		double v;
		int integer;
	} thresholds[] = {
	    {".*.time.elapsed_time.*", 10, 1},
	    {".*.time.file_system_inputs", 10000, 1},
	    {".*.time.file_system_outputs", 10000, 1},
	    {".*.time.involuntary_context_switches", 1000, 1},
	    {".*.time.major_page_faults", 1000, 1},
	    {".*.time.minor_page_faults", 1000, 1},
	    {".*.time.socket_messages_received", 10000, 1},
	    {".*.time.socket_messages_sent", 10000, 1},
	    {".*.time.swaps", 1000, 1},
	    {".*.time.system_time", 10, 1},
	    {".*.time.user_time", 10, 1},
	    {".*.time.voluntary_context_switches", 1000, 1},
	    {".*vmstat.*nr_.*", 100, 1},
	    {"dd.kill_time", 10, 1},
	    {"dd.startup_time", 10, 1},
	    {"interrupts.*", 100, 1},
	    {"iostat.*.avgrq-sz", 200, 1},
	    {"iostat.*.await", 50, 1},
	    {"iostat.*.util", 10, 1},
	    {"iostat.*.[rw]/s", 50, 1},
	    {"iostat.*.[rw]kB/s", 100, 1},
	    {"iostat.*.[rw]_await", 50, 1},
	    {"perf-c2c.HITM.total", 3000, 1},
	    {"perf-profile.*", 1, 1},
	    {"perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath", 2, 0},
	    {"proc-vmstat.allocstall", 100, 1},
	    {"proc-vmstat.compact_fail", 100, 1},
	    {"proc-vmstat.compact_stall", 100, 1},
	    {"proc-vmstat.htlb_buddy_alloc_fail", 100, 1},
	    {"proc-vmstat.kswapd_high_wmark_hit_quickly", 100, 1},
	    {"proc-vmstat.kswapd_low_wmark_hit_quickly", 100, 1},
	    {"proc-vmstat.nr_vmscan_immediate_reclaim", 100, 1},
	    {"proc-vmstat.nr_vmscan_write", 100, 1},
	    {"proc-vmstat.pgmigrate_fail", 100, 1},
	    {"sysbench-fileio.latency_95th_ms", 10, 1},
	    {"vmstat.cpu.id", 10, 1},
	    {"vmstat.cpu.st", 10, 1},
	    {"vmstat.cpu.sy", 50, 1},
	    {"vmstat.cpu.us", 10, 1},
	    {"vmstat.cpu.wa", 10, 1},
	    {"vmstat.io.bi", 100, 1},
	    {"vmstat.io.bo", 100, 1},
	    {"vmstat.system.cs", 100, 1},
	    {"vmstat.system.in", 100, 1},
	    {"xfstests.*.seconds", 10, 1},
	};
	for (size_t i = 0; i < N(thresholds); i++) {
		char re[200];
		snprintf(re, sizeof re, "^%s$", thresholds[i].pattern);
		if (!matches(re, name))
			continue;
		snprintf(why, len, "LKP's minimum for %s: max >= %g%s", thresholds[i].pattern,
		         thresholds[i].v, thresholds[i].integer ? " and delta >= half of it" : "");
		if (max < thresholds[i].v)
			return 0;
		if (thresholds[i].integer && delta < thresholds[i].v / 2)
			return 0;
		return 1;
	}
	if (has_prefix(name, "iostat")) {
		snprintf(why, len, "LKP's minimum for iostat.*: max > 1");
		return max > 1;
	}
	if (has_prefix(name, "pagetypeinfo") || has_prefix(name, "buddyinfo") ||
	    has_prefix(name, "slabinfo")) {
		snprintf(why, len,
		         "LKP's minimum for slabinfo.*, buddyinfo.*, pagetypeinfo.*: "
		         "delta > 100");
		return delta > 100;
	}
	if (has_prefix(name, "proc-vmstat") || strstr(name, "meminfo")) {
		snprintf(why, len, "LKP's minimum for proc-vmstat.* and *meminfo*: max > 1000");
		return max > 1000;
	}
	if (has_prefix(name, "lock_stat")) {
		/* LKP compares the whole name with 'waittime-total' (never equal), then /time/ */
		snprintf(why, len, "LKP's minimum for lock_stat.*: delta > %d",
		         strstr(name, "time") ? 1000 : 10000);
		if (strstr(name, "time"))
			return delta > 1000;
		return delta > 10000;
	}
	if (has_prefix(name, "interrupts") || has_prefix(name, "softirqs")) {
		snprintf(why, len, "LKP's minimum for interrupts.* and softirqs.*: max > 10000");
		return max > 10000;
	}
	return 1;
}

int bb_stat_reasonable_change(const char *name, double delta, double max)
{
	return bb_stat_reasonable_change_why(name, delta, max, NULL, 0);
}

int bb_stat_hidden(const char *name)
{
	/* etc/stat-denylist's monitor prefixes (its other lines are failure and test stats) */
	static const char *const deny[] = {
	    "boot-meminfo.", "boot-slabinfo.", "boot-time.",    "buddyinfo.",     "cpuidle.",
	    "diskstats.",    "interrupts.",    "iostat.",       "lock_stat.",     "max_iostat.",
	    "meminfo.",      "mpstat.",        "numa-meminfo.", "numa-numastat.", "numa-vmstat.",
	    "pagetypeinfo.", "perf-profile.",  "perf-stat.",    "proc-vmstat.",   "sched_debug.",
	    "slabinfo.",     "softirqs.",      "tcrypt.",       "time.",          "turbostat.",
	    "uptime.",       "vmstat.",        "zoneinfo.",
	};
	/* etc/report-allowlist, whole */
	static const char *const allow[] = {
	    "boot-meminfo.", "boot-slabinfo.", "boot-time.", "cpuidle.",      "iostat.",
	    "lock_stat.",    "meminfo.",       "mpstat.",    "numa-meminfo.", "numa-numastat.",
	    "numa-vmstat.",  "perf-profile.",  "perf-stat.", "proc-vmstat.",  "sched_debug.",
	    "time.",         "turbostat.",     "uptime.",    "vmstat.",
	};
	int denied = 0;
	for (size_t i = 0; i < N(deny) && !denied; i++)
		denied = has_prefix(name, deny[i]);
	if (!denied)
		return 0;
	for (size_t i = 0; i < N(allow); i++)
		if (has_prefix(name, allow[i]))
			return 0;
	return 1;
}

int bb_stat_absolute_change(const char *name)
{
	size_t n = strlen(name);
	return has_prefix(name, "perf-profile") || (n && name[n - 1] == '%');
}

const char *bb_stat_sort_key(const char *name, char *buf, size_t len)
{
	if (!has_prefix(name, "perf-profile.")) {
		snprintf(buf, len, "%s", name);
		return buf;
	}
	const char *dot = strchr(name + strlen("perf-profile."), '.');
	snprintf(buf, len, "%.*s", dot ? (int)(dot - name) : (int)strlen(name), name);
	return buf;
}
