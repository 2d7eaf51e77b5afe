/*
 * The CPU time the monitors' processes used in an iteration, theirs and their children's
 * (perf), as their reaping tells: the monitors' own cost (run-end monitors_cpu_us, the
 * iteration's status). The sampler (monitor.c) and perf (monitor_perf.c) add to it; the runner
 * reads it at the iteration's end.
 */
#ifndef BENCHBOOT_INIT_MONITOR_CPU_H
#define BENCHBOOT_INIT_MONITOR_CPU_H

#include <sys/resource.h>

/* Start counting from zero (monitor_start). */
void monitor_cpu_reset(void);
/* Add a reaped monitor process's rusage (user + system). */
void monitor_cpu_add(const struct rusage *ru);
/* The CPU time (µs) added since the last reset. */
long long monitor_cpu_us(void);

#endif
