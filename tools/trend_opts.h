/*
 * The options `benchboot trend` and `benchboot report` share (tools/trend.c, tools/report.c):
 * which series (JOB, --run, --stat), the store (--db), the change points' (--max-p,
 * --min-kernels) and the kernels' order (--order). Each verb puts TREND_OPTIONS in its getopt
 * table and hands every option it does not know to trend_option.
 */
#ifndef BENCHBOOT_TOOLS_TREND_OPTS_H
#define BENCHBOOT_TOOLS_TREND_OPTS_H

#include <getopt.h>

#include "host/store/trend.h"
#include "strv.h"

enum {
	TREND_OPT_RUN = 450,
	TREND_OPT_STAT,
	TREND_OPT_DB,
	TREND_OPT_MAXP,
	TREND_OPT_MINK,
	TREND_OPT_ORDER,
};
#define TREND_OPTIONS                                                                              \
	{"run", required_argument, NULL, TREND_OPT_RUN},                                           \
	    {"stat", required_argument, NULL, TREND_OPT_STAT},                                     \
	    {"db", required_argument, NULL, TREND_OPT_DB},                                         \
	    {"max-p", required_argument, NULL, TREND_OPT_MAXP},                                    \
	    {"min-kernels", required_argument, NULL, TREND_OPT_MINK},                              \
	{                                                                                          \
		"order", required_argument, NULL, TREND_OPT_ORDER                                  \
	}

struct trend_args {
	struct bb_trend_query q; /* q.order points to order once trend_args_finish read it */
	const char *db, *order_file;
	struct bb_strv order;
};

/* The defaults: max p 0.0001, 2 kernels a side. */
void trend_args_init(struct trend_args *a);
/* Option opt (one of TREND_OPT_*) with value v into a: 0, or EXIT_USAGE (said). */
int trend_option(const char *verb, struct trend_args *a, int opt, const char *v);
/* After the options: JOB from argv[optind] (the only operand), --order's file read. 0, or the
 * exit status (said). */
int trend_args_finish(const char *verb, struct trend_args *a, int argc, char **argv);
void trend_args_free(struct trend_args *a);

#endif
