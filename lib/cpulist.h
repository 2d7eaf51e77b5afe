/*
 * CPU lists as the kernel prints them (/sys/devices/system/cpu/online) and as the plan writes
 * affinities: "0", "0-3", "0-1,4,6-7", and in affinities "last" for the highest online CPU.
 * Up to BB_CPUSET_MAX CPUs.
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
/*
 * The same, where the word `last` may stand for a CPU number: the highest online CPU, known
 * only on the machine that runs the benchmark ("last", "0,last", "1-last"). LAST is that
 * CPU; -1 makes `last` an error (-EINVAL). A range that ends below its start once `last` is
 * known ("2-last" on 2 CPUs) is -EINVAL. To validate a list before the machine is known,
 * pass BB_CPULIST_ANY_LAST.
 */
#define BB_CPULIST_ANY_LAST (BB_CPUSET_MAX - 1)
int bb_cpulist_resolve(const char *s, int last, struct bb_cpuset *set);
/* The highest CPU of the set, or -1 when it is empty. */
int bb_cpuset_last(const struct bb_cpuset *set);
int bb_cpuset_has(const struct bb_cpuset *set, unsigned cpu);
void bb_cpuset_add(struct bb_cpuset *set, unsigned cpu);
unsigned bb_cpuset_count(const struct bb_cpuset *set);
/* The n-th CPU of the set (0-based), or -1. */
int bb_cpuset_nth(const struct bb_cpuset *set, unsigned n);
/* Canonical list form ("0-2,5"); returns the length, truncating like snprintf. */
int bb_cpulist_format(const struct bb_cpuset *set, char *buf, size_t len);

#endif
