/*
 * PE/COFF images (EFI applications): append sections and make the result deterministic, as
 * a unified kernel image needs (the systemd EFI stub plus .osrel, .cmdline, .initrd, .linux).
 *
 * The image is held in memory. A new section is placed after the last one, its virtual address
 * at the image's SectionAlignment and its file offset at FileAlignment; SizeOfImage,
 * SizeOfInitializedData and NumberOfSections follow. A COFF symbol table that trails the
 * sections (the Debian stub keeps one) is moved behind the new data and PointerToSymbolTable
 * updated, so nothing of the input is lost. A signed image (a certificate table) is refused:
 * the signature could not survive.
 *
 * The checksum is the one ImageHlp's CheckSumMappedFile documents: the 16-bit one's-complement
 * style sum (carries folded back) of the whole file read as little-endian words, the CheckSum
 * field itself taken as zero, an odd trailing byte padded with zero, plus the file length.
 *
 * Functions return 0 or -errno: -EINVAL not a PE image or a malformed one, -ENOSPC no room
 * for another section header, -EEXIST a section of that name exists, -ENOTSUP an image this
 * code will not change (signed, or unknown data after the sections), -ENOMEM.
 */
#ifndef BENCHBOOT_PE_H
#define BENCHBOOT_PE_H

#include <stddef.h>
#include <stdint.h>

#define PE_SCN_CNT_CODE 0x00000020u
#define PE_SCN_CNT_INITIALIZED_DATA 0x00000040u
#define PE_SCN_MEM_EXECUTE 0x20000000u
#define PE_SCN_MEM_READ 0x40000000u
#define PE_SCN_MEM_WRITE 0x80000000u

struct pe_image {
	uint8_t *buf;
	size_t len;
	size_t pe_off;       /* "PE\0\0" */
	size_t opt_off;      /* optional header */
	size_t sections_off; /* section table */
	unsigned nsections;
	uint32_t section_alignment, file_alignment;
};

struct pe_section {
	char name[9];
	uint32_t virtual_size, virtual_address;
	uint32_t raw_size, raw_offset;
	uint32_t characteristics;
};

/* Parse a copy of data (PE32 or PE32+). bb_pe_free releases it. */
int bb_pe_load(struct pe_image *pe, const void *data, size_t len);
void bb_pe_free(struct pe_image *pe);

/* Section i (0-based) of the table; -ENOENT past the end. */
int bb_pe_section(const struct pe_image *pe, unsigned i, struct pe_section *out);
/* The section named name; -ENOENT when there is none. */
int bb_pe_find_section(const struct pe_image *pe, const char *name, struct pe_section *out);

/*
 * Append a section of len bytes (name at most 8 bytes), read-only initialized data unless
 * characteristics says otherwise (0: PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ).
 */
int bb_pe_add_section(struct pe_image *pe, const char *name, const void *data, size_t len,
                      uint32_t characteristics);

/* The COFF header's TimeDateStamp. */
void bb_pe_set_timestamp(struct pe_image *pe, uint32_t stamp);
uint32_t bb_pe_timestamp(const struct pe_image *pe);

/* CheckSum as stored, and as computed over buf (see above). */
uint32_t bb_pe_stored_checksum(const struct pe_image *pe);
uint32_t bb_pe_compute_checksum(const uint8_t *buf, size_t len, size_t checksum_off);
/* Store the computed checksum: call last, after every other change. */
void bb_pe_update_checksum(struct pe_image *pe);
/* Offset of the CheckSum field in the file. */
size_t bb_pe_checksum_offset(const struct pe_image *pe);

uint32_t bb_pe_size_of_image(const struct pe_image *pe);

#endif
