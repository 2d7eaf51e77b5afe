/*
 * DIR/run.json: what `benchboot run` did, one entry per boot (kernel, image, command line,
 * accelerator, outcome, iterations ok and failed, console log), entries of earlier
 * invocations in the same folder kept first. Written whole after every boot (through a
 * temporary file, renamed).
 */
#ifndef BENCHBOOT_HOST_RUN_RUNJSON_H
#define BENCHBOOT_HOST_RUN_RUNJSON_H

#include <stddef.h>

#include "host/json.h"
#include "host/run/run.h"

/* What a boot booted. */
struct bb_run_booted {
	const char *kernel_name, *vmlinuz, *initrd, *cmdline;
};

/* 0 or -errno. old: the run.json found at the start (its boots are kept), or NULL. */
int bb_runjson_write(const char *outdir, const struct jn *old, const struct bb_run_record *recs,
                     const struct bb_run_booted *booted, size_t nrecs);

/*
 * Put one boot's entry into DIR/run.json, for a writer that learns of boots one at a time
 * (collect --lava): the file is read again now (an unreadable one is not replaced: -EINVAL),
 * every other boot's entry kept in its order, an earlier entry with the same boot_id dropped,
 * and the entry write_entry writes (one JSON object, "boot_id" first) appended; written through
 * DIR/.run.json.tmp-PID and renamed. 0 or -errno with err set.
 */
int bb_runjson_put(const char *outdir, const char *boot_id,
                   void (*write_entry)(struct jout *w, void *ctx), void *ctx, char *err,
                   size_t errlen);

/* The collected folder of a boot: OUTDIR/NNNN-BOOTID (NNNN of any width) -> "NNNN-BOOTID" in
 * out; 0, or -ENOENT. */
int bb_run_find_folder(const char *outdir, const char *boot_id, char *out, size_t len);

#endif
