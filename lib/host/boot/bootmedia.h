/*
 * The boot media of a built image (`benchboot build --uki --disk --pxe`): from
 * IMAGEDIR/{vmlinuz, initrd.img, cmdline} it writes
 *   IMAGEDIR/benchboot.efi   the unified kernel image (uki.h)
 *   IMAGEDIR/disk.img        the USB stick / disk image with ESP and results partition
 *                            (bootdisk.h; implies the UKI)
 *   IMAGEDIR/pxe/            the TFTP/HTTP tree for iPXE and PXELINUX (pxe.h)
 * docs/boot-anywhere.md is the user's guide.
 */
#ifndef BENCHBOOT_BOOTMEDIA_H
#define BENCHBOOT_BOOTMEDIA_H

#include <stddef.h>
#include <stdint.h>

enum { BOOTMEDIA_UKI = 1, BOOTMEDIA_DISK = 2, BOOTMEDIA_PXE = 4 };

struct bootmedia_spec {
	const char *dir;       /* the image directory (OUTDIR/NAME) */
	const char *name;      /* image name */
	const char *id;        /* image id: seeds the disk's GUIDs and ids */
	const char *sysroot;   /* the EFI stub comes from here */
	uint32_t mtime;        /* timestamps: bb_image_epoch(), as the image's */
	unsigned what;         /* BOOTMEDIA_* */
	uint64_t results_size; /* disk.img's results partition; 0: the default (256 MiB) */
};

/* Returns 0, -EINVAL or another -errno with a message in err. */
int bb_bootmedia_make(const struct bootmedia_spec *spec, char *err, size_t errlen);

/*
 * One PXE tree for the images of every boot group of a job (dirs: their image directories):
 * OUT/LABEL/{vmlinuz, initrd.img} with LABEL the image directory's name, boot.ipxe with a menu
 * (the first group after a timeout), LABEL.ipxe per group, pxelinux.cfg/default with one LABEL
 * each; group N's command line gets benchboot.boot.group=N unless it has one. Returns
 * 0, -EINVAL or another -errno with a message in err.
 */
int bb_bootmedia_pxe_groups(const char *const *dirs, size_t n, const char *out, const char *name,
                            char *err, size_t errlen);

#endif
