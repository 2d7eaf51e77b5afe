/* The suites benchboot runs: one line each (suite.h). */
#include <string.h>

#include "host/job/suites/suite.h"

extern const struct bb_suite bb_suite_netperf, bb_suite_stress_ng, bb_suite_hackbench,
    bb_suite_perf_bench_sched_pipe, bb_suite_perf_bench_sched_messaging, bb_suite_fsmark,
    bb_suite_sysbench_cpu, bb_suite_sysbench_memory, bb_suite_sysbench_threads,
    bb_suite_sysbench_mutex, bb_suite_iperf, bb_suite_perf_bench_futex, bb_suite_fio_basic;

const struct bb_suite *const bb_suites[] = {
    &bb_suite_netperf,
    &bb_suite_stress_ng,
    &bb_suite_hackbench,
    &bb_suite_perf_bench_sched_pipe,
    &bb_suite_perf_bench_sched_messaging,
    &bb_suite_fsmark,
    &bb_suite_sysbench_cpu,
    &bb_suite_sysbench_memory,
    &bb_suite_sysbench_threads,
    &bb_suite_sysbench_mutex,
    &bb_suite_iperf,
    &bb_suite_perf_bench_futex,
    &bb_suite_fio_basic,
    NULL,
};

const struct bb_suite *bb_suite_find(const char *name)
{
	for (size_t i = 0; name && bb_suites[i]; i++)
		if (!strcmp(bb_suites[i]->name, name))
			return bb_suites[i];
	return NULL;
}

const struct bb_suite *bb_suite_of_option(const char *name)
{
	for (size_t i = 0; bb_suites[i]; i++)
		if (bb_suites[i]->owns_option && bb_suites[i]->owns_option(name))
			return bb_suites[i];
	return NULL;
}
