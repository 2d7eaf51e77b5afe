/*
 * Making a results disk: an ext4 filesystem labelled BENCHBOOT (mke2fs) and the marker file
 * with the disk id (bb_resdisk_init_marker, libext2fs). The one way benchboot makes one: `benchboot
 * mkdisk`, `benchboot run` (a run's results.img) and the results partition of a bootable disk
 * image (lib/host/boot/bootdisk.c) all call bb_mkdisk.
 */
#ifndef BENCHBOOT_HOST_MKDISK_H
#define BENCHBOOT_HOST_MKDISK_H

#include <stddef.h>
#include <stdint.h>

#define BB_MKDISK_DEFAULT_SIZE (256ull << 20)

struct bb_mkdisk {
	uint64_t
	    size;  /* an image file's size in bytes (0: 256 MiB); a block device keeps its own */
	int force; /* overwrite a non-empty file; needed to format a block device, which is
	              refused anyway while it or a partition of it is in use */
	/* For a reproducible disk (bootable disk images); NULL / 0: random ids, the clock. */
	const char *id;               /* the disk id, 32 hex digits */
	const char *uuid, *hash_seed; /* the filesystem's UUID and directory hash seed */
	uint32_t mtime;               /* every timestamp of the filesystem (> 0) */
};

/*
 * Make a results disk at path (an image file, created when missing, or a block device). id
 * (may be NULL) receives the disk id. 0; when refused: -EINVAL (neither a file nor a block
 * device), -EEXIST (a non-empty file, without force), -ENOTEMPTY (a block device, without
 * force), -EBUSY (a block device in use); another -errno on a system failure. err says what
 * happened.
 */
int bb_mkdisk(const char *path, const struct bb_mkdisk *o, char id[33], char *err, size_t errlen);

#endif
