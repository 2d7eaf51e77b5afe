/* fio's --output-format=json, parsed into LKP's stat names (parse_fio.c). */
#ifndef BENCHBOOT_PARSE_FIO_H
#define BENCHBOOT_PARSE_FIO_H

#include <stddef.h>

#include "results/statset.h"

/*
 * The stats of an iteration's client output (the job file echoed, then fio's JSON: LKP's parse
 * starts at the first '{'), as LKP's programs/fio/parse computes them from the first job of
 * "jobs" (fio-setup-basic's group_reporting makes all the tasks one): for read and write,
 * fio.OP_bw_MBps (fio's bw in KiB/s / 1024), fio.OP_iops, fio.OP_clat_mean_ns,
 * fio.OP_clat_stddev, fio.OP_clat_90%_ns, _95%_ns and _99%_ns (the percentiles fio gives),
 * fio.OP_slat_mean_us and fio.OP_slat_stddev (LKP's names; fio's slat_ns values, in ns);
 * fio.latency_Nus% and fio.latency_Nms% (fio's latency_us and latency_ms buckets, % of the
 * I/Os), and fio.workload (the I/Os of both). 0, or -EINVAL with the reason in err.
 */
int parse_fio_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                    size_t errlen);

#endif
