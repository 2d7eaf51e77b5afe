/* The value forms of job keys that both the job checker and the suites read. Host only. */
#ifndef BENCHBOOT_JOB_UNITS_H
#define BENCHBOOT_JOB_UNITS_H

/* A duration as LKP writes runtime and testtime (its lib/unit.rb): N or N with s, m, h, d, w
 * or y -> seconds. 0 or -EINVAL. */
int bb_parse_duration(const char *s, double *seconds);
/* nr_threads: "N" (a count >= 1) or "P%" (P >= 1, of the online CPUs). 0, -EINVAL, or -ERANGE
 * for 0. */
int bb_parse_count(const char *s, long *n, int *percent);

#endif
