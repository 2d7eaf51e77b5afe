/* GUID partition tables (see gpt.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "host/gpt.h"
#include "host/le.h"
#include "host/fileio.h"
#include "hex.h"
#include "sha256.h"

/* Text byte i (0..15, in reading order) lands at on-disk position order[i]: the first three
 * fields are little-endian. */
static const int disk_order[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};

int bb_gpt_guid_parse(const char *text, uint8_t guid[16])
{
	int n = 0;
	if (strlen(text) != 36)
		return -EINVAL;
	for (int i = 0; i < 36;) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (text[i++] != '-')
				return -EINVAL;
			continue;
		}
		int hi = bb_hex_digit(text[i]), lo = bb_hex_digit(text[i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		guid[disk_order[n++]] = (uint8_t)(hi << 4 | lo);
		i += 2;
	}
	return 0;
}

void bb_gpt_guid_format(const uint8_t guid[16], char text[37])
{
	char *p = text;
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		p += sprintf(p, "%02X", guid[disk_order[i]]);
	}
	*p = 0;
}

void bb_gpt_guid_derive(const char *seed, const char *what, uint8_t guid[16])
{
	struct sha256 s;
	unsigned char d[SHA256_DIGEST_LEN];
	uint8_t text_order[16];
	bb_sha256_init(&s);
	bb_sha256_update(&s, seed, strlen(seed) + 1);
	bb_sha256_update(&s, what, strlen(what));
	bb_sha256_final(&s, d);
	memcpy(text_order, d, 16);
	text_order[6] = (uint8_t)((text_order[6] & 0x0f) | 0x80); /* version 8 */
	text_order[8] = (uint8_t)((text_order[8] & 0x3f) | 0x80); /* variant 10 */
	for (int i = 0; i < 16; i++)
		guid[disk_order[i]] = text_order[i];
}

static void header(uint8_t *h, uint64_t my_lba, uint64_t alt_lba, uint64_t entries_lba,
                   uint64_t sectors, const uint8_t disk_guid[16], uint32_t entries_crc)
{
	memset(h, 0, GPT_SECTOR);
	memcpy(h, "EFI PART", 8);
	bb_le_put32(h + 8, 0x00010000);
	bb_le_put32(h + 12, 92);
	bb_le_put64(h + 24, my_lba);
	bb_le_put64(h + 32, alt_lba);
	bb_le_put64(h + 40, GPT_FIRST_USABLE);
	bb_le_put64(h + 48, GPT_LAST_USABLE(sectors));
	memcpy(h + 56, disk_guid, 16);
	bb_le_put64(h + 72, entries_lba);
	bb_le_put32(h + 80, GPT_ENTRIES);
	bb_le_put32(h + 84, GPT_ENTRY_SIZE);
	bb_le_put32(h + 88, entries_crc);
	bb_le_put32(h + 16, (uint32_t)crc32(0, h, 92));
}

int bb_gpt_write(int fd, uint64_t sectors, const uint8_t disk_guid[16],
                 const struct gpt_partition *parts, unsigned nparts)
{
	static uint8_t entries[GPT_ENTRIES * GPT_ENTRY_SIZE];
	uint8_t mbr[GPT_SECTOR], h[GPT_SECTOR];
	int r;

	if (sectors < 2 * GPT_FIRST_USABLE + 1 || nparts > GPT_ENTRIES)
		return -EINVAL;
	memset(entries, 0, sizeof(entries));
	for (unsigned i = 0; i < nparts; i++) {
		const struct gpt_partition *p = &parts[i];
		uint8_t *e = entries + (size_t)i * GPT_ENTRY_SIZE;
		if (p->first_lba < GPT_FIRST_USABLE || p->last_lba < p->first_lba ||
		    p->last_lba > GPT_LAST_USABLE(sectors) ||
		    (i && p->first_lba <= parts[i - 1].last_lba))
			return -EINVAL;
		if (p->name && strlen(p->name) > 36)
			return -EINVAL;
		memcpy(e, p->type, 16);
		memcpy(e + 16, p->guid, 16);
		bb_le_put64(e + 32, p->first_lba);
		bb_le_put64(e + 40, p->last_lba);
		bb_le_put64(e + 48, p->attributes);
		for (size_t c = 0; p->name && p->name[c]; c++)
			bb_le_put16(e + 56 + 2 * c, (uint8_t)p->name[c]);
	}
	uint32_t entries_crc = (uint32_t)crc32(0, entries, sizeof(entries));

	/* Protective MBR: one partition of type 0xEE covering the disk (capped at 2^32-1). */
	memset(mbr, 0, sizeof(mbr));
	uint8_t *pe = mbr + 446;
	pe[1] = 0x00, pe[2] = 0x02, pe[3] = 0x00; /* CHS of LBA 1 */
	pe[4] = 0xee;
	pe[5] = 0xff, pe[6] = 0xff, pe[7] = 0xff;
	bb_le_put32(pe + 8, 1);
	bb_le_put32(pe + 12, sectors - 1 > 0xffffffffu ? 0xffffffffu : (uint32_t)(sectors - 1));
	mbr[510] = 0x55, mbr[511] = 0xaa;
	if ((r = bb_fileio_pwrite_all(fd, mbr, sizeof(mbr), 0)))
		return r;

	uint64_t backup_entries = sectors - 1 - sizeof(entries) / GPT_SECTOR;
	header(h, 1, sectors - 1, 2, sectors, disk_guid, entries_crc);
	if ((r = bb_fileio_pwrite_all(fd, h, sizeof(h), GPT_SECTOR)) ||
	    (r = bb_fileio_pwrite_all(fd, entries, sizeof(entries), 2 * GPT_SECTOR)))
		return r;
	header(h, sectors - 1, 1, backup_entries, sectors, disk_guid, entries_crc);
	if ((r = bb_fileio_pwrite_all(fd, entries, sizeof(entries), backup_entries * GPT_SECTOR)) ||
	    (r = bb_fileio_pwrite_all(fd, h, sizeof(h), (sectors - 1) * GPT_SECTOR)))
		return r;
	return 0;
}

int bb_gpt_read(int fd, int (*fn)(void *ctx, unsigned partno, const struct gpt_partition *p),
                void *ctx)
{
	uint8_t hdr[GPT_SECTOR], ent[512];
	static const uint8_t unused[16];
	ssize_t n = pread(fd, hdr, sizeof(hdr), GPT_SECTOR);
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr, "EFI PART", 8))
		return 0;
	uint64_t entries_lba = bb_le_get64(hdr + 72);
	uint32_t nentries = bb_le_get32(hdr + 80), entsize = bb_le_get32(hdr + 84);
	if (entsize < GPT_ENTRY_SIZE || entsize > sizeof(ent) || nentries > 1024)
		return 0;
	for (uint32_t i = 0; i < nentries; i++) {
		off_t at = (off_t)(entries_lba * GPT_SECTOR + (uint64_t)i * entsize);
		if ((n = pread(fd, ent, entsize, at)) != (ssize_t)entsize)
			return n < 0 ? -errno : 0;
		if (!memcmp(ent, unused, 16))
			continue;
		struct gpt_partition p = {.first_lba = bb_le_get64(ent + 32),
		                          .last_lba = bb_le_get64(ent + 40),
		                          .attributes = bb_le_get64(ent + 48)};
		memcpy(p.type, ent, 16);
		memcpy(p.guid, ent + 16, 16);
		int r = fn(ctx, i + 1, &p);
		if (r)
			return r;
	}
	return 0;
}
