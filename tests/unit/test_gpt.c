/* GUID partition tables, checked by sgdisk (gdisk) as the reference reader. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "host/gpt.h"

TEST(guid_text_round_trip_and_disk_order)
{
	uint8_t g[16];
	char text[37];
	CHECK_INT(bb_gpt_guid_parse(GPT_TYPE_ESP, g), ==, 0);
	/* The first three fields are little-endian on disk. */
	CHECK_INT(g[0], ==, 0x28);
	CHECK_INT(g[3], ==, 0xc1);
	CHECK_INT(g[4], ==, 0x1f);
	CHECK_INT(g[6], ==, 0xd2);
	CHECK_INT(g[8], ==, 0xba);
	CHECK_INT(g[15], ==, 0x3b);
	bb_gpt_guid_format(g, text);
	CHECK_STR(text, GPT_TYPE_ESP);
	CHECK_INT(bb_gpt_guid_parse("C12A7328-F81F-11D2-BA4B-00A0C93EC93", g), ==, -EINVAL);
	CHECK_INT(bb_gpt_guid_parse("C12A7328xF81F-11D2-BA4B-00A0C93EC93B", g), ==, -EINVAL);
	CHECK_INT(bb_gpt_guid_parse("G12A7328-F81F-11D2-BA4B-00A0C93EC93B", g), ==, -EINVAL);
}

TEST(derived_guids_are_stable_version_8)
{
	uint8_t a[16], b[16], c[16];
	char text[37];
	bb_gpt_guid_derive("image-id", "disk", a);
	bb_gpt_guid_derive("image-id", "disk", b);
	bb_gpt_guid_derive("image-id", "esp", c);
	CHECK(!memcmp(a, b, 16));
	CHECK(memcmp(a, c, 16));
	bb_gpt_guid_format(a, text);
	CHECK_INT(text[14], ==, '8');
	CHECK(strchr("89AB", text[19]) != NULL);
}

TEST(sgdisk_verifies_the_table)
{
	const char *dir = test_tmpdir();
	char path[4096], cmd[8192], *out = NULL;
	uint64_t sectors = (64ull << 20) / 512;
	struct gpt_partition parts[2] = {
	    {.first_lba = 2048, .last_lba = 2048 + 32768 - 1, .name = "ESP"},
	    {.first_lba = 2048 + 32768,
	     .last_lba = GPT_LAST_USABLE(sectors),
	     .name = "benchboot-results",
	     .attributes = 0},
	};
	uint8_t disk[16];
	bb_gpt_guid_parse(GPT_TYPE_ESP, parts[0].type);
	bb_gpt_guid_parse(GPT_TYPE_LINUX_DATA, parts[1].type);
	bb_gpt_guid_parse("11111111-2222-3333-4444-555555555555", parts[0].guid);
	bb_gpt_guid_parse("66666666-7777-8888-9999-AAAAAAAAAAAA", parts[1].guid);
	bb_gpt_guid_parse("01234567-89AB-CDEF-0123-456789ABCDEF", disk);
	snprintf(path, sizeof(path), "%s/disk.img", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	CHECK_INT(ftruncate(fd, (off_t)(sectors * 512)), ==, 0);
	CHECK_INT(bb_gpt_write(fd, sectors, disk, parts, 2), ==, 0);
	/* Overlapping or out-of-range partitions are refused. */
	parts[1].first_lba = 2048 + 100;
	CHECK_INT(bb_gpt_write(fd, sectors, disk, parts, 2), ==, -EINVAL);
	parts[1].first_lba = 2048 + 32768;
	parts[1].last_lba = sectors - 1;
	CHECK_INT(bb_gpt_write(fd, sectors, disk, parts, 2), ==, -EINVAL);
	close(fd);

	test_need("sgdisk", "gdisk");
	snprintf(cmd, sizeof(cmd), "sgdisk -v %s 2>&1", path);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_CONTAINS(out, "No problems found");
	free(out);
	snprintf(cmd, sizeof(cmd), "sgdisk -p %s 2>&1", path);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_CONTAINS(out, "Disk identifier (GUID): 01234567-89AB-CDEF-0123-456789ABCDEF");
	CHECK_CONTAINS(out, "   1            2048           34815   16.0 MiB    EF00  ESP");
	CHECK_CONTAINS(
	    out, "   2           34816          131038   47.0 MiB    8300  benchboot-results");
	free(out);
	snprintf(cmd, sizeof(cmd), "sgdisk -i 2 %s 2>&1", path);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_CONTAINS(out, "Partition unique GUID: 66666666-7777-8888-9999-AAAAAAAAAAAA");
	free(out);
	/* The kernel's view: the protective MBR says GPT. */
	snprintf(cmd, sizeof(cmd), "sgdisk -O %s 2>&1", path);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_CONTAINS(out, "0xEE");
	free(out);
}
