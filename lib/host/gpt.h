/*
 * GUID partition tables (UEFI specification, chapter 5) for disk images with 512-byte sectors:
 * a protective MBR in LBA 0, the primary header in LBA 1 and its 128 entries in LBAs 2-33, the
 * backup entries and header in the last 33 sectors, both CRC32s (IEEE, zlib's crc32) set.
 *
 * GUIDs are written in the on-disk (mixed-endian) byte order. Deterministic images derive their
 * disk and partition GUIDs from a seed (bb_gpt_guid_derive): sha256(seed NUL what), with the
 * RFC 9562 version 8 ("custom") and variant bits set, so the same seed gives the same table.
 *
 * Functions return 0 or -errno (-EINVAL: partitions overlap, leave the usable area or are out
 * of order; -EIO: a short write).
 */
#ifndef BENCHBOOT_GPT_H
#define BENCHBOOT_GPT_H

#include <stddef.h>
#include <stdint.h>

#define GPT_SECTOR 512
#define GPT_ENTRIES 128
#define GPT_ENTRY_SIZE 128
/* First and last usable LBAs of a disk of n sectors (the tables take 34 at the start, 33 at the
 * end). */
#define GPT_FIRST_USABLE 34
#define GPT_LAST_USABLE(n) ((n)-34)

#define GPT_TYPE_ESP "C12A7328-F81F-11D2-BA4B-00A0C93EC93B"
#define GPT_TYPE_LINUX_DATA "0FC63DAF-8483-4772-8E79-3D69D8477DE4"

struct gpt_partition {
	uint8_t type[16]; /* on-disk order */
	uint8_t guid[16];
	uint64_t first_lba, last_lba; /* inclusive */
	uint64_t attributes;
	const char *name; /* ASCII, at most 36 characters */
};

/* Text "XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX" <-> on-disk bytes. Parse: 0 or -EINVAL. */
int bb_gpt_guid_parse(const char *text, uint8_t guid[16]);
void bb_gpt_guid_format(const uint8_t guid[16], char text[37]);
void bb_gpt_guid_derive(const char *seed, const char *what, uint8_t guid[16]);

/*
 * Write the protective MBR, both headers and both entry arrays of a disk of `sectors` sectors
 * to fd (an image file or device of at least that size). Partitions in increasing LBA order.
 */
int bb_gpt_write(int fd, uint64_t sectors, const uint8_t disk_guid[16],
                 const struct gpt_partition *parts, unsigned nparts);

/*
 * Read the primary table of fd (a disk image or device with 512-byte sectors): call fn for
 * each used entry in table order with its number (1-based) and its type, GUID and LBAs (name
 * NULL), until fn returns non-zero, which is then returned. 0 when every entry was visited or
 * there is no GPT (no "EFI PART" in LBA 1, or a table too odd to trust); -errno when fd cannot
 * be read. CRCs are not checked: a reader finding partitions must not refuse a damaged table.
 */
int bb_gpt_read(int fd, int (*fn)(void *ctx, unsigned partno, const struct gpt_partition *p),
                void *ctx);

#endif
