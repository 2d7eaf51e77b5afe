/*
 * Write the plan of one boot group (docs/plan.md, version 1) from an expanded job matrix.
 * One plan per boot group: the init reads /etc/benchboot/plan, so every boot group gets its
 * own image (see lib/host/job/jobimage.h).
 */
#ifndef BENCHBOOT_HOST_PLANWRITE_H
#define BENCHBOOT_HOST_PLANWRITE_H

#include <stdio.h>

#include "host/job/matrix.h"
#include "host/job/suites.h"

/* The plan text of boot group `boot` (malloc'd in *text). 0, or -EINVAL / -ENOMEM with err. */
int bb_plan_write(const struct bb_matrix *m, size_t boot, char **text, char *err, size_t errlen);

/* What the image of boot group `boot` must hold: the modules its plan loads at boot
 * (modules.boot; the builder adds their dependencies) and the image paths of the programs
 * its runs start (/usr/bin/netperf, ...). Both de-duplicated, in first-use order. */
int bb_plan_needs(const struct bb_matrix *m, size_t boot, struct bb_strv *modules,
                  struct bb_strv *files, char *err, size_t errlen);

/* boot.params of a group: "name=value" words, with ' ' and '%' in values as %20 and %25. */
int bb_plan_boot_params(const struct bb_boot *b, char *buf, size_t len);

#endif
