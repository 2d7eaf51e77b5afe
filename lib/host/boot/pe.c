/* PE/COFF section append and checksum (see pe.h). Offsets follow Microsoft's PE format. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/boot/pe.h"
#include "host/le.h"

#define COFF_NSECTIONS 2
#define COFF_TIMESTAMP 4
#define COFF_SYMTAB 8
#define COFF_NSYMS 12
#define COFF_OPTSIZE 16
#define OPT_MAGIC 0
#define OPT_SIZE_OF_INIT_DATA 8
#define OPT_SECTION_ALIGNMENT 32
#define OPT_FILE_ALIGNMENT 36
#define OPT_SIZE_OF_IMAGE 56
#define OPT_SIZE_OF_HEADERS 60
#define OPT_CHECKSUM 64
#define PE32_MAGIC 0x10b
#define PE32PLUS_MAGIC 0x20b
#define SECTION_HEADER_SIZE 40
#define DIR_SECURITY 4

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

static uint8_t *coff(const struct pe_image *pe)
{
	return pe->buf + pe->pe_off + 4;
}

static uint8_t *opt(const struct pe_image *pe)
{
	return pe->buf + pe->opt_off;
}

static uint8_t *section_header(const struct pe_image *pe, unsigned i)
{
	return pe->buf + pe->sections_off + (size_t)i * SECTION_HEADER_SIZE;
}

/* The data directory entry i, or NULL when the image has fewer entries. */
static const uint8_t *data_dir(const struct pe_image *pe, unsigned i)
{
	int plus = bb_le_get16(opt(pe) + OPT_MAGIC) == PE32PLUS_MAGIC;
	size_t count_off = plus ? 108 : 92, dirs_off = count_off + 4;
	uint16_t optsize = bb_le_get16(coff(pe) + COFF_OPTSIZE);
	if (count_off + 4 > optsize || i >= bb_le_get32(opt(pe) + count_off) ||
	    dirs_off + (size_t)(i + 1) * 8 > optsize)
		return NULL;
	return opt(pe) + dirs_off + (size_t)i * 8;
}

int bb_pe_load(struct pe_image *pe, const void *data, size_t len)
{
	memset(pe, 0, sizeof(*pe));
	const uint8_t *d = data;
	if (len < 0x40 || d[0] != 'M' || d[1] != 'Z')
		return -EINVAL;
	size_t pe_off = bb_le_get32(d + 0x3c);
	if (pe_off > len || len - pe_off < 24 || memcmp(d + pe_off, "PE\0\0", 4))
		return -EINVAL;
	size_t optsize = bb_le_get16(d + pe_off + 4 + COFF_OPTSIZE);
	size_t opt_off = pe_off + 24;
	if (optsize < OPT_CHECKSUM + 4 || opt_off + optsize > len)
		return -EINVAL;
	uint16_t magic = bb_le_get16(d + opt_off);
	if (magic != PE32_MAGIC && magic != PE32PLUS_MAGIC)
		return -EINVAL;
	unsigned n = bb_le_get16(d + pe_off + 4 + COFF_NSECTIONS);
	size_t sections_off = opt_off + optsize;
	if (sections_off + (size_t)n * SECTION_HEADER_SIZE > len)
		return -EINVAL;
	uint32_t salign = bb_le_get32(d + opt_off + OPT_SECTION_ALIGNMENT);
	uint32_t falign = bb_le_get32(d + opt_off + OPT_FILE_ALIGNMENT);
	if (!salign || !falign || (falign & (falign - 1)) || (salign & (salign - 1)))
		return -EINVAL;
	if (!(pe->buf = malloc(len ? len : 1)))
		return -ENOMEM;
	memcpy(pe->buf, data, len);
	pe->len = len;
	pe->pe_off = pe_off;
	pe->opt_off = opt_off;
	pe->sections_off = sections_off;
	pe->nsections = n;
	pe->section_alignment = salign;
	pe->file_alignment = falign;
	for (unsigned i = 0; i < n; i++) {
		struct pe_section s;
		bb_pe_section(pe, i, &s);
		if (s.raw_size && ((uint64_t)s.raw_offset + s.raw_size > len)) {
			bb_pe_free(pe);
			return -EINVAL;
		}
	}
	return 0;
}

