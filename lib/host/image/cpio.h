/*
 * A deterministic newc (070701) cpio writer. The archive is described as a list of entries
 * (file, dir, slink, nod: as in the kernel's gen_init_cpio), not by walking a directory, so
 * device nodes need no root. bb_cpio_finish() normalises the list: missing parent directories
 * added, sorted by path, duplicates merged (an identical duplicate is dropped, a different one
 * is an error naming both origins), counter inode numbers, hard links for files that came from
 * the same source inode. bb_cpio_write() then gives uid/gid 0 and one mtime to every entry.
 *
 * Functions return 0, -EINVAL (bad input: the message says which entry) or another -errno
 * (I/O), with a message in err.
 */
#ifndef BENCHBOOT_CPIO_H
#define BENCHBOOT_CPIO_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "host/bytebuf.h"

enum cpio_type { CPIO_FILE, CPIO_DIR, CPIO_SLINK, CPIO_NOD };

struct cpio_entry {
	char *path; /* normalised: relative to the image root, no '.', '..', '//' */
	enum cpio_type type;
	unsigned mode;       /* permission bits (07777) */
	unsigned char *data; /* CPIO_FILE: the content */
	size_t size;
	char *target; /* CPIO_SLINK */
	char nodtype; /* CPIO_NOD: 'c' or 'b' */
	unsigned rmajor, rminor;
	char *origin;  /* where the entry came from, for messages */
	dev_t src_dev; /* CPIO_FILE read from a file: entries sharing dev/ino become hard links */
	ino_t src_ino;
	int weak; /* yields to a non-weak entry at the same path (parent dirs, applet links) */
	unsigned char sha[32]; /* CPIO_FILE: sha256 of data; CPIO_SLINK: of target */
	/* set by bb_cpio_finish */
	unsigned ino, nlink;
	int data_here; /* 0 for all but the last member of a hard-link group */
	size_t seq;    /* insertion order, keeps the sort stable */
};

struct cpio_list {
	struct cpio_entry *v;
	size_t n, cap;
	int finished;
};

void bb_cpio_list_init(struct cpio_list *l);
void bb_cpio_list_free(struct cpio_list *l);

/*
 * Normalise an image path: leading '/' dropped, '.' and empty components removed, '..'
 * resolved lexically. Returns 0, or -EINVAL if it escapes the root or is empty, -ENAMETOOLONG
 * if it is too long.
 */
int bb_cpio_norm_path(const char *in, char *out, size_t outlen);

/* mode 0 means: 0755 if the source has any execute bit, else 0644 (umask-independent). */
int bb_cpio_add_file(struct cpio_list *l, const char *path, const char *src, unsigned mode,
                     const char *origin, char *err, size_t errlen);
int bb_cpio_add_data(struct cpio_list *l, const char *path, const void *data, size_t size,
                     unsigned mode, const char *origin, char *err, size_t errlen);
int bb_cpio_add_dir(struct cpio_list *l, const char *path, unsigned mode, const char *origin,
                    char *err, size_t errlen);
int bb_cpio_add_slink(struct cpio_list *l, const char *path, const char *target, const char *origin,
                      char *err, size_t errlen);
int bb_cpio_add_nod(struct cpio_list *l, const char *path, unsigned mode, char nodtype,
                    unsigned rmajor, unsigned rminor, const char *origin, char *err, size_t errlen);
/* Add a host directory tree at path (files, dirs, symlinks; other types are an error). */
int bb_cpio_add_tree(struct cpio_list *l, const char *path, const char *srcdir, const char *origin,
                     char *err, size_t errlen);
/* Mark the most recently added entry weak. */
void bb_cpio_last_weak(struct cpio_list *l);

int bb_cpio_finish(struct cpio_list *l, char *err, size_t errlen);
/* After bb_cpio_finish: the entry at a normalised path, or NULL. */
const struct cpio_entry *bb_cpio_find(const struct cpio_list *l, const char *path);
/* Append the archive (entries, TRAILER!!!, padding to 512) to out. */
int bb_cpio_write(const struct cpio_list *l, uint32_t mtime, struct bytebuf *out, char *err,
                  size_t errlen);

#endif
