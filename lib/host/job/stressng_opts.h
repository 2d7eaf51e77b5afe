/* stress-ng long options of the pinned version (generated: generated/stressng_opts.c). */
#ifndef BENCHBOOT_HOST_STRESSNG_OPTS_H
#define BENCHBOOT_HOST_STRESSNG_OPTS_H

#include <stddef.h>

struct bb_sng_opt {
	const char *name;
	unsigned char arg;        /* takes an argument */
	unsigned char stressor;   /* is a stressor (--NAME N starts N workers) */
	unsigned char method_all; /* a stressor whose --NAME-method help lists `all` (LKP then
	                           * runs it with --NAME-method all) */
};

/* The version of the pinned stress-ng, e.g. "0.22.01". */
extern const char bb_sng_version[];

/* Sorted by name (strcmp). */
extern const struct bb_sng_opt bb_sng_opts[];
extern const size_t bb_sng_nopts;

/* Its stressor classes (--class C), NULL-terminated. */
extern const char *const bb_sng_classes[];

#endif