void bb_pe_free(struct pe_image *pe)
{
	free(pe->buf);
	memset(pe, 0, sizeof(*pe));
}

int bb_pe_section(const struct pe_image *pe, unsigned i, struct pe_section *out)
{
	if (i >= pe->nsections)
		return -ENOENT;
	const uint8_t *h = section_header(pe, i);
	memset(out, 0, sizeof(*out));
	memcpy(out->name, h, 8);
	out->virtual_size = bb_le_get32(h + 8);
	out->virtual_address = bb_le_get32(h + 12);
	out->raw_size = bb_le_get32(h + 16);
	out->raw_offset = bb_le_get32(h + 20);
	out->characteristics = bb_le_get32(h + 36);
	return 0;
}

int bb_pe_find_section(const struct pe_image *pe, const char *name, struct pe_section *out)
{
	for (unsigned i = 0; i < pe->nsections; i++) {
		bb_pe_section(pe, i, out);
		if (!strcmp(out->name, name))
			return 0;
	}
	return -ENOENT;
}

/* End of the last section's file data, and of its image (virtual) range. */
static void section_ends(const struct pe_image *pe, uint64_t *raw_end, uint64_t *virt_end)
{
	*raw_end = bb_le_get32(opt(pe) + OPT_SIZE_OF_HEADERS);
	*virt_end = bb_le_get32(opt(pe) + OPT_SIZE_OF_IMAGE);
	for (unsigned i = 0; i < pe->nsections; i++) {
		struct pe_section s;
		bb_pe_section(pe, i, &s);
		if (s.raw_size && (uint64_t)s.raw_offset + s.raw_size > *raw_end)
			*raw_end = (uint64_t)s.raw_offset + s.raw_size;
		uint32_t vsize = s.virtual_size > s.raw_size ? s.virtual_size : s.raw_size;
		if ((uint64_t)s.virtual_address + vsize > *virt_end)
			*virt_end = (uint64_t)s.virtual_address + vsize;
	}
}

