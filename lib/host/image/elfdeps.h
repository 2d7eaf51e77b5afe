/*
 * ELF closure inside a sysroot, breadth-first as dracut does: PT_INTERP and DT_NEEDED, searched
 * in DT_RPATH (of the object and its loaders, when it has no DT_RUNPATH), DT_RUNPATH ($ORIGIN
 * expanded against the object's place in the image), the directories of the sysroot's
 * /etc/ld.so.conf (with include), then the default directories. Symlinks are followed inside
 * the sysroot as if it were the root (an absolute link target stays in the sysroot), and every
 * symlink met on the way is kept, so the image has the same paths as the sysroot.
 *
 * Functions return 0, -EINVAL (a library not found: the message names it and the
 * object that needs it; a binary that is not there) or another -errno.
 */
#ifndef BENCHBOOT_ELFDEPS_H
#define BENCHBOOT_ELFDEPS_H

#include <stddef.h>

#include "host/image/cpio.h"
#include "strv.h"

/* Something the image needs: a regular file (src set) or a symlink (target set). */
struct elfdeps_file {
	char *path;   /* absolute image path */
	char *src;    /* host path of the file's content, or NULL for a symlink */
	char *target; /* symlink target, or NULL */
	char *needed_by;
};

/* One name resolved, as `ldd` shows it: "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6". */
struct elfdeps_found {
	char *name; /* DT_NEEDED string, or the PT_INTERP path */
	char *path; /* absolute image path as found (may go through symlinks) */
	char *real; /* the same with every symlink resolved */
	char *needed_by;
};

struct elfdeps_obj;

struct elfdeps {
	char *sysroot;       /* "" for the host root */
	struct bb_strv dirs; /* library search directories (image paths) */
	struct elfdeps_file *files;
	size_t nfiles, capfiles;
	struct elfdeps_found *found;
	size_t nfound, capfound;
	struct elfdeps_obj *objs;
	size_t nobjs, capobjs;
};

int bb_elfdeps_init(struct elfdeps *d, const char *sysroot, char *err, size_t errlen);
void bb_elfdeps_free(struct elfdeps *d);

/*
 * Resolve an absolute image path inside the sysroot, following symlinks there. real gets the
 * resolved image path. Returns 0, or -errno (-ENOENT, -ELOOP, -ENAMETOOLONG).
 */
int bb_elfdeps_resolve(const struct elfdeps *d, const char *path, char *real, size_t reallen);

/*
 * Add the closure of one binary whose content is at src (a host path) and which will live at
 * image_path (for $ORIGIN and messages). A file that is not ELF, or a static binary, adds
 * nothing. *is_elf (if not NULL) tells whether src was ELF.
 */
int bb_elfdeps_add(struct elfdeps *d, const char *src, const char *image_path, int *is_elf,
                   char *err, size_t errlen);

/* Put every file and symlink found so far into an image list. */
int bb_elfdeps_to_cpio(const struct elfdeps *d, struct cpio_list *l, char *err, size_t errlen);

#endif
