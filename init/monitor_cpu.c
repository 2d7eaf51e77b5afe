/* The monitors' CPU time (monitor_cpu.h). */
#include "monitor_cpu.h"

static long long cpu_us;

void monitor_cpu_reset(void)
{
	cpu_us = 0;
}

void monitor_cpu_add(const struct rusage *ru)
{
	cpu_us += (long long)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000 +
	          ru->ru_utime.tv_usec + ru->ru_stime.tv_usec;
}

long long monitor_cpu_us(void)
{
	return cpu_us;
}