int bb_pe_add_section(struct pe_image *pe, const char *name, const void *data, size_t len,
                      uint32_t characteristics)
{
	size_t namelen = strlen(name);
	struct pe_section existing;
	if (!namelen || namelen > 8)
		return -EINVAL;
	if (!bb_pe_find_section(pe, name, &existing))
		return -EEXIST;
	const uint8_t *sec = data_dir(pe, DIR_SECURITY);
	if (sec && (bb_le_get32(sec) || bb_le_get32(sec + 4)))
		return -ENOTSUP;

	/* Room for one more header: below SizeOfHeaders and below every section's data, and
	 * only over zero bytes (padding), so nothing is overwritten. */
	size_t hdr = pe->sections_off + (size_t)pe->nsections * SECTION_HEADER_SIZE;
	uint64_t limit = bb_le_get32(opt(pe) + OPT_SIZE_OF_HEADERS);
	for (unsigned i = 0; i < pe->nsections; i++) {
		struct pe_section s;
		bb_pe_section(pe, i, &s);
		if (s.raw_size && s.raw_offset < limit)
			limit = s.raw_offset;
	}
	if (hdr + SECTION_HEADER_SIZE > limit || hdr + SECTION_HEADER_SIZE > pe->len)
		return -ENOSPC;
	for (size_t i = hdr; i < hdr + SECTION_HEADER_SIZE; i++)
		if (pe->buf[i])
			return -ENOSPC;

	uint64_t raw_end, virt_end;
	section_ends(pe, &raw_end, &virt_end);
	/* What trails the sections may only be the COFF symbol and string tables. */
	uint32_t symtab = bb_le_get32(coff(pe) + COFF_SYMTAB);
	size_t trailer_len = 0;
	if (pe->len > raw_end) {
		if (symtab != raw_end && symtab)
			return -ENOTSUP;
		if (!symtab)
			return -ENOTSUP;
		trailer_len = pe->len - raw_end;
	} else if (symtab) {
		return -EINVAL;
	}

	uint64_t raw_off = align_up(raw_end, pe->file_alignment);
	uint64_t raw_size = align_up(len, pe->file_alignment);
	uint64_t va = align_up(virt_end, pe->section_alignment);
	uint64_t new_len = raw_off + raw_size + trailer_len;
	uint64_t image_size = align_up(va + len, pe->section_alignment);
	if (new_len > UINT32_MAX || image_size > UINT32_MAX || len > UINT32_MAX)
		return -EFBIG;

	uint8_t *nb = malloc(new_len ? new_len : 1);
	if (!nb)
		return -ENOMEM;
	memcpy(nb, pe->buf, raw_end);
	memset(nb + raw_end, 0, raw_off - raw_end);
	memcpy(nb + raw_off, data, len);
	memset(nb + raw_off + len, 0, raw_size - len);
	if (trailer_len)
		memcpy(nb + raw_off + raw_size, pe->buf + raw_end, trailer_len);
	free(pe->buf);
	pe->buf = nb;
	pe->len = new_len;

	uint8_t *h = section_header(pe, pe->nsections);
	memset(h, 0, SECTION_HEADER_SIZE);
	memcpy(h, name, namelen);
	bb_le_put32(h + 8, (uint32_t)len);
	bb_le_put32(h + 12, (uint32_t)va);
	bb_le_put32(h + 16, (uint32_t)raw_size);
	bb_le_put32(h + 20, (uint32_t)raw_off);
	bb_le_put32(h + 36, characteristics ? characteristics
	                                    : PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ);
	pe->nsections++;
	bb_le_put16(coff(pe) + COFF_NSECTIONS, (uint16_t)pe->nsections);
	if (trailer_len)
		bb_le_put32(coff(pe) + COFF_SYMTAB, (uint32_t)(raw_off + raw_size));
	bb_le_put32(opt(pe) + OPT_SIZE_OF_IMAGE, (uint32_t)image_size);
	uint32_t init = bb_le_get32(opt(pe) + OPT_SIZE_OF_INIT_DATA);
	bb_le_put32(opt(pe) + OPT_SIZE_OF_INIT_DATA, (uint32_t)(init + raw_size));
	return 0;
}

void bb_pe_set_timestamp(struct pe_image *pe, uint32_t stamp)
{
	bb_le_put32(coff(pe) + COFF_TIMESTAMP, stamp);
}

uint32_t bb_pe_timestamp(const struct pe_image *pe)
{
	return bb_le_get32(coff(pe) + COFF_TIMESTAMP);
}

size_t bb_pe_checksum_offset(const struct pe_image *pe)
{
	return pe->opt_off + OPT_CHECKSUM;
}

uint32_t bb_pe_stored_checksum(const struct pe_image *pe)
{
	return bb_le_get32(pe->buf + bb_pe_checksum_offset(pe));
}

uint32_t bb_pe_size_of_image(const struct pe_image *pe)
{
	return bb_le_get32(opt(pe) + OPT_SIZE_OF_IMAGE);
}

uint32_t bb_pe_compute_checksum(const uint8_t *buf, size_t len, size_t checksum_off)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < len; i += 2) {
		uint32_t w;
		if (i >= checksum_off && i < checksum_off + 4)
			w = 0;
		else
			w = buf[i] | (i + 1 < len ? (uint32_t)buf[i + 1] << 8 : 0);
		sum += w;
		sum = (sum & 0xffff) + (sum >> 16);
	}
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint32_t)(sum + len);
}

void bb_pe_update_checksum(struct pe_image *pe)
{
	size_t off = bb_pe_checksum_offset(pe);
	bb_le_put32(pe->buf + off, bb_pe_compute_checksum(pe->buf, pe->len, off));
}
