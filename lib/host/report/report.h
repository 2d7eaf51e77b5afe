/*
 * `benchboot report` (docs/verbs/report.md): a job's trends across the kernels of the store as
 * one HTML page (html.h): per run and stat the trend plot (plot.h) with its change points, and
 * at each change point the comparison of the boots of the two kernels around it, read from
 * their folders as compare reads them (cmp_html.h: environment differences, the 0-day table,
 * the flame graph). Host only.
 */
#ifndef BENCHBOOT_HOST_REPORT_REPORT_H
#define BENCHBOOT_HOST_REPORT_REPORT_H

#include <stddef.h>

#include "host/store/store.h"
#include "host/store/trend.h"

/*
 * The report of q's job written to path. 0 when no series has a change point, 1 when one has,
 * -ENOENT when the store has no boot of the job, -errno with err (path not written, the store
 * unreadable). A change point whose boots' folders cannot be read is said in the page.
 */
int bb_report_write(const char *path, struct bb_store *st, const struct bb_trend_query *q,
                    char *err, size_t errlen);

#endif
