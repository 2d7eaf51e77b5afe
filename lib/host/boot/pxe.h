/*
 * A network boot tree for TFTP or HTTP servers (`benchboot build --pxe`):
 *
 *   DIR/vmlinuz, DIR/initrd.img        one boot entry: its kernel and initramfs
 *   DIR/LABEL/vmlinuz, initrd.img      several entries (one per boot group): one directory each
 *   DIR/boot.ipxe                      iPXE script: boots the entry (several: a menu that
 *                                      boots the first after a timeout)
 *   DIR/LABEL.ipxe                     several entries: a script that boots LABEL directly
 *   DIR/pxelinux.cfg/default           PXELINUX configuration: one LABEL per entry, the first
 *                                      the default
 *
 * Both carry each entry's full kernel command line (its boot group selection included).
 * Paths in the scripts are relative, so the tree works from any TFTP root or HTTP directory:
 * iPXE resolves them against the script's own URI, PXELINUX against its TFTP prefix.
 * Deterministic: the same entries give the same files (no dates, no host names).
 */
#ifndef BENCHBOOT_PXE_H
#define BENCHBOOT_PXE_H

#include <stddef.h>

struct pxe_entry {
	const char *label;  /* [A-Za-z0-9._-], e.g. the image name */
	const char *title;  /* one line for menus (NULL: the label) */
	const char *kernel; /* host paths */
	const char *initrd;
	const char *cmdline; /* a trailing newline is dropped */
};

/*
 * Write the tree into dir (created; files in it replaced). Returns 0, -EINVAL (a bad
 * label, a missing input, a command line with a newline) or another -errno, with err set.
 */
int bb_pxe_build(const char *dir, const char *name, const struct pxe_entry *entries, size_t n,
                 char *err, size_t errlen);

#endif
