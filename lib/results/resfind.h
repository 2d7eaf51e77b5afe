/*
 * Find the benchboot results disk: scan ROOT/sys/class/block (whole disks and partitions), make
 * sure ROOT/dev/NAME exists (mknod from the `dev` file when it does not) and probe each device
 * for the label and marker without writing to it (bb_resdisk_probe), or for the label only.
 *
 * ROOT is "" in the init; tests pass a fake tree. The one syscall that needs privileges, mknod,
 * goes through a table the tests replace.
 */
#ifndef BENCHBOOT_RESFIND_H
#define BENCHBOOT_RESFIND_H

#include <sys/types.h>

#include "results/resdisk.h"

struct resfind_ops {
	int (*mknod)(const char *path, mode_t mode, dev_t dev); /* returns 0 or -1 with errno */
	/* One line about each device looked at (may be NULL). */
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
	/*
	 * Only the label (bb_resdisk_check_label, one raw read, no libext2fs): a device counts when
	 * it is ext2/3/4 labelled BENCHBOOT, its id is left "", and the marker is left to
	 * bb_resdisk_open, which reads it anyway: the init opens its disk once instead of three
	 * times (a probe here, one in bb_resdisk_open, then the open).
	 */
	int label_only;
};

extern const struct resfind_ops resfind_real_ops;

struct resfind_disk {
	char name[64];   /* e.g. "vdb", "nvme0n1p2" */
	char path[4096]; /* ROOT/dev/NAME */
	char id[RESDISK_ID_LEN + 1];
	unsigned long long sectors; /* size in 512-byte sectors */
};

/*
 * Probe every block device, in name order. Stores up to max benchboot disks in out and returns
 * how many were found (0: none; more than max when there are more), or -errno when
 * ROOT/sys/class/block cannot be read.
 * Devices of size 0 (empty loop, ram) and read-only ones are skipped (the log says so).
 */
int bb_resfind_scan(const char *root, const struct resfind_ops *ops, struct resfind_disk *out,
                    int max);

/*
 * Is the block device at path in use: mounted (ROOT/proc/self/mounts), a swap (ROOT/proc/swaps)
 * or held by another device (ROOT/sys/dev/block/MAJ:MIN/holders), itself or one of its
 * partitions? Returns 1 with the reason in why, 0 when it is free, or -errno.
 */
int bb_resfind_device_busy(const char *root, const char *path, char *why, size_t len);

#endif
