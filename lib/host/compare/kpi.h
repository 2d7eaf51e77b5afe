/*
 * LKP's key performance indicators: which stats are a benchmark's verdict and which way is
 * better (lkp-tests lib/stats.rb kpi_stat_direction, reading etc/index-perf-all.yaml and then
 * etc/index-latency-all.yaml; the table is generated/lkpkpis.c, made by
 * tools/scripts/gen-lkp-kpis). compare names a marked change of one "a regression" or "an
 * improvement", as 0-day's reports do. Host only; no I/O.
 *
 *     double d = bb_kpi_direction("fio.write_iops");             // 1: higher is better
 *     const char *v = bb_kpi_verdict(d, -5.2);                   // "regression"
 */
#ifndef BENCHBOOT_HOST_COMPARE_KPI_H
#define BENCHBOOT_HOST_COMPARE_KPI_H

#include <stddef.h>

enum bb_kpi_kind { BB_KPI_PERF, BB_KPI_LATENCY };

struct bb_lkp_kpi {
	const char *pattern; /* as LKP writes it: a Ruby regular expression of the whole name */
	double direction;    /* > 0 higher is better, < 0 lower is better; |d| LKP's weight */
	enum bb_kpi_kind kind;
};

/* generated/lkpkpis.c: LKP's commit and its KPIs in LKP's order (the performance file's,
 * then the latency file's) */
extern const char bb_lkp_kpis_commit[];
extern const struct bb_lkp_kpi bb_lkp_kpis[];
extern const size_t bb_lkp_nkpis;

/* The direction of the first KPI whose pattern matches the whole name; 0 when none does
 * (LKP's 'undefined'). */
double bb_kpi_direction(const char *stat);
/* LKP's kpi_stat_direction: a change (in % or points) of a stat with the direction d is a
 * "regression" when it goes against d, else an "improvement"; NULL when d is 0 (no KPI). */
const char *bb_kpi_verdict(double d, double change);
/* The LKP file a KPI comes from ("etc/index-perf-all.yaml"). */
const char *bb_kpi_file(enum bb_kpi_kind kind);

#endif
