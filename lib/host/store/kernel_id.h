/*
 * A boot's kernel as the store identifies it beside its name, release and command line: its
 * commit when known, and the vmlinuz it booted with the file's sha256 (docs/history.md, "The
 * kernel's identity"). Host only; the store's own files alone include it.
 */
#ifndef BENCHBOOT_HOST_STORE_KERNEL_ID_H
#define BENCHBOOT_HOST_STORE_KERNEL_ID_H

#include <stddef.h>

#include "host/compare/results_tree.h"
#include "sha256.h"

struct store_db;

struct store_kernel_id {
	char commit[41];                 /* "" when not known */
	char vmlinuz[4096];              /* the file's full path; "" when run.json names none */
	char sha256[SHA256_HEX_LEN + 1]; /* "" when the file is not there */
};

/*
 * The identity of bt's kernel: its commit (run.json's or the LKP tree's, else a name of 12 to
 * 40 hex digits: `benchboot kernel` names its builds so), its vmlinuz (relative to the current
 * folder when run.json's path is) and the file's sha256, read once per path, size and mtime
 * (the store's file_digests). A vmlinuz that is gone leaves the digest empty. 0 or -errno with
 * err (the store could not be read or written).
 */
int store_kernel_id(struct store_db *db, const struct bb_res_boot *bt, struct store_kernel_id *id,
                    char *err, size_t errlen);

#endif
