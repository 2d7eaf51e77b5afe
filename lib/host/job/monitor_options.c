/* The options of LKP's monitors as a job sets them; see monitor_options.h. */
#include <stdio.h>
#include <string.h>

#include "host/editdist.h"
#include "host/job/lkpkeys.h"
#include "host/job/monitor_options.h"
#include "parse/parse_monitor.h"

/*
 * The options of LKP's monitors (the `# - OPTION` lines and the variables of
 * programs/NAME/monitor in LKP's tree) for those benchboot runs or will run: the ones it
 * reads go into the plan, the others are LKP's and recorded only.
 */
static const struct monopt {
	const char *monitor, *option;
	enum bb_monopt use;
} monopts[] = {
    {"vmstat", "interval", BB_MONOPT_SECONDS},
    {"vmstat", "count", BB_MONOPT_RECORDED},
    {"proc-vmstat", "interval", BB_MONOPT_SECONDS},
    {"meminfo", "interval", BB_MONOPT_SECONDS},
    {"slabinfo", "interval", BB_MONOPT_SECONDS},
    {"sched_debug", "interval", BB_MONOPT_SECONDS},
    {"interrupts", "interval", BB_MONOPT_SECONDS},
    {"softirqs", "interval", BB_MONOPT_SECONDS},
    {"cpuidle", "interval", BB_MONOPT_SECONDS},
    {"mpstat", "interval", BB_MONOPT_SECONDS},
    {"mpstat", "delay", BB_MONOPT_RECORDED},
    {"mpstat", "count", BB_MONOPT_RECORDED},
    {"mpstat", "nodes", BB_MONOPT_RECORDED},
    {"mpstat", "cpus", BB_MONOPT_RECORDED},
    {"mpstat", "per_node", BB_MONOPT_RECORDED},
    {"perf-stat", "events", BB_MONOPT_TEXT},
    {"perf-stat", "delay", BB_MONOPT_DELAY},
    {"perf-stat", "duration", BB_MONOPT_SECONDS},
    {"perf-stat", "revents", BB_MONOPT_RECORDED},
    {"perf-stat", "command", BB_MONOPT_RECORDED},
    {"perf-stat", "per_socket", BB_MONOPT_RECORDED},
    {"perf-stat", "per_die", BB_MONOPT_RECORDED},
    {"perf-stat", "interval_ms", BB_MONOPT_RECORDED},
    {"perf-stat", "rmetrics", BB_MONOPT_RECORDED},
    {"perf-stat", "metrics", BB_MONOPT_RECORDED},
    {"perf-stat", "metric_only", BB_MONOPT_RECORDED},
    {"perf-stat", "list_pmu_events", BB_MONOPT_RECORDED},
    {"perf-profile", "events", BB_MONOPT_TEXT},
    {"perf-profile", "delay", BB_MONOPT_DELAY},
    {"perf-profile", "duration", BB_MONOPT_SECONDS},
    {"perf-profile", "period", BB_MONOPT_TEXT},
    /* benchboot's own: how long perf report and perf script may take after the iteration */
    {"perf-profile", "budget", BB_MONOPT_SECONDS},
    {"perf-profile", "freq", BB_MONOPT_RECORDED},
    {"perf-profile", "callgraph", BB_MONOPT_RECORDED},
    {"perf-profile", "children", BB_MONOPT_RECORDED},
    {"perf-profile", "inline", BB_MONOPT_RECORDED},
    {"perf-profile", "cpu", BB_MONOPT_RECORDED},
    /* set by LKP's include/category/benchmark, read by its perf-profile script */
    {"perf-profile", "debug_mode", BB_MONOPT_RECORDED},
    /* LKP's history: include/category/benchmark set it from 2021 (commit 665692777: do not
     * keep perf.data), older 0-day attachments still carry it */
    {"perf-profile", "lite_mode", BB_MONOPT_RECORDED},
};
#define NMONOPTS (sizeof monopts / sizeof monopts[0])

/* Monitors whose options benchboot checks: those it runs and the perf ones (uptime: none). */
static const char *const checked[] = {
    "vmstat",  "proc-vmstat", "meminfo", "slabinfo",  "sched_debug",  "interrupts", "softirqs",
    "cpuidle", "mpstat",      "uptime",  "perf-stat", "perf-profile", NULL};

int bb_monitor_is_lkp(const char *name)
{
	for (size_t i = 0; bb_monitor_lkp_default[i]; i++)
		if (!strcmp(bb_monitor_lkp_default[i], name))
			return 1;
	const char *kind = bb_lkp_key_kind(name);
	return kind && !strncmp(kind, "LKP monitors", 12);
}

int bb_monitor_has_options(const char *name)
{
	for (size_t i = 0; checked[i]; i++)
		if (!strcmp(checked[i], name))
			return 1;
	return 0;
}

enum bb_monopt bb_monitor_option(const char *name, const char *option)
{
	for (size_t i = 0; i < NMONOPTS; i++)
		if (!strcmp(monopts[i].monitor, name) && !strcmp(monopts[i].option, option))
			return monopts[i].use;
	return BB_MONOPT_UNKNOWN;
}

void bb_monitor_option_names(const char *name, char *buf, size_t len)
{
	size_t off = 0;
	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < NMONOPTS; i++)
		if (!strcmp(monopts[i].monitor, name) && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
			                        monopts[i].option);
}

const char *bb_monitor_option_nearest(const char *name, const char *option)
{
	const char *best = NULL;
	unsigned bd = 3;
	for (size_t i = 0; i < NMONOPTS; i++) {
		if (strcmp(monopts[i].monitor, name))
			continue;
		unsigned d = bb_edit_distance(option, monopts[i].option);
		if (d < bd && d <= strlen(monopts[i].option) / 2) {
			bd = d;
			best = monopts[i].option;
		}
	}
	return best;
}
