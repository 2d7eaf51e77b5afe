/* lib/results/resfind: finding the results disk in a fake /sys/class/block + /dev tree. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "harness.h"
#include "results/resfind.h"
#include "sha256.h"

#define ID "00112233445566778899aabbccddeeff"

static char logbuf[8192];

static void log_line(void *ctx, const char *line)
{
	strcat(logbuf, line);
	strcat(logbuf, "\n");
}

static void run(const char *cmd)
{
	char *out;
	if (test_run(cmd, &out))
		FAIL("'%s' failed: %s", cmd, out);
}

/* ROOT/sys/class/block/NAME with size, dev (and ro); the image goes to ROOT/dev/NAME if given. */
static void add_dev(const char *root, const char *name, const char *size, const char *dev,
                    const char *ro, const char *image)
{
	char rel[256], cmd[8192];
	snprintf(rel, sizeof(rel), "sys/class/block/%s/size", name);
	test_write_file(root, rel, size);
	snprintf(rel, sizeof(rel), "sys/class/block/%s/dev", name);
	test_write_file(root, rel, dev);
	if (ro) {
		snprintf(rel, sizeof(rel), "sys/class/block/%s/ro", name);
		test_write_file(root, rel, ro);
	}
	if (image) {
		snprintf(cmd, sizeof(cmd), "mkdir -p %s/dev && mv %s %s/dev/%s", root, image, root,
		         name);
		run(cmd);
	}
}

static const char *image(const char *name, const char *label, int mark)
{
	static char path[4096];
	char cmd[12288];
	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	snprintf(cmd, sizeof(cmd), "truncate -s 16M %s && mke2fs -q -F -t ext4 -L '%s' %s 2>&1",
	         path, label, path);
	run(cmd);
	if (mark)
		CHECK_INT(bb_resdisk_init_marker(path, ID), ==, 0);
	return path;
}

static char made[4096];
static dev_t made_dev;

/* Instead of a block node, put the benchboot image there (no root needed). */
static int fake_mknod(const char *path, mode_t mode, dev_t dev)
{
	char cmd[12288];
	CHECK(S_ISBLK(mode));
	snprintf(made, sizeof(made), "%s", path);
	made_dev = dev;
	snprintf(cmd, sizeof(cmd), "cp %s/spare.img %s", test_tmpdir(), path);
	return test_run(cmd, NULL) ? -1 : 0;
}

static int failing_mknod(const char *path, mode_t mode, dev_t dev)
{
	errno = EPERM;
	return -1;
}

TEST(finds_marked_disk_among_others)
{
	char root[1024], rawsha[65], plainsha[65], raw[4096];
	struct resfind_disk found[4];
	snprintf(root, sizeof(root), "%s/root", test_tmpdir());
	snprintf(raw, sizeof(raw), "%s/raw.img", test_tmpdir());
	run("true");
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "head -c 4M /dev/urandom > %s", raw);
	run(cmd);
	CHECK_INT(bb_sha256_file_hex(raw, rawsha), ==, 0);
	add_dev(root, "vda", "8192\n", "253:0\n", "0\n", raw);
	add_dev(root, "vdb", "32768\n", "253:16\n", "0\n", image("plain.img", "data", 0));
	add_dev(root, "vdc", "32768\n", "253:32\n", "0\n", image("marked.img", RESDISK_LABEL, 1));
	add_dev(root, "loop0", "0\n", "7:0\n", "0\n", NULL);
	add_dev(root, "vdd", "32768\n", "253:48\n", "1\n", image("ro.img", RESDISK_LABEL, 1));
	struct resfind_ops ops = {.mknod = failing_mknod, .log = log_line};
	logbuf[0] = 0;
	int n = bb_resfind_scan(root, &ops, found, 4);
	CHECK_INT(n, ==, 1);
	CHECK_STR(found[0].name, "vdc");
	CHECK_STR(found[0].id, ID);
	CHECK_INT(found[0].sectors, ==, 32768);
	CHECK_CONTAINS(logbuf, "vda: not a benchboot disk");
	CHECK_CONTAINS(logbuf, "vdb: not a benchboot disk");
	CHECK_CONTAINS(logbuf, "loop0: empty, skipped");
	CHECK_CONTAINS(logbuf, "vdd: benchboot disk " ID " is read-only, skipped");
	/* order: by name */
	CHECK(strstr(logbuf, "loop0") < strstr(logbuf, "vda"));
	/* probing wrote nothing */
	snprintf(raw, sizeof(raw), "%s/dev/vda", root);
	CHECK_INT(bb_sha256_file_hex(raw, plainsha), ==, 0);
	CHECK_STR(plainsha, rawsha);
}

/* What the init does: the label only, so each disk is opened once, later, by bb_resdisk_open. */
TEST(label_only_scan_reads_the_raw_superblock_only)
{
	char root[1024], raw[4096];
	struct resfind_disk found[4];
	snprintf(root, sizeof(root), "%s/root", test_tmpdir());
	snprintf(raw, sizeof(raw), "%s/raw.img", test_tmpdir());
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "head -c 4M /dev/urandom > %s", raw);
	run(cmd);
	add_dev(root, "vda", "8192\n", "253:0\n", "0\n", raw);
	add_dev(root, "vdb", "32768\n", "253:16\n", "0\n", image("nomark.img", RESDISK_LABEL, 0));
	add_dev(root, "vdc", "32768\n", "253:32\n", "0\n", image("plain.img", "data", 0));
	add_dev(root, "vdd", "32768\n", "253:48\n", "0\n", image("marked.img", RESDISK_LABEL, 1));
	struct resfind_ops ops = {.mknod = failing_mknod, .log = log_line, .label_only = 1};
	logbuf[0] = 0;
	CHECK_INT(bb_resfind_scan(root, &ops, found, 4), ==, 2);
	CHECK_STR(found[0].name, "vdb"); /* the marker is bb_resdisk_open's business */
	CHECK_STR(found[0].id, "");
	CHECK_STR(found[1].name, "vdd");
	CHECK_CONTAINS(logbuf, "vda: not a benchboot disk");
	CHECK_CONTAINS(logbuf, "vdb: labelled " RESDISK_LABEL);
	CHECK_CONTAINS(logbuf, "vdc: not a benchboot disk");
	ops.label_only = 0;
	logbuf[0] = 0;
	CHECK_INT(bb_resfind_scan(root, &ops, found, 4), ==, 1);
	CHECK_STR(found[0].id, ID);
}

