/*
 * A bootable disk image for USB sticks and UEFI machines (`benchboot build --disk`):
 *
 *   LBA 0-33        protective MBR, GPT (lib/host/gpt.h)
 *   1 MiB           partition 1 "benchboot-esp": EFI System Partition, FAT32 (lib/host/boot/fat.h)
 *                   labelled BENCHBT-ESP, holding the UKI as \EFI\BOOT\BOOTX64.EFI, the path
 *                   firmware boots from removable media
 *   after the ESP   partition 2 "benchboot-results": the results disk (lib/results/resdisk.h), ext4
 *                   labelled BENCHBOOT with its marker, made by mke2fs and bb_resdisk_init_marker
 *   last 33 LBAs    backup GPT
 *
 * The init finds the results partition on the same stick by scanning /sys/class/block
 * (partitions included). `benchboot collect` reads the stick's partition (/dev/sdX2), or the
 * partition copied out of the image (docs/boot-anywhere.md).
 *
 * Deterministic: the disk and partition GUIDs, the FAT volume id, the ext4 UUID and hash seed
 * and the results disk id derive from a seed (the image id); every timestamp is spec->mtime,
 * at least BOOTDISK_MIN_TIME (E2FSPROGS_FAKE_TIME for mke2fs and libext2fs; the inodes' times
 * are normalised after the marker is written). So every disk.img of one image carries the same
 * results disk id; a stick made from it is told apart from another by the boots on it.
 */
#ifndef BENCHBOOT_BOOTDISK_H
#define BENCHBOOT_BOOTDISK_H

#include <stddef.h>
#include <stdint.h>

#define BOOTDISK_ESP_LABEL "BENCHBT-ESP"
#define BOOTDISK_ESP_PATH "EFI/BOOT/BOOTX64.EFI"
#define BOOTDISK_DEFAULT_RESULTS_SIZE (256ull << 20)
#define BOOTDISK_MIN_TIME 315532800u /* 1980-01-01 00:00:00 UTC: earlier mtimes are clamped */
/*
 * Modules a disk image's initramfs carries so that the init sees the disk it booted from: QEMU's
 * virtio disks, and USB sticks behind xHCI or EHCI (usb-storage or UAS, as SCSI disks).
 */
/* On a disk image's command line: wait up to 30 s for the stick's results partition. */
#define BOOTDISK_RESULTS_WAIT "benchboot.results.wait=30"

#define BOOTDISK_MODULES                                                                           \
	{                                                                                          \
		"virtio_pci", "virtio_blk", "xhci_pci", "ehci_pci", "usb_storage", "uas", "sd_mod" \
	}

struct bootdisk_spec {
	const char *uki;       /* the unified kernel image (uki.h) */
	const char *seed;      /* the image id: GUIDs, volume id, disk id */
	uint64_t results_size; /* bytes, a multiple of 1 MiB; 0: BOOTDISK_DEFAULT_RESULTS_SIZE */
	uint64_t esp_size; /* bytes, a multiple of 1 MiB; 0: room for the UKI twice, >= 64 MiB */
	uint32_t mtime;
};

struct bootdisk_layout {
	uint64_t sectors;
	uint64_t esp_first, esp_sectors;         /* LBAs */
	uint64_t results_first, results_sectors; /* LBAs */
	char disk_id[33];                        /* the results disk id */
};

/*
 * Write the disk image to out (through out.tmp, renamed into place). Returns 0,
 * -EINVAL or another -errno with a message in err; layout (may be NULL) says where
 * everything went.
 */
int bb_bootdisk_build(const struct bootdisk_spec *spec, const char *out,
                      struct bootdisk_layout *layout, char *err, size_t errlen);

#endif
