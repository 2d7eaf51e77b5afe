/*
 * A small deterministic FAT32 writer for EFI System Partitions (Microsoft's "FAT: General
 * Overview of On-Disk Format" 1.03): boot sector, FSInfo and their backups (sectors 6 and 7),
 * two FATs, directories and files laid out in path order, each file in one contiguous run of
 * clusters. Nothing depends on the clock or the host: the volume id, label and one timestamp for
 * every entry are inputs, so identical inputs give identical bytes.
 *
 * Names are 8.3 short names in upper case (e.g. "EFI/BOOT/BOOTX64.EFI"): no long-name entries
 * are written, which every UEFI firmware reads. FAT32 needs at least 65525 clusters: with
 * 512-byte clusters (the size used up to 260 MiB) that is about 33 MiB; bb_fat_min_size tells.
 *
 * Functions return 0 or -errno: -EINVAL a bad name, label or size, -ENOSPC the files do not fit,
 * -EEXIST a path given twice or a file where a directory is needed, -EIO a short write.
 */
#ifndef BENCHBOOT_FAT_H
#define BENCHBOOT_FAT_H

#include <stddef.h>
#include <stdint.h>

struct fat_file {
	const char *path; /* '/'-separated 8.3 components; parent directories are implied */
	const void *data;
	size_t len;
};

struct fat_spec {
	uint64_t size;     /* bytes, a multiple of 512 */
	const char *label; /* volume label, at most 11 characters (upper case) */
	uint32_t volume_id;
	uint32_t mtime;          /* Unix time of every entry (clamped to 1980..2107, UTC) */
	uint32_t hidden_sectors; /* LBA of the partition on its disk (0 for a bare image) */
	const struct fat_file *files;
	size_t nfiles;
};

/*
 * Write the filesystem at byte offset `offset` of fd: every metadata sector, directory and file
 * cluster is written in full; free clusters are left as they are (zeros in a fresh file).
 */
int bb_fat_write(int fd, uint64_t offset, const struct fat_spec *spec);

/* The smallest size (bytes, a multiple of 1 MiB) that holds spec's files as FAT32. */
uint64_t bb_fat_min_size(const struct fat_spec *spec);

/* 1 when name is a valid 8.3 upper-case short name, and its 11-byte directory form in out. */
int bb_fat_short_name(const char *name, char out[11]);

#endif
