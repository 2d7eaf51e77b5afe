/* stress-ng's --metrics output of one client, parsed (parse_stressng.c). */
#ifndef BENCHBOOT_PARSE_STRESSNG_H
#define BENCHBOOT_PARSE_STRESSNG_H

#include <stddef.h>

#include "results/statset.h"

/*
 * stress-ng --metrics output of one client (parse_stressng.c): appends
 * stress-ng.<stressor>.ops and .ops_per_sec for every stressor in the metrics table.
 * 0, or -EINVAL with the reason in err (no metrics table, a stressor that failed or was
 * skipped: stress-ng's own message is quoted).
 */
int parse_stressng(const char *output, struct bb_stats *out, char *err, size_t errlen);

#endif
