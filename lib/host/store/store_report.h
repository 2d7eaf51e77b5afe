/*
 * What `benchboot report` asks the store beyond a trend: where each boot's folder is, so that
 * the boots of two kernels are read as compare reads folders. Host only.
 */
#ifndef BENCHBOOT_HOST_STORE_REPORT_H
#define BENCHBOOT_HOST_STORE_REPORT_H

#include <stddef.h>

#include "host/store/store.h"

/* The folder of each boot (by its boot id) into paths[i] (malloc'ed; NULL for a boot id the
 * store does not have). 0, or -errno with err (paths then all NULL). */
int bb_store_boot_paths(struct bb_store *st, const char *const *boot_ids, size_t n, char **paths,
                        char *err, size_t errlen);

#endif
