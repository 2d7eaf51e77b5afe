/* PE section append and checksum: on a synthetic image and on the pinned systemd stub, with
 * objdump (binutils) as the reference reader. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "host/fileio.h"
#include "host/boot/pe.h"
#include "host/boot/uki.h"

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A minimal PE32+ EFI application: headers 0x400, one .text section of 0x200 bytes at VA 0x1000,
 * SectionAlignment 0x1000, FileAlignment 0x200, optionally a symbol table of 40 bytes after. */
static size_t make_pe(uint8_t *b, int symtab)
{
	memset(b, 0, 0x800);
	b[0] = 'M';
	b[1] = 'Z';
	put32(b + 0x3c, 0x80);
	memcpy(b + 0x80, "PE\0\0", 4);
	uint8_t *c = b + 0x84;
	c[0] = 0x64, c[1] = 0x86; /* x86-64 */
	c[2] = 1;                 /* one section */
	put32(c + 4, 12345);      /* timestamp */
	if (symtab) {
		put32(c + 8, 0x600);
		put32(c + 12, 1);
	}
	c[16] = 240; /* optional header size */
	uint8_t *o = b + 0x98;
	o[0] = 0x0b, o[1] = 0x02;
	put32(o + 16, 0x1000); /* entry */
	put32(o + 32, 0x1000); /* SectionAlignment */
	put32(o + 36, 0x200);  /* FileAlignment */
	put32(o + 56, 0x2000); /* SizeOfImage */
	put32(o + 60, 0x400);  /* SizeOfHeaders */
	o[68] = 10;            /* EFI application */
	put32(o + 108, 16);    /* data directories */
	uint8_t *s = o + 240;
	memcpy(s, ".text", 5);
	put32(s + 8, 0x10);
	put32(s + 12, 0x1000);
	put32(s + 16, 0x200);
	put32(s + 20, 0x400);
	put32(s + 36, 0x60000020);
	memset(b + 0x400, 0xc3, 0x10);
	if (!symtab)
		return 0x600;
	memset(b + 0x600, 0x5a, 18);
	put32(b + 0x600 + 18, 22); /* string table size, then the strings */
	memcpy(b + 0x600 + 22, "long_symbol_nam", 16);
	return 0x600 + 38;
}

TEST(add_section_places_at_alignments)
{
	uint8_t b[0x800];
	struct pe_image pe;
	struct pe_section s;
	size_t len = make_pe(b, 0);
	CHECK_INT(bb_pe_load(&pe, b, len), ==, 0);
	CHECK_INT(bb_pe_add_section(&pe, ".osrel", "ID=x\n", 5, 0), ==, 0);
	CHECK_INT(bb_pe_add_section(&pe, ".linux", "KERNEL-BYTES", 12, 0), ==, 0);
	CHECK_INT(pe.nsections, ==, 3);
	CHECK_INT(bb_pe_find_section(&pe, ".osrel", &s), ==, 0);
	CHECK_INT(s.virtual_address, ==, 0x2000);
	CHECK_INT(s.raw_offset, ==, 0x600);
	CHECK_INT(s.raw_size, ==, 0x200);
	CHECK_INT(s.virtual_size, ==, 5);
	CHECK_INT(s.characteristics, ==, PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ);
	CHECK_INT(bb_pe_find_section(&pe, ".linux", &s), ==, 0);
	CHECK_INT(s.virtual_address, ==, 0x3000);
	CHECK_INT(s.raw_offset, ==, 0x800);
	CHECK(!memcmp(pe.buf + 0x800, "KERNEL-BYTES", 12));
	CHECK_INT(bb_pe_size_of_image(&pe), ==, 0x4000);
	CHECK_INT(pe.len, ==, 0xa00);
	CHECK_INT(bb_pe_add_section(&pe, ".linux", "x", 1, 0), ==, -EEXIST);
	CHECK_INT(bb_pe_add_section(&pe, ".toolongname", "x", 1, 0), ==, -EINVAL);
	bb_pe_free(&pe);
}