TEST(creates_missing_device_nodes)
{
	char root[1024];
	struct resfind_disk found[2];
	snprintf(root, sizeof(root), "%s/root", test_tmpdir());
	const char *img = image("spare.img", RESDISK_LABEL, 1);
	(void)img;
	add_dev(root, "nvme0n1", "32768\n", "259:0\n", NULL, NULL);
	add_dev(root, "nvme0n1p1", "32768\n", "259:1\n", NULL, NULL);
	struct resfind_ops ops = {.mknod = fake_mknod, .log = log_line};
	logbuf[0] = 0;
	int n = bb_resfind_scan(root, &ops, found, 2);
	CHECK_INT(n, ==, 2);
	CHECK_STR(found[1].name, "nvme0n1p1");
	CHECK_INT(major(made_dev), ==, 259);
	CHECK_INT(minor(made_dev), ==, 1);
	CHECK_CONTAINS(made, "/dev/nvme0n1p1");
	CHECK_CONTAINS(logbuf, "nvme0n1: created");
}

TEST(missing_node_that_cannot_be_made_is_skipped)
{
	char root[1024];
	struct resfind_disk found[2];
	snprintf(root, sizeof(root), "%s/root", test_tmpdir());
	add_dev(root, "sda", "32768\n", "8:0\n", NULL, NULL);
	struct resfind_ops ops = {.mknod = failing_mknod, .log = log_line};
	logbuf[0] = 0;
	CHECK_INT(bb_resfind_scan(root, &ops, found, 2), ==, 0);
	CHECK_CONTAINS(logbuf, "sda: no device node");
}

TEST(no_sysfs_is_an_error)
{
	struct resfind_disk found[1];
	CHECK_INT(bb_resfind_scan("/nonexistent", &resfind_real_ops, found, 1), ==, -ENOENT);
}

TEST(more_disks_than_room)
{
	char root[1024], name[16], dev[16], path[4096];
	struct resfind_disk found[1];
	snprintf(root, sizeof(root), "%s/root", test_tmpdir());
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "vd%c", 'a' + i);
		snprintf(dev, sizeof(dev), "253:%d\n", 16 * i);
		snprintf(path, sizeof(path), "m%d.img", i);
		add_dev(root, name, "32768\n", dev, NULL, image(path, RESDISK_LABEL, 1));
	}
	struct resfind_ops ops = {.mknod = failing_mknod};
	CHECK_INT(bb_resfind_scan(root, &ops, found, 1), ==, 3);
	CHECK_STR(found[0].name, "vda");
}

TEST(busy_device_detection)
{
	char root[1024], node[4096], why[256];
	snprintf(root, sizeof(root), "%s/root", test_tmpdir());
	snprintf(node, sizeof(node), "%s/dev/sdz", root);
	test_write_file(root, "dev/.keep", "");
	if (mknod(node, S_IFBLK | 0600, makedev(8, 240)))
		SKIP("cannot make a block node here (%s)", strerror(errno));
	/* a regular file is not a block device */
	CHECK_INT(
	    bb_resfind_device_busy(root, test_write_file(root, "file", "x"), why, sizeof(why)), ==,
	    -ENOTBLK);
	test_write_file(root, "proc/self/mounts", "proc /proc proc rw 0 0\n");
	test_write_file(root, "proc/swaps", "Filename Type Size Used Priority\n");
	CHECK_INT(bb_resfind_device_busy(root, node, why, sizeof(why)), ==, 0);
	/* a partition of it mounted */
	char part[4096];
	snprintf(part, sizeof(part), "%s/dev/sdz1", root);
	CHECK_INT(mknod(part, S_IFBLK | 0600, makedev(8, 241)), ==, 0);
	test_write_file(root, "sys/dev/block/8:240/sdz1/partition", "1\n");
	test_write_file(root, "sys/dev/block/8:240/sdz1/dev", "8:241\n");
	test_write_file(root, "proc/self/mounts", "/dev/sdz1 /mnt/data ext4 rw 0 0\n");
	CHECK_INT(bb_resfind_device_busy(root, node, why, sizeof(why)), ==, 1);
	CHECK_STR(why, "partition sdz1 is mounted on /mnt/data");
	/* the disk itself held by device-mapper */
	test_write_file(root, "proc/self/mounts", "\n");
	test_write_file(root, "sys/dev/block/8:240/holders/dm-0", "");
	CHECK_INT(bb_resfind_device_busy(root, node, why, sizeof(why)), ==, 1);
	CHECK_STR(why, "held by dm-0");
	/* swap */
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "rm -rf %s/sys/dev/block/8:240/holders", root);
	run(cmd);
	test_write_file(root, "proc/swaps", "Filename Type\n/dev/sdz partition 100 0 -2\n");
	CHECK_INT(bb_resfind_device_busy(root, node, why, sizeof(why)), ==, 1);
	CHECK_STR(why, "in use as swap");
}
