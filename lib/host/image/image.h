/*
 * The image builder behind `benchboot build`: explicit inputs in, OUTDIR/NAME/{vmlinuz,
 * initrd.img, manifest, cmdline} out, byte-identical for identical inputs. Every verb that
 * builds an image (build from options or from a job, run) fills an image_spec and calls
 * bb_image_build; the verb itself only parses arguments.
 *
 * The initramfs always has /proc /sys /dev /tmp /run, /dev/console (c 5 1) and /dev/null
 * (c 1 3), the files of rootfs/, /etc/benchboot/modules.order, /etc/benchboot/manifest and
 * /etc/benchboot/image-id; the rest comes from the spec.
 */
#ifndef BENCHBOOT_IMAGE_H
#define BENCHBOOT_IMAGE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "host/image/compress.h"
#include "sha256.h"

struct image_pair {
	const char *src;
	const char *dest; /* NULL: the default destination */
};

struct image_spec {
	const char *name;           /* required: letters, digits and ._+- */
	const char *outdir;         /* NULL: "images" */
	const char *sysroot;        /* NULL: bb_image_default_sysroot() */
	const char *kernel;         /* NULL: the sysroot's single boot/vmlinuz-* */
	const char *modules_dir;    /* NULL: the sysroot's only lib/modules/VERSION */
	const char *const *modules; /* names, closure taken with dependencies and softdeps */
	size_t nmodules;
	/*
	 * ELF binaries (or any file): src is looked up in the sysroot first (an absolute or
	 * relative path inside it), then on the host. dest NULL: the same path for a sysroot
	 * file, /usr/bin/BASENAME for a host file. Libraries always come from the sysroot.
	 */
	const struct image_pair *binaries;
	size_t nbinaries;
	const struct image_pair *files; /* host files or directories; dest required */
	size_t nfiles;
	const char *init; /* becomes /init; NULL: build/init if present (unless a file is /init) */
	const char *plan; /* becomes /etc/benchboot/plan */
	int busybox;      /* the sysroot's bin/busybox and its applet links */
	const char *cmdline;         /* NULL: IMAGE_DEFAULT_CMDLINE */
	enum compress_kind compress; /* zero value: gzip */
	int level;                   /* 0: the compressor's default */
	const char *early_cpio;      /* uncompressed cpio put first (microcode), or NULL */
	const char *rootfs;          /* NULL: rootfs/ of the benchboot tree */
	const char *cachedir;        /* NULL: $BENCHBOOT_CACHE, else ~/.cache/benchboot */
	int have_mtime; /* 1: use mtime; 0: $SOURCE_DATE_EPOCH, else IMAGE_DEFAULT_MTIME */
	uint32_t mtime;
};

#define IMAGE_DEFAULT_CMDLINE "console=ttyS0 panic=-1"
#define IMAGE_DEFAULT_MTIME 0

/* The one timestamp policy of everything benchboot writes (images, boot media): the value of
 * $SOURCE_DATE_EPOCH, IMAGE_DEFAULT_MTIME when it is unset or empty, -EINVAL when it is not a
 * number of seconds that fits 32 bits. */
int bb_image_epoch(uint32_t *mtime, char *err, size_t errlen);

struct image_result {
	char id[SHA256_HEX_LEN + 1]; /* sha256 of the manifest */
	char dir[PATH_MAX];          /* OUTDIR/NAME */
	size_t initrd_size, cpio_size;
	size_t nentries, nmodules;
};

/* Returns 0, -EINVAL or another -errno (errbuf.h), with a message in err. */
int bb_image_build(const struct image_spec *spec, struct image_result *res, char *err,
                   size_t errlen);

/* $SYSROOT, else CACHE/sysroot/<first 16 hex of sha256 of config/inputs.lock>. */
int bb_image_default_sysroot(char *out, size_t outlen, char *err, size_t errlen);
/* $BENCHBOOT_CACHE, else $HOME/.cache/benchboot. */
void bb_image_default_cachedir(char *out, size_t outlen);
/*
 * A file of the benchboot tree: $BB_TOP/REL, the running binary's ../REL, then ./REL.
 * Returns 0 and the path, or -ENOENT.
 */
int bb_image_find_data(const char *rel, char *out, size_t outlen);

#endif
