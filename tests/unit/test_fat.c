/* The FAT32 writer, read back by the real tools: fsck.fat (dosfstools) and mtools. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "host/boot/fat.h"

static const char *write_image(const char *name, const struct fat_spec *spec, int *ret)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	CHECK_INT(ftruncate(fd, (off_t)spec->size), ==, 0);
	*ret = bb_fat_write(fd, 0, spec);
	close(fd);
	return path;
}

static uint8_t big[300000];

static struct fat_spec esp_spec(struct fat_file *files)
{
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7 + i / 511);
	files[0] = (struct fat_file){"EFI/BOOT/BOOTX64.EFI", big, sizeof(big)};
	files[1] = (struct fat_file){"BENCHBT/README.TXT", "hello\n", 6};
	files[2] = (struct fat_file){"EMPTY", "", 0};
	return (struct fat_spec){.size = 40 << 20,
	                         .label = "BENCHBOOT",
	                         .volume_id = 0x12345678,
	                         .mtime = 1700000000,
	                         .files = files,
	                         .nfiles = 3};
}

TEST(short_names)
{
	char n[11];
	CHECK(bb_fat_short_name("BOOTX64.EFI", n) && !memcmp(n, "BOOTX64 EFI", 11));
	CHECK(bb_fat_short_name("EFI", n) && !memcmp(n, "EFI        ", 11));
	CHECK(!bb_fat_short_name("bootx64.efi", n));
	CHECK(!bb_fat_short_name("TOOLONGNAME.EFI", n));
	CHECK(!bb_fat_short_name("A.EFIX", n));
	CHECK(!bb_fat_short_name("A.B.C", n));
	CHECK(!bb_fat_short_name(".EFI", n));
	CHECK(!bb_fat_short_name("A B", n));
}

TEST(fsck_fat_accepts_and_mtools_read_back)
{
	struct fat_file files[3];
	struct fat_spec spec = esp_spec(files);
	int r;
	const char *img = write_image("esp.img", &spec, &r);
	CHECK_INT(r, ==, 0);
	test_need("fsck.fat", "dosfstools");
	test_need("mcopy", "mtools");
	char cmd[8192], *out = NULL;
	snprintf(cmd, sizeof(cmd), "fsck.fat -n -v %s 2>&1", img);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_CONTAINS(out, "2 FATs, 32 bit entries");
	CHECK_CONTAINS(out, "512 bytes per cluster");
	/* root, EFI, BOOT, BENCHBT: one cluster each; 300000 bytes: 586; README: 1 */
	CHECK_CONTAINS(out, "7 files, 591/80618 clusters");
	free(out);
	snprintf(cmd, sizeof(cmd), "MTOOLS_SKIP_CHECK=1 minfo -i %s :: 2>&1", img);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_CONTAINS(out, "serial number: 12345678");
	CHECK_CONTAINS(out, "disk type=\"FAT32   \"");
	free(out);
	snprintf(cmd, sizeof(cmd), "MTOOLS_SKIP_CHECK=1 mdir -i %s ::/EFI/BOOT 2>&1", img);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_CONTAINS(out, "BOOTX64  EFI    300000 2023-11-14  22:13");
	CHECK_CONTAINS(out, "Volume in drive : is BENCHBOOT");
	free(out);
	snprintf(cmd, sizeof(cmd),
	         "MTOOLS_SKIP_CHECK=1 mcopy -n -i %s ::/EFI/BOOT/BOOTX64.EFI %s/back && "
	         "MTOOLS_SKIP_CHECK=1 mtype -i %s ::/BENCHBT/README.TXT",
	         img, test_tmpdir(), img);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_STR(out, "hello\n");
	free(out);
	char back[4096];
	snprintf(back, sizeof(back), "%s/back", test_tmpdir());
	FILE *f = fopen(back, "rb");
	CHECK(f != NULL);
	static uint8_t got[sizeof(big) + 1];
	CHECK_INT(fread(got, 1, sizeof(got), f), ==, sizeof(big));
	fclose(f);
	CHECK(!memcmp(got, big, sizeof(big)));
}

TEST(identical_inputs_identical_bytes_any_order)
{
	struct fat_file files[3], swapped[3];
	struct fat_spec a = esp_spec(files), b = a;
	swapped[0] = files[2], swapped[1] = files[0], swapped[2] = files[1];
	b.files = swapped;
	int r;
	char pa[4096], cmd[8300], *out = NULL;
	snprintf(pa, sizeof(pa), "%s", write_image("a.img", &a, &r));
	CHECK_INT(r, ==, 0);
	const char *pb = write_image("b.img", &b, &r);
	CHECK_INT(r, ==, 0);
	snprintf(cmd, sizeof(cmd), "cmp %s %s", pa, pb);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	free(out);
}

TEST(errors)
{
	struct fat_file files[3];
	struct fat_spec spec = esp_spec(files);
	int r;
	spec.size = 20 << 20; /* fewer than 65525 clusters: not FAT32 */
	write_image("small.img", &spec, &r);
	CHECK_INT(r, ==, -ENOSPC);
	spec = esp_spec(files);
	files[1].path = "EFI/BOOT/BOOTX64.EFI";
	write_image("dup.img", &spec, &r);
	CHECK_INT(r, ==, -EEXIST);
	spec = esp_spec(files);
	files[1].path = "EFI/BOOT/BOOTX64.EFI/X";
	write_image("filedir.img", &spec, &r);
	CHECK_INT(r, ==, -EEXIST);
	spec = esp_spec(files);
	files[1].path = "efi/boot/bootx64.efi";
	write_image("lower.img", &spec, &r);
	CHECK_INT(r, ==, -EINVAL);
	spec = esp_spec(files);
	spec.label = "MUCH TOO LONG";
	write_image("label.img", &spec, &r);
	CHECK_INT(r, ==, -EINVAL);
	spec = esp_spec(files);
	static uint8_t huge[40 << 20];
	files[0].data = huge;
	files[0].len = sizeof(huge);
	write_image("full.img", &spec, &r);
	CHECK_INT(r, ==, -ENOSPC);
	uint64_t min = bb_fat_min_size(&spec);
	CHECK_INT(min % (1 << 20), ==, 0);
	CHECK(min > sizeof(huge));
	spec.size = min;
	write_image("fits.img", &spec, &r);
	CHECK_INT(r, ==, 0);
}
