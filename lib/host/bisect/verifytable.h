/*
 * The verification table of a bisection's result: the culprit against its parent in compare's
 * 0-day format (%stddev %change %stddev), from the boots the bisection collected into its
 * results folder (every boot of either kernel), as `benchboot compare DIR --a kernel=PARENT
 * --b kernel=CULPRIT` prints it. Host only.
 */
#ifndef BENCHBOOT_HOST_BISECT_VERIFYTABLE_H
#define BENCHBOOT_HOST_BISECT_VERIFYTABLE_H

#include <stdio.h>

/* The table on f: 0, or -errno with err (the folder unreadable, a kernel without boots). */
int bb_bisect_verify_table(FILE *f, const char *outdir, const char *parent, const char *culprit,
                           char *err, size_t errlen);

#endif
