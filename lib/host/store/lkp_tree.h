/*
 * LKP's result trees as boots for the store (docs/history.md "LKP's results"): below a folder,
 * every LKP result root, laid out by lib/result.rb's default path scheme
 * (TESTCASE/PATH_PARAMS/TBOX_GROUP/ROOTFS/KCONFIG/COMPILER/COMMIT/RUN) and holding job.yaml and
 * stats.json (lib/matrix.rb: a value per stat, the run's average), is one boot: its kernel
 * the commit (12 hex digits, as 0-day names it; the release from job.yaml's kernel path), its
 * job the testcase, one run named by the path parameters, the job's top-level keys as its
 * environment (lkp.KEY). Host only.
 */
#ifndef BENCHBOOT_HOST_STORE_LKP_TREE_H
#define BENCHBOOT_HOST_STORE_LKP_TREE_H

#include <stddef.h>

#include "host/compare/results_tree.h"

/* The result roots below dir into res (bb_results_free): 0 (res->nboots 0: none), or -errno
 * with err (an unreadable or malformed stats.json, named). */
int bb_lkp_tree_load(const char *dir, struct bb_results *res, char *err, size_t errlen);

#endif
