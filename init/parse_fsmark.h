/* fs_mark's output, parsed into LKP's stat names (parse_fsmark.c). */
#ifndef BENCHBOOT_PARSE_FSMARK_H
#define BENCHBOOT_PARSE_FSMARK_H

#include <stddef.h>

#include "results/statset.h"

/*
 * The stats of an iteration's client output (LKP's run script runs fs_mark once, with -L
 * loops), as LKP's programs/fsmark/parse computes them: after the "FSUse%" header, each line
 * of five numbers is one loop; fsmark.files_per_sec and fsmark.app_overhead are the loops'
 * averages (files/s, microseconds). 0, or -EINVAL with the reason in err (no loop line:
 * fs_mark's own first line is quoted).
 */
int parse_fsmark_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                       size_t errlen);

#endif
