/*
 * Unified kernel images: the systemd EFI stub (Debian's systemd-boot-efi, from the sysroot)
 * with the image's os-release, kernel command line, initramfs and kernel appended as the PE
 * sections .osrel, .cmdline, .initrd and .linux (in that order, at the stub's SectionAlignment,
 * lib/host/boot/pe.h). The result boots directly from UEFI firmware: as \EFI\BOOT\BOOTX64.EFI on an
 * ESP, from a boot entry, or as QEMU's -kernel with OVMF. Deterministic: TimeDateStamp is the
 * given timestamp and the PE checksum is recomputed, so identical inputs give identical bytes.
 *
 * The stub uses .cmdline unless the firmware passes load options (a boot entry with options,
 * or an EFI shell command line) and Secure Boot is off.
 */
#ifndef BENCHBOOT_UKI_H
#define BENCHBOOT_UKI_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

/* Return values of the boot-media writers (uki, bootdisk, pxe): the verbs' exit codes. */
#define UKI_STUB_PATH "usr/lib/systemd/boot/efi/linuxx64.efi.stub" /* in the sysroot */

struct uki_spec {
	const char *stub;    /* the EFI stub (a PE image) */
	const char *kernel;  /* bzImage */
	const char *initrd;  /* initramfs */
	const char *cmdline; /* kernel command line (a trailing newline is dropped) */
	const char *osrel;   /* os-release text; NULL: uki_osrel(name, id) */
	const char *name;    /* image name, for the default os-release */
	const char *id;      /* image id, for the default os-release (may be NULL) */
	uint32_t timestamp;  /* PE TimeDateStamp */
};

/*
 * Write the UKI to out (through a temporary file renamed into place). Returns 0,
 * -EINVAL (an input is missing or the stub is no usable PE image) or another -errno (I/O), with a
 * message in err.
 */
int bb_uki_build(const struct uki_spec *spec, const char *out, char *err, size_t errlen);

#endif
