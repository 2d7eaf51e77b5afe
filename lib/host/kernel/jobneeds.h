/*
 * What a job file asks of the kernel (host/kernel/kconfig.h's needs), read from the plans the
 * init would get: the job parsed with its --set overrides, its matrix expanded, each boot's
 * plan written and parsed back. Host only.
 */
#ifndef BENCHBOOT_HOST_KERNEL_JOBNEEDS_H
#define BENCHBOOT_HOST_KERNEL_JOBNEEDS_H

#include <stddef.h>

#include "host/kernel/kconfig.h"

/*
 * The fragment (host/kernel/kconfig.h) for job (NULL: what every boot needs, no more), its
 * modules resolved in tree (NULL: listed unresolved). A module the tree does not build under
 * a CONFIG symbol is one sentence in *warnings (may be NULL), the same for every verb: "the
 * job's module M: no Makefile of TREE builds M.o under a CONFIG symbol: set it in --config". 0 or
 * -errno with err; free(*text).
 */
int bb_kconfig_job_fragment(const char *job, const struct bb_strv *sets, const char *tree,
                            char **text, struct bb_strv *warnings, char *err, size_t errlen);

#endif
