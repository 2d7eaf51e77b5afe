/*
 * The options `benchboot bisect` and `bisect-step` share (tools/bisect.c, tools/bisect_step.c):
 * the stat, the decision's (--min-change, --max-boots, --first-look, --alpha), the VM's and the
 * images'. Each verb puts BISECT_OPTIONS in its getopt table and hands every option it does not
 * know to bisect_option.
 */
#ifndef BENCHBOOT_TOOLS_BISECT_OPTS_H
#define BENCHBOOT_TOOLS_BISECT_OPTS_H

#include "host/bisect/decide.h"
#include "host/vm/qemu.h"
#include "strv.h"

enum {
	BISECT_OPT_STAT = 400,
	BISECT_OPT_MIN_CHANGE,
	BISECT_OPT_MAX_BOOTS,
	BISECT_OPT_FIRST_LOOK,
	BISECT_OPT_ALPHA,
	BISECT_OPT_ACCEL,
	BISECT_OPT_IMAGES,
	BISECT_OPT_SET,
	BISECT_OPT_CPUS,
	BISECT_OPT_MEM,
	BISECT_OPT_PARALLEL,
};
#define BISECT_OPTIONS                                                                             \
	{"stat", required_argument, NULL, BISECT_OPT_STAT},                                        \
	    {"min-change", required_argument, NULL, BISECT_OPT_MIN_CHANGE},                        \
	    {"max-boots", required_argument, NULL, BISECT_OPT_MAX_BOOTS},                          \
	    {"first-look", required_argument, NULL, BISECT_OPT_FIRST_LOOK},                        \
	    {"alpha", required_argument, NULL, BISECT_OPT_ALPHA},                                  \
	    {"accel", required_argument, NULL, BISECT_OPT_ACCEL},                                  \
	    {"images", required_argument, NULL, BISECT_OPT_IMAGES},                                \
	    {"set", required_argument, NULL, BISECT_OPT_SET},                                      \
	    {"cpus", required_argument, NULL, BISECT_OPT_CPUS},                                    \
	    {"parallel", required_argument, NULL, BISECT_OPT_PARALLEL},                            \
	{                                                                                          \
		"mem", required_argument, NULL, BISECT_OPT_MEM                                     \
	}

struct bisect_opts {
	struct bb_bisect_opts d; /* min_change, max_boots, first_look, alpha */
	const char *stat, *images;
	enum bb_accel accel;
	int cpus, mem_mb;
	int parallel; /* 2: each comparison's sides booted side by side in pairs */
	struct bb_strv sets;
	int given; /* one of them was given */
};

/* Option opt (one of BISECT_OPT_*) with value v into o: 0, or EXIT_USAGE (said). */
int bisect_option(const char *verb, struct bisect_opts *o, int opt, const char *v);

/* After the options: --first-look not above --max-boots. 0, or EXIT_USAGE (said). */
int bisect_options_check(const char *verb, const struct bisect_opts *o);

#endif
