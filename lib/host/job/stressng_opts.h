/* stress-ng long options of the pinned version (generated: lib/host/job/stressng_opts.c). */
#ifndef BENCHBOOT_HOST_STRESSNG_OPTS_H
#define BENCHBOOT_HOST_STRESSNG_OPTS_H

#include <stddef.h>

struct bb_sng_opt {
	const char *name;
	unsigned char arg;	/* takes an argument */
	unsigned char stressor; /* is a stressor (--NAME N starts N workers) */
};

/* Sorted by name (strcmp). */
extern const struct bb_sng_opt bb_sng_opts[];
extern const size_t bb_sng_nopts;

#endif
