/*
 * What a bisection takes from one collected boot: the values (one per measured iteration) of
 * the primary stat, the one asked for or the suite's own as compare and `run --until` choose
 * it (host/compare/primary.h). A bisection follows one run: a boot with more than one run
 * that has the stat is refused. Host only.
 */
#ifndef BENCHBOOT_HOST_BISECT_BOOTVALS_H
#define BENCHBOOT_HOST_BISECT_BOOTVALS_H

#include <stddef.h>

/*
 * The values of the boot folder dir into vals[0..*n) (at most cap), the stat's name into stat
 * (statlen bytes; want NULL: the primary). 0; -ENODATA when the run has no value (its
 * iterations failed: a failed boot); -EINVAL when no run of the boot has the stat, or more than
 * one has it (err says which), or the folder is no boot; -ENOMEM.
 */
int bb_boot_values(const char *dir, const char *want, double *vals, size_t cap, size_t *n,
                   char *stat, size_t statlen, char *err, size_t errlen);

#endif