TEST(symbol_table_moves_behind_new_sections)
{
	uint8_t b[0x800];
	struct pe_image pe;
	size_t len = make_pe(b, 1);
	CHECK_INT(bb_pe_load(&pe, b, len), ==, 0);
	CHECK_INT(bb_pe_add_section(&pe, ".cmdline", "console=ttyS0", 13, 0), ==, 0);
	CHECK_INT(pe.len, ==, 0x800 + 38);
	CHECK_INT(get32(pe.buf + 0x84 + 8), ==, 0x800);
	CHECK(!memcmp(pe.buf + 0x800, b + 0x600, 38));
	bb_pe_free(&pe);
}

TEST(no_room_for_header_is_enospc)
{
	uint8_t b[0x800];
	struct pe_image pe;
	size_t len = make_pe(b, 0);
	/* SizeOfHeaders just past the one section header: no room for a second one. */
	put32(b + 0x98 + 60, 0x98 + 240 + 40);
	CHECK_INT(bb_pe_load(&pe, b, len), ==, 0);
	CHECK_INT(bb_pe_add_section(&pe, ".osrel", "x", 1, 0), ==, -ENOSPC);
	bb_pe_free(&pe);
	/* A signed image (certificate table) is refused. */
	len = make_pe(b, 0);
	put32(b + 0x98 + 112 + 4 * 8, 0x600);
	put32(b + 0x98 + 112 + 4 * 8 + 4, 8);
	CHECK_INT(bb_pe_load(&pe, b, len), ==, 0);
	CHECK_INT(bb_pe_add_section(&pe, ".osrel", "x", 1, 0), ==, -ENOTSUP);
	bb_pe_free(&pe);
}

TEST(not_pe_is_einval)
{
	uint8_t b[0x800];
	struct pe_image pe;
	memset(b, 0, sizeof(b));
	CHECK_INT(bb_pe_load(&pe, b, sizeof(b)), ==, -EINVAL);
	make_pe(b, 0);
	b[0x98] = 0x07; /* bad optional header magic */
	CHECK_INT(bb_pe_load(&pe, b, 0x600), ==, -EINVAL);
	make_pe(b, 0);
	CHECK_INT(bb_pe_load(&pe, b, 0x500), ==, -EINVAL); /* .text data past the end */
}

TEST(checksum_folds_carries_and_adds_length)
{
	/* Words 0xffff + 0x0002 = 0x10001 -> folded to 0x0002; the checksum field (bytes 4..7)
	 * is skipped; an odd last byte counts as a low byte; plus the length 9. */
	uint8_t b[9] = {0xff, 0xff, 0x02, 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0x01};
	CHECK_INT(bb_pe_compute_checksum(b, sizeof(b), 4), ==, 0x0002 + 0x0001 + 9);
}

static const char *stub_path(void)
{
	static char path[4096];
	const char *sysroot = getenv("SYSROOT");
	if (!sysroot)
		SKIP("SYSROOT not set (run through tests/run)");
	snprintf(path, sizeof(path), "%s/%s", sysroot, UKI_STUB_PATH);
	if (access(path, R_OK))
		SKIP("no systemd stub in the sysroot (make fetch)");
	return path;
}

TEST(stub_checksum_matches_the_linker)
{
	uint8_t *data;
	size_t len;
	struct pe_image pe;
	CHECK_INT(bb_fileio_read_all(stub_path(), &data, &len), ==, 0);
	CHECK_INT(bb_pe_load(&pe, data, len), ==, 0);
	CHECK(bb_pe_stored_checksum(&pe) != 0);
	CHECK_INT(bb_pe_compute_checksum(pe.buf, pe.len, bb_pe_checksum_offset(&pe)), ==,
	          bb_pe_stored_checksum(&pe));
	CHECK_INT(pe.section_alignment, ==, 0x200);
	bb_pe_free(&pe);
	free(data);
}

