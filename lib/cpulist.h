/*
 * CPU lists as the kernel prints them (/sys/devices/system/cpu/online) and as the plan writes
 * affinities: "0", "0-3", "0-1,4,6-7". Up to BB_CPUSET_MAX CPUs.
 */
#ifndef BENCHBOOT_CPULIST_H
#define BENCHBOOT_CPULIST_H

#include <stddef.h>
#include <stdint.h>

#define BB_CPUSET_MAX 1024

struct bb_cpuset {
	uint64_t bits[BB_CPUSET_MAX / 64];
};

/* Parse a CPU list (a trailing newline is allowed). 0, or -EINVAL (bad syntax, reversed range)
 * or -ERANGE (a CPU >= BB_CPUSET_MAX). An empty string is an empty set. */
int bb_cpulist_parse(const char *s, struct bb_cpuset *set);
int bb_cpuset_has(const struct bb_cpuset *set, unsigned cpu);
void bb_cpuset_add(struct bb_cpuset *set, unsigned cpu);
unsigned bb_cpuset_count(const struct bb_cpuset *set);
/* The n-th CPU of the set (0-based), or -1. */
int bb_cpuset_nth(const struct bb_cpuset *set, unsigned n);
/* Canonical list form ("0-2,5"); returns the length, truncating like snprintf. */
int bb_cpulist_format(const struct bb_cpuset *set, char *buf, size_t len);

#endif
