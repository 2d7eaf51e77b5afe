/*
 * The options `benchboot trend` and `benchboot report` share (tools/trend.c, tools/report.c):
 * which series (JOB, --run, --stat), the store (--db), the change points' (--max-p,
 * --min-kernels) and the kernels' order (--order). Each verb puts TREND_OPTIONS in its getopt
 * table and parses its command line with trend_args_parse, its own options by a callback.
 */
#ifndef BENCHBOOT_TOOLS_TREND_OPTS_H
#define BENCHBOOT_TOOLS_TREND_OPTS_H

#include <getopt.h>

#include "host/store/trend.h"
#include "strv.h"
#include "verb.h"

enum {
	TREND_OPT_RUN = 450,
	TREND_OPT_STAT,
	TREND_OPT_DB,
	TREND_OPT_MAXP,
	TREND_OPT_MINK,
	TREND_OPT_ORDER,
	TREND_OPT_TREE,
};
#define TREND_OPTIONS                                                                              \
	{"run", required_argument, NULL, TREND_OPT_RUN},                                           \
	    {"stat", required_argument, NULL, TREND_OPT_STAT},                                     \
	    {"db", required_argument, NULL, TREND_OPT_DB},                                         \
	    {"max-p", required_argument, NULL, TREND_OPT_MAXP},                                    \
	    {"min-kernels", required_argument, NULL, TREND_OPT_MINK},                              \
	    {"order", required_argument, NULL, TREND_OPT_ORDER},                                   \
	{                                                                                          \
		"tree", required_argument, NULL, TREND_OPT_TREE                                    \
	}

/* Their lines in the verbs' usage texts. */
#define TREND_OPTIONS_USAGE                                                                        \
	"  --run RUNID       one run of the job (default every run)\n"                             \
	"  --stat NAME       the stat (default each run's primary stat, as compare chooses it;\n"  \
	"                    'all': every stat of the run)\n"                                      \
	"  --db SPEC         the store (docs/verbs/store.md)\n"                                    \
	"  --max-p P         a change point's largest p (default 0.0001)\n"                        \
	"  --min-kernels N   kernels on each side of a change point, at least (default 2)\n"       \
	"  --order FILE      the kernels in this order, one name a line as trend shows them\n"     \
	"                    (oldest first; '#' comments); kernels it does not name are left "     \
	"out\n"                                                                                    \
	"  --tree DIR        the kernels in the git order of the kernel tree DIR (oldest\n"        \
	"                    first): a kernel's recorded commit, else its name, resolved\n"        \
	"                    there; kernels that are no commit of DIR are said and left out;\n"    \
	"                    the bisect commands then bisect DIR's commits\n"

struct trend_args {
	struct bb_trend_query q; /* q.order points to order once --order is read */
	const char *db, *order_file;
	struct bb_strv order;
};

/* A verb's own option opt (value v, NULL for a flag) into ctx: 0, or the exit status (said). */
typedef int trend_own_fn(int opt, const char *v, void *ctx);
/*
 * The command line of cmd: the shared options into a (defaults: max p 0.0001, 2 kernels a
 * side), the verb's own to own, JOB from the one operand, --order's file read. 0; -1 after
 * --help (printed); or the exit status (said). trend_args_free(a) either way.
 */
int trend_args_parse(const struct verb_cmd *cmd, int argc, char **argv, struct trend_args *a,
                     trend_own_fn *own, void *ctx);
/* The store of --db, and --tree's order of the kernels read from it: 0, or the exit status
 * (said). */
int trend_store_open(const char *verb, struct trend_args *a, struct bb_store **st);
void trend_args_free(struct trend_args *a);

#endif
