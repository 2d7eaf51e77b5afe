/*
 * The VM's scratch disks (docs/jobs.md, "Disks and filesystems"): a boot whose plan asks for
 * them (disk.vm: a job's `disk: 1SSD`, `2HDD_16G`) gets one sparse file per device in
 * OUTDIR/scratch, attached as NVMe disks (one controller each: /dev/nvme0n1, ...) or as SCSI
 * disks that rotate (virtio-scsi, rotation_rate 7200: /dev/sda, ...); they are removed after
 * the boot unless `run --keep` keeps them.
 */
#ifndef BENCHBOOT_HOST_RUN_SCRATCH_H
#define BENCHBOOT_HOST_RUN_SCRATCH_H

#include <stddef.h>

#include "plan/plan.h"

#define BB_SCRATCH_MAX 16

struct bb_scratch {
	size_t n;
	char paths[BB_SCRATCH_MAX][4400];
	char drive[BB_SCRATCH_MAX][4500], device[BB_SCRATCH_MAX][160];
	const char *args[4 * BB_SCRATCH_MAX + 3]; /* QEMU's arguments, NULL-terminated */
	size_t nargs;
};

/* Make boot idx's scratch files for plan (none when it asks for none) and their QEMU
 * arguments. 0, or -errno with the reason in err. */
int bb_scratch_make(const struct bb_plan *plan, const char *outdir, size_t idx,
                    struct bb_scratch *s, char *err, size_t errlen);
/* Remove the files (keep: leave them, they are the boot's disks as the guest left them). */
void bb_scratch_remove(struct bb_scratch *s, int keep);

#endif