TEST(uki_sections_as_objdump_reads_them)
{
	const char *dir = test_tmpdir();
	char kernel[4096], initrd[4096], out[4096], cmd[8192], err[512];
	static uint8_t bz[0x1000];
	memset(bz, 0x11, sizeof(bz));
	memcpy(bz + 0x202, "HdrS", 4);
	snprintf(kernel, sizeof(kernel), "%s/vmlinuz", dir);
	snprintf(initrd, sizeof(initrd), "%s/initrd.img", dir);
	snprintf(out, sizeof(out), "%s/benchboot.efi", dir);
	CHECK_INT(bb_fileio_write_file(kernel, bz, sizeof(bz)), ==, 0);
	CHECK_INT(bb_fileio_write_file(initrd, "INITRD", 6), ==, 0);
	struct uki_spec spec = {.stub = stub_path(),
	                        .kernel = kernel,
	                        .initrd = initrd,
	                        .cmdline = "console=ttyS0 benchboot.boot.group=1\n",
	                        .name = "t",
	                        .id = "abc",
	                        .timestamp = 0};
	CHECK_INT(bb_uki_build(&spec, out, err, sizeof(err)), ==, 0);

	uint8_t *data;
	size_t len;
	struct pe_image pe;
	struct pe_section s, last;
	CHECK_INT(bb_fileio_read_all(out, &data, &len), ==, 0);
	CHECK_INT(bb_pe_load(&pe, data, len), ==, 0);
	CHECK_INT(bb_pe_timestamp(&pe), ==, 0);
	CHECK_INT(bb_pe_compute_checksum(pe.buf, pe.len, bb_pe_checksum_offset(&pe)), ==,
	          bb_pe_stored_checksum(&pe));
	const char *order[] = {".osrel", ".cmdline", ".initrd", ".linux"};
	CHECK_INT(bb_pe_section(&pe, pe.nsections - 5, &last), ==, 0);
	for (int i = 0; i < 4; i++) {
		CHECK_INT(bb_pe_section(&pe, pe.nsections - 4 + (unsigned)i, &s), ==, 0);
		CHECK_STR(s.name, order[i]);
		CHECK_INT(s.virtual_address % 0x200, ==, 0);
		CHECK_INT(s.raw_offset % 0x200, ==, 0);
		CHECK(s.virtual_address >= last.virtual_address + last.virtual_size);
		last = s;
	}
	CHECK_INT(bb_pe_find_section(&pe, ".cmdline", &s), ==, 0);
	CHECK_INT(s.virtual_size, ==, strlen("console=ttyS0 benchboot.boot.group=1"));
	CHECK(
	    !memcmp(pe.buf + s.raw_offset, "console=ttyS0 benchboot.boot.group=1", s.virtual_size));
	CHECK_INT(bb_pe_find_section(&pe, ".linux", &s), ==, 0);
	CHECK(!memcmp(pe.buf + s.raw_offset, bz, sizeof(bz)));
	CHECK_INT(bb_pe_size_of_image(&pe), >=, s.virtual_address + s.virtual_size);
	bb_pe_free(&pe);
	free(data);

	/* objdump agrees on names, sizes and file offsets. */
	char *text = NULL;
	test_need("objdump", "binutils");
	snprintf(cmd, sizeof(cmd), "objdump -h %s", out);
	if (test_run(cmd, &text))
		FAIL("objdump -h %s failed: %s", out, text);
	CHECK_CONTAINS(text, "pei-x86-64");
	CHECK_CONTAINS(text, ".cmdline");
	CHECK_CONTAINS(text, ".osrel");
	CHECK_CONTAINS(text, ".initrd       00000006");
	CHECK_CONTAINS(text, ".linux        00001000");
	free(text);

	/* The same inputs give the same bytes; a stub that is already a UKI is refused. */
	char out2[4096];
	uint8_t *a, *b;
	size_t alen, blen;
	snprintf(out2, sizeof(out2), "%s/again.efi", dir);
	CHECK_INT(bb_uki_build(&spec, out2, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_fileio_read_all(out, &a, &alen), ==, 0);
	CHECK_INT(bb_fileio_read_all(out2, &b, &blen), ==, 0);
	CHECK(alen == blen && !memcmp(a, b, alen));
	spec.stub = out;
	CHECK_INT(bb_uki_build(&spec, out2, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "has that section already");
	free(a);
	free(b);
}
