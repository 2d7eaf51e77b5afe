/*
 * The benchboot results disk (docs/results.md): an ext4 filesystem with the label BENCHBOOT and
 * a marker file in its root directory, read and written with libext2fs only, so neither the
 * init nor the host tools need a kernel filesystem driver, a mount or root.
 *
 * Shared by the init (static musl) and the host tools. Every function returns 0 or -errno.
 * Paths inside the disk are relative to its root, '/'-separated, without "." or ".." parts.
 */
#ifndef BENCHBOOT_RESDISK_H
#define BENCHBOOT_RESDISK_H

#include <stddef.h>
#include <stdint.h>

#define RESDISK_LABEL "BENCHBOOT"
#define RESDISK_MARKER "benchboot-disk" /* in the root directory */
#define RESDISK_MARKER_MAGIC "benchboot-results-disk 1"
#define RESDISK_BOOTS "boots"
#define RESDISK_ID_LEN 32          /* hex digits of the random disk id */
#define RESDISK_TMP_PREFIX ".tmp." /* names being written; never collected */

struct resdisk;

enum resdisk_mode {
	RESDISK_READ,  /* read-only: nothing is ever written to the device */
	RESDISK_WRITE, /* read-write: only a marked, cleanly closed disk is opened */
};

/*
 * Look at a device or image without writing to it. Returns 0 when it carries an ext4
 * filesystem labelled RESDISK_LABEL with a valid marker (its disk id copied to id), -EMEDIUMTYPE
 * when it is something else (no ext2/3/4 superblock, another label, no or a bad marker), or
 * another -errno when it could not be read.
 */
int bb_resdisk_probe(const char *path, char id[RESDISK_ID_LEN + 1]);

/*
 * The cheap first look, without libext2fs: one read of the raw superblock. 0 when it is
 * ext2/3/4 labelled RESDISK_LABEL, -EMEDIUMTYPE when not, another -errno when unreadable.
 * The marker is not looked at (bb_resdisk_open(RESDISK_WRITE) does that, before any write).
 */
int bb_resdisk_check_label(const char *path);

/*
 * Open a results disk. RESDISK_WRITE refuses (-EMEDIUMTYPE) a disk without the label (checked
 * on the raw superblock before libext2fs reads anything else) or the marker (read through the
 * one read-write open, before anything is written), (-EUCLEAN) one that was not closed cleanly
 * (a crash: run `e2fsck -p` on it) or whose journal needs recovery; nothing is written to a
 * refused disk. Then it marks the filesystem as in use on the device, so a crash before
 * bb_resdisk_close leaves it marked for e2fsck. RESDISK_READ opens any ext2/3/4
 * filesystem read-only (collect checks the marker itself), falling back to a backup superblock
 * when the primary one is damaged.
 */
int bb_resdisk_open(const char *path, enum resdisk_mode mode, struct resdisk **out);

/* The disk id from the marker ("" when there is none: read mode on an unmarked filesystem). */
const char *bb_resdisk_id(const struct resdisk *d);

/* Read mode: why there is no id (-EMEDIUMTYPE: no or a bad marker; -EIO: unreadable), or 0. */
int bb_resdisk_marker_error(const struct resdisk *d);

/* Nonzero when the filesystem was not closed cleanly (a boot was interrupted). */
int bb_resdisk_unclean(const struct resdisk *d);

/*
 * Read mode: 0 when the primary superblock was used, else the block number of the backup
 * superblock that was (the primary one is damaged).
 */
unsigned bb_resdisk_backup_superblock(const struct resdisk *d);

/*
 * Make the directory path and its parents (like mkdir -p). -ENOTDIR when a part of the path
 * exists and is not a directory.
 */
int bb_resdisk_mkdir_p(struct resdisk *d, const char *path);

/*
 * Write a whole file: the data goes to a temporary name (RESDISK_TMP_PREFIX + name) in the same
 * directory, is flushed to the device, and only then does the final name point to it (an
 * existing file of that name is replaced in one directory-block write, then freed). A crash
 * therefore never leaves a partial file under the final name. On failure (-ENOSPC: disk full)
 * the temporary file is removed and an existing file of the final name is left as it was. The
 * parent directory must exist.
 */
int bb_resdisk_write_buf(struct resdisk *d, const char *path, const void *buf, size_t len);

enum resdisk_type { RESDISK_T_FILE, RESDISK_T_DIR, RESDISK_T_SYMLINK, RESDISK_T_OTHER };

struct resdisk_entry {
	const char *name;
	enum resdisk_type type; /* from the inode, not the directory entry */
	uint64_t size;
	uint32_t ino;
};

/*
 * Call fn for each entry of directory path ("" is the root), without "." and "..", in the
 * directory's order. fn returns 0 to go on, anything else stops the listing and is returned.
 * Entries whose inode cannot be read are reported with type RESDISK_T_OTHER.
 */
int bb_resdisk_list(struct resdisk *d, const char *path,
                    int (*fn)(const struct resdisk_entry *e, void *ctx), void *ctx);

/*
 * Look path up without following symbolic links (a symlink anywhere in the path is -ELOOP).
 * Fills e (e->name points into path).
 */
int bb_resdisk_stat(struct resdisk *d, const char *path, struct resdisk_entry *e);

/*
 * Read a regular file: fn gets its data in order, in pieces; fn returns 0 to go on. Reads
 * exactly the inode's size; -EIO when the file's blocks cannot all be read (damaged disk),
 * -EFBIG when the file is larger than max_size (0: no limit).
 */
int bb_resdisk_read(struct resdisk *d, const char *path, uint64_t max_size,
                    int (*fn)(const void *buf, size_t len, void *ctx), void *ctx);

/* Write all metadata (superblock, group descriptors, bitmaps) and fsync the device. */
int bb_resdisk_flush(struct resdisk *d);
/* The bytes of the file system's free blocks (what a new file may take, less its metadata). */
unsigned long long bb_resdisk_free_bytes(const struct resdisk *d);

/*
 * Close. In write mode the filesystem is marked clean again and flushed first. Returns the
 * first error; the handle is freed in every case.
 */
int bb_resdisk_close(struct resdisk *d);

/*
 * Turn a fresh ext4 filesystem labelled RESDISK_LABEL (made by mke2fs) into a results disk:
 * write the marker with the given id and create the boots directory. Refuses (-EEXIST) a
 * filesystem that already has a marker and (-EMEDIUMTYPE) one with another label.
 */
int bb_resdisk_init_marker(const char *path, const char *id);

/* A readable description of the last libext2fs error behind a -errno (for messages). */
const char *bb_resdisk_strerror(int err);

#endif
