/* lib/results/resdisk: the results disk through libext2fs, checked against e2fsck and debugfs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "host/collect/collect.h"
#include "results/resdisk.h"
#include "sha256.h"

#define ID "0123456789abcdef0123456789abcdef"

/* An ext4 image made by mke2fs (as mkdisk does), optionally marked. */
static const char *make_image(const char *name, const char *size, const char *label, int mark)
{
	static char path[4096];
	char cmd[16384];
	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	snprintf(cmd, sizeof(cmd),
	         "truncate -s %s %s && mke2fs -q -F -t ext4 -L '%s' -m 0 -b 4096 %s 2>&1", size,
	         path, label, path);
	test_need("mke2fs", "e2fsprogs");
	char *out;
	if (test_run(cmd, &out))
		FAIL("mke2fs failed: %s", out);
	if (mark)
		CHECK_INT(bb_resdisk_init_marker(path, ID), ==, 0);
	return strdup(path);
}

static int fsck_clean(const char *path)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "e2fsck -fn %s >/dev/null 2>&1", path);
	return test_run(cmd, NULL) == 0;
}

static char *debugfs_cat(const char *img, const char *path)
{
	char cmd[8192], *out;
	snprintf(cmd, sizeof(cmd), "debugfs -R 'cat %s' %s 2>/dev/null", path, img);
	test_run(cmd, &out);
	return out;
}

static void file_sha(const char *path, char hex[SHA256_HEX_LEN + 1])
{
	CHECK_INT(bb_sha256_file_hex(path, hex), ==, 0);
}

TEST(probe_marked_unmarked_raw)
{
	char id[RESDISK_ID_LEN + 1];
	const char *marked = make_image("m.img", "16M", RESDISK_LABEL, 1);
	CHECK_INT(bb_resdisk_probe(marked, id), ==, 0);
	CHECK_STR(id, ID);
	const char *plain = make_image("p.img", "16M", "data", 0);
	CHECK_INT(bb_resdisk_probe(plain, id), ==, -EMEDIUMTYPE);
	/* the right label alone is not enough */
	const char *label_only = make_image("l.img", "16M", RESDISK_LABEL, 0);
	CHECK_INT(bb_resdisk_probe(label_only, id), ==, -EMEDIUMTYPE);
	const char *raw = test_write_file(test_tmpdir(), "raw.img", "not a filesystem at all");
	CHECK_INT(bb_resdisk_probe(raw, id), ==, -EMEDIUMTYPE);
	CHECK_INT(bb_resdisk_probe("/nonexistent/disk", id), ==, -ENOENT);
}

TEST(write_refuses_unmarked_and_leaves_it_untouched)
{
	struct resdisk *d;
	char before[SHA256_HEX_LEN + 1], after[SHA256_HEX_LEN + 1];
	const char *paths[2] = {make_image("p.img", "16M", "data", 0),
	                        make_image("l.img", "16M", RESDISK_LABEL, 0)};
	for (int i = 0; i < 2; i++) {
		file_sha(paths[i], before);
		CHECK_INT(bb_resdisk_open(paths[i], RESDISK_WRITE, &d), ==, -EMEDIUMTYPE);
		CHECK(d == NULL);
		file_sha(paths[i], after);
		CHECK_STR(after, before);
	}
}

static int feed(const void *buf, size_t len, void *ctx)
{
	bb_sha256_update(ctx, buf, len);
	return 0;
}

static int collect(const struct resdisk_entry *en, void *ctx)
{
	strcat(ctx, en->name);
	strcat(ctx, " ");
	return 0;
}

TEST(write_read_replace_list)
{
	struct resdisk *d;
	const char *img = make_image("m.img", "32M", RESDISK_LABEL, 1);
	CHECK_INT(bb_resdisk_open(img, RESDISK_WRITE, &d), ==, 0);
	CHECK_STR(bb_resdisk_id(d), ID);
	CHECK_INT(bb_resdisk_mkdir_p(d, "boots/0001-a/runs/r1/1"), ==, 0);
	CHECK_INT(bb_resdisk_mkdir_p(d, "boots/0001-a/runs/r1/1"), ==, 0); /* exists: fine */
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-a/init.log", "one\n", 4), ==, 0);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-a/init.log", "one\ntwo\n", 8), ==, 0);
	/* a file big enough for an extent tree of several blocks */
	size_t big = 3 * 1024 * 1024 + 17;
	char *data = malloc(big);
	for (size_t i = 0; i < big; i++)
		data[i] = (char)(i * 7 + i / 4096);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-a/runs/r1/1/client.0.out", data, big), ==, 0);
	/* bad names */
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-a/.hidden", "x", 1), ==, -EINVAL);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/../x", "x", 1), ==, -EINVAL);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/nodir/x", "x", 1), ==, -ENOENT);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-a/runs", "x", 1), ==, -EISDIR);
	CHECK_INT(bb_resdisk_mkdir_p(d, "boots/0001-a/init.log/sub"), ==, -ENOTDIR);
	CHECK_INT(bb_resdisk_close(d), ==, 0);

	CHECK(fsck_clean(img));
	char *log = debugfs_cat(img, "/boots/0001-a/init.log");
	CHECK_STR(log, "one\ntwo\n");

	/* read it back with our reader too */
	CHECK_INT(bb_resdisk_open(img, RESDISK_READ, &d), ==, 0);
	CHECK(!bb_resdisk_unclean(d));
	struct resdisk_entry e;
	CHECK_INT(bb_resdisk_stat(d, "boots/0001-a/runs/r1/1/client.0.out", &e), ==, 0);
	CHECK_INT(e.type, ==, RESDISK_T_FILE);
	CHECK_INT(e.size, ==, big);
	struct sha256 s;
	unsigned char d1[SHA256_DIGEST_LEN], d2[SHA256_DIGEST_LEN];
	bb_sha256_init(&s);
	CHECK_INT(bb_resdisk_read(d, "boots/0001-a/runs/r1/1/client.0.out", 0, feed, &s), ==, 0);
	bb_sha256_final(&s, d1);
	bb_sha256_init(&s);
	bb_sha256_update(&s, data, big);
	bb_sha256_final(&s, d2);
	CHECK(!memcmp(d1, d2, sizeof(d1)));
	CHECK_INT(bb_resdisk_read(d, "boots/0001-a/runs/r1/1/client.0.out", 1024, feed, &s), ==,
	          -EFBIG);
	/* the listing: no temporaries left behind */
	char names[1024] = "";
	CHECK_INT(bb_resdisk_list(d, "boots/0001-a", collect, names), ==, 0);
	CHECK_STR(names, "runs init.log ");
	CHECK_INT(bb_resdisk_write_buf(d, "boots/x", "x", 1), ==, -EROFS);
	CHECK_INT(bb_resdisk_close(d), ==, 0);
	free(data);
}

TEST(reader_refuses_symlinks_in_paths)
{
	struct resdisk *d;
	char cmd[8192];
	const char *img = make_image("m.img", "16M", RESDISK_LABEL, 1);
	snprintf(cmd, sizeof(cmd),
	         "debugfs -w -R 'symlink /boots/link /boots' %s >/dev/null 2>&1 && "
	         "debugfs -w -R 'mkdir /boots/real' %s >/dev/null 2>&1",
	         img, img);
	CHECK_INT(test_run(cmd, NULL), ==, 0);
	CHECK_INT(bb_resdisk_open(img, RESDISK_READ, &d), ==, 0);
	struct resdisk_entry e;
	CHECK_INT(bb_resdisk_stat(d, "boots/link", &e), ==, 0);
	CHECK_INT(e.type, ==, RESDISK_T_SYMLINK);
	CHECK_INT(bb_resdisk_stat(d, "boots/link/real", &e), ==, -ELOOP);
	CHECK_INT(bb_resdisk_stat(d, "boots/real", &e), ==, 0);
	bb_resdisk_close(d);
}

TEST(crash_leaves_disk_marked_unclean)
{
	struct resdisk *d;
	const char *img = make_image("m.img", "16M", RESDISK_LABEL, 1);
	pid_t pid = fork();
	if (pid == 0) {
		if (bb_resdisk_open(img, RESDISK_WRITE, &d))
			_exit(1);
		bb_resdisk_mkdir_p(d, "boots/0001-x");
		bb_resdisk_write_buf(d, "boots/0001-x/env.json", "{}", 2);
		bb_resdisk_flush(d);
		_exit(0); /* no close: as if the machine died */
	}
	int st;
	waitpid(pid, &st, 0);
	CHECK_INT(WEXITSTATUS(st), ==, 0);
	CHECK_INT(bb_resdisk_open(img, RESDISK_WRITE, &d), ==, -EUCLEAN);
	CHECK_INT(bb_resdisk_open(img, RESDISK_READ, &d), ==, 0);
	CHECK(bb_resdisk_unclean(d));
	bb_resdisk_close(d);
	/* the flushed file is there; e2fsck -p makes the disk usable again */
	char *env = debugfs_cat(img, "/boots/0001-x/env.json");
	CHECK_STR(env, "{}");
	int rc = -1;
	CHECK_INT(bb_collect_repair_disk(img, &rc), ==, 0);
	CHECK_INT(rc, >=, 0);
	CHECK_INT(rc, <=, 1);
	CHECK_INT(bb_resdisk_open(img, RESDISK_WRITE, &d), ==, 0);
	CHECK_INT(bb_resdisk_close(d), ==, 0);
	CHECK(fsck_clean(img));
}

TEST(disk_full_keeps_earlier_files)
{
	struct resdisk *d;
	const char *img = make_image("tiny.img", "2M", RESDISK_LABEL, 1);
	CHECK_INT(bb_resdisk_open(img, RESDISK_WRITE, &d), ==, 0);
	CHECK_INT(bb_resdisk_mkdir_p(d, "boots/0001-x"), ==, 0);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-x/a", "first", 5), ==, 0);
	CHECK_INT(bb_resdisk_flush(d), ==, 0);
	size_t big = 4 << 20;
	char *data = calloc(1, big);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-x/big", data, big), ==, -ENOSPC);
	/* replacing an existing file with one that does not fit keeps the old one */
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-x/a", data, big), ==, -ENOSPC);
	/* the space of the failed write is given back */
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-x/b", "second", 6), ==, 0);
	CHECK_INT(bb_resdisk_close(d), ==, 0);
	CHECK(fsck_clean(img));
	CHECK_STR(debugfs_cat(img, "/boots/0001-x/a"), "first");
	CHECK_STR(debugfs_cat(img, "/boots/0001-x/b"), "second");
	free(data);
}

TEST(many_files_grow_directories)
{
	struct resdisk *d;
	char path[64];
	const char *img = make_image("m.img", "32M", RESDISK_LABEL, 1);
	CHECK_INT(bb_resdisk_open(img, RESDISK_WRITE, &d), ==, 0);
	CHECK_INT(bb_resdisk_mkdir_p(d, "boots/0001-x"), ==, 0);
	for (int i = 0; i < 400; i++) {
		snprintf(path, sizeof(path), "boots/0001-x/file-with-a-longish-name.%d", i);
		CHECK_INT(bb_resdisk_write_buf(d, path, path, strlen(path)), ==, 0);
	}
	for (int i = 0; i < 100; i++) {
		snprintf(path, sizeof(path), "boots/0001-x/d%d", i);
		CHECK_INT(bb_resdisk_mkdir_p(d, path), ==, 0);
	}
	CHECK_INT(bb_resdisk_close(d), ==, 0);
	CHECK(fsck_clean(img));
	CHECK_STR(debugfs_cat(img, "/boots/0001-x/file-with-a-longish-name.399"),
	          "boots/0001-x/file-with-a-longish-name.399");
}

TEST(init_marker_refuses_marked_and_other_labels)
{
	const char *img = make_image("m.img", "16M", RESDISK_LABEL, 1);
	CHECK_INT(bb_resdisk_init_marker(img, ID), ==, -EEXIST);
	const char *other = make_image("o.img", "16M", "data", 0);
	CHECK_INT(bb_resdisk_init_marker(other, ID), ==, -EMEDIUMTYPE);
	CHECK_INT(bb_resdisk_init_marker(img, "nothex"), ==, -EINVAL);
}

TEST(backup_superblock_when_primary_is_damaged)
{
	struct resdisk *d;
	const char *img = make_image("m.img", "256M", RESDISK_LABEL, 1);
	int fd = open(img, O_WRONLY);
	char zero[1024] = {0};
	CHECK_INT(pwrite(fd, zero, sizeof(zero), 1024), ==, 1024);
	close(fd);
	char id[RESDISK_ID_LEN + 1];
	CHECK_INT(bb_resdisk_probe(img, id), ==, -EMEDIUMTYPE);
	CHECK_INT(bb_resdisk_open(img, RESDISK_WRITE, &d), ==, -EMEDIUMTYPE);
	CHECK_INT(bb_resdisk_open(img, RESDISK_READ, &d), ==, 0);
	CHECK_INT(bb_resdisk_backup_superblock(d), ==, 32768);
	CHECK_STR(bb_resdisk_id(d), ID);
	bb_resdisk_close(d);
}

/*
 * Crash states without QEMU: every write the writer makes goes through a recording I/O manager
 * (unix_io underneath), with a mark at each flush (fsync, the only ordering there is). For each
 * interval between two flushes, images are rebuilt from the disk as it was before the writer
 * started, every write of the earlier intervals and a subset of the writes of that interval:
 * what a crash may leave. Each must be repaired by `e2fsck -p` alone, be clean afterwards, and
 * every file under its final name must be a version the writer wrote, whole.
 */
#include <ext2fs/ext2fs.h>

extern io_manager resdisk_io_manager;

struct rec_write {
	unsigned long long off;
	size_t len;
	unsigned char *data;
	int interval;
};

static struct {
	struct rec_write *v;
	size_t n, cap;
	int interval;
	int opens;
	struct struct_io_manager mgr;
} rec;

static void record(unsigned long long off, size_t len, const void *data)
{
	if (rec.n == rec.cap) {
		rec.cap = rec.cap ? 2 * rec.cap : 256;
		rec.v = realloc(rec.v, rec.cap * sizeof(*rec.v));
	}
	struct rec_write *w = &rec.v[rec.n++];
	w->off = off;
	w->len = len;
	w->data = malloc(len);
	memcpy(w->data, data, len);
	w->interval = rec.interval;
}

static size_t span(io_channel ch, int count)
{
	return count < 0 ? (size_t)-count : (size_t)count * (size_t)ch->block_size;
}

static errcode_t rec_write_blk64(io_channel ch, unsigned long long block, int count,
                                 const void *data)
{
	record(block * (unsigned long long)ch->block_size, span(ch, count), data);
	return unix_io_manager->write_blk64(ch, block, count, data);
}

static errcode_t rec_write_blk(io_channel ch, unsigned long block, int count, const void *data)
{
	return rec_write_blk64(ch, block, count, data);
}

static errcode_t rec_write_byte(io_channel ch, unsigned long offset, int count, const void *data)
{
	record(offset, (size_t)count, data);
	return unix_io_manager->write_byte(ch, offset, count, data);
}

static errcode_t rec_flush(io_channel ch)
{
	errcode_t e = unix_io_manager->flush(ch);
	rec.interval++;
	return e;
}

static errcode_t rec_open(const char *name, int flags, io_channel *ch)
{
	errcode_t e = unix_io_manager->open(name, flags, ch);
	rec.opens++;
	if (!e)
		(*ch)->manager = &rec.mgr;
	return e;
}

static void recording_start(void)
{
	rec.mgr = *unix_io_manager;
	rec.mgr.name = "recording";
	rec.mgr.open = rec_open;
	rec.mgr.write_blk = rec_write_blk;
	rec.mgr.write_blk64 = rec_write_blk64;
	rec.mgr.write_byte = rec_write_byte;
	rec.mgr.flush = rec_flush;
	rec.n = 0;
	rec.interval = 0;
	rec.opens = 0;
	resdisk_io_manager = &rec.mgr;
}

/* The init's disk work is on the path to the first client: one open of the device, not three
 * (a probe, another probe in bb_resdisk_open, then the open itself). */
TEST(write_open_reads_the_marker_through_its_one_open)
{
	struct resdisk *d;
	const char *marked = make_image("m.img", "16M", RESDISK_LABEL, 1);
	recording_start();
	CHECK_INT(bb_resdisk_open(marked, RESDISK_WRITE, &d), ==, 0);
	CHECK_INT(rec.opens, ==, 1);
	CHECK_STR(bb_resdisk_id(d), ID);
	CHECK_INT(bb_resdisk_close(d), ==, 0);
	/* refused ones: the label is checked raw, before libext2fs opens anything */
	const char *other = make_image("o.img", "16M", "data", 0);
	rec.opens = 0;
	CHECK_INT(bb_resdisk_open(other, RESDISK_WRITE, &d), ==, -EMEDIUMTYPE);
	CHECK_INT(rec.opens, ==, 0);
	CHECK_INT(bb_resdisk_check_label(other), ==, -EMEDIUMTYPE);
	const char *label_only = make_image("l.img", "16M", RESDISK_LABEL, 0);
	CHECK_INT(bb_resdisk_check_label(label_only), ==, 0);
	rec.n = 0;
	CHECK_INT(bb_resdisk_open(label_only, RESDISK_WRITE, &d), ==, -EMEDIUMTYPE);
	CHECK_INT(rec.opens, ==, 1);
	CHECK_INT(rec.n, ==, 0); /* nothing written */
	resdisk_io_manager = NULL;
}

/*
 * base + every write of the intervals before k + interval k's writes on some of the pages
 * they touch. The unit is a 4 KiB page: the kernel writes back whole pages of the block device
 * (and of an image file), holding the last content written to them; which of them reach the
 * device before a crash is arbitrary.
 */
#define PAGE 4096ULL

static int pick(int mode, size_t idx, unsigned *seed)
{
	switch (mode) {
	case 0:
		return 1;
	case 1:
		return idx % 2 == 0;
	case 2:
		return idx % 2 == 1;
	case 3:
		return idx == 0;
	case 4:
		return 0;
	default:
		*seed = *seed * 1103515245u + 12345u;
		return (*seed >> 16) & 1;
	}
}

static void rebuild(const char *base, const char *img, int k, int mode, unsigned seed)
{
	char cmd[8192];
	static unsigned char page[PAGE];
	CHECK_INT(snprintf(cmd, sizeof(cmd), "cp %s %s", base, img), <, (int)sizeof(cmd));
	CHECK_INT(test_run(cmd, NULL), ==, 0);
	int fd = open(img, O_RDWR);
	CHECK(fd >= 0);
	for (size_t i = 0; i < rec.n; i++)
		if (rec.v[i].interval < k)
			CHECK_INT(pwrite(fd, rec.v[i].data, rec.v[i].len, (off_t)rec.v[i].off), ==,
			          (ssize_t)rec.v[i].len);
	/* the pages interval k touches, in the order first touched */
	unsigned long long *pages = NULL;
	size_t np = 0;
	for (size_t i = 0; i < rec.n; i++) {
		const struct rec_write *w = &rec.v[i];
		if (w->interval != k)
			continue;
		for (unsigned long long pg = w->off / PAGE; pg <= (w->off + w->len - 1) / PAGE;
		     pg++) {
			size_t j;
			for (j = 0; j < np && pages[j] != pg; j++)
				;
			if (j == np) {
				pages = realloc(pages, (np + 1) * sizeof(*pages));
				pages[np++] = pg;
			}
		}
	}
	for (size_t j = 0; j < np; j++) {
		if (!pick(mode, j, &seed))
			continue;
		unsigned long long start = pages[j] * PAGE;
		CHECK_INT(pread(fd, page, PAGE, (off_t)start), ==, (ssize_t)PAGE);
		for (size_t i = 0; i < rec.n; i++) {
			const struct rec_write *w = &rec.v[i];
			if (w->interval != k || w->off + w->len <= start || w->off >= start + PAGE)
				continue;
			unsigned long long from = w->off > start ? w->off : start;
			unsigned long long to =
			    w->off + w->len < start + PAGE ? w->off + w->len : start + PAGE;
			memcpy(page + (from - start), w->data + (from - w->off), to - from);
		}
		CHECK_INT(pwrite(fd, page, PAGE, (off_t)start), ==, (ssize_t)PAGE);
	}
	free(pages);
	close(fd);
}

struct version_check {
	const char *path;
	const char *versions[3];
};

static int collect_str(const void *buf, size_t len, void *ctx)
{
	char *s = ctx;
	size_t n = strlen(s);
	if (n + len >= 300000)
		return -EFBIG;
	memcpy(s + n, buf, len);
	s[n + len] = 0;
	return 0;
}

/*
 * Every crash state of the recorded session (see rebuild) must be repaired by e2fsck -p, be
 * clean afterwards, hold only whole versions of the files, and be taken by the writer again.
 */
static unsigned check_crash_states(const char *base, const char *crash,
                                   const struct version_check *files, size_t nfiles, int modes)
{
	static char got[300000];
	struct resdisk *d;
	char cmd[8192];
	unsigned checked = 0;
	for (int k = 0; k <= rec.interval; k++) {
		for (int mode = 0; mode < modes; mode++) {
			rebuild(base, crash, k, mode, (unsigned)(k * 7 + mode));
			snprintf(cmd, sizeof(cmd), "e2fsck -p %s 2>&1", crash);
			char *out;
			int rc = test_run(cmd, &out);
			if (rc > 1)
				bb_test_fail(__FILE__, __LINE__,
				             "interval %d, subset %d: e2fsck -p "
				             "exit %d: %s",
				             k, mode, rc, out);
			free(out);
			if (!fsck_clean(crash))
				bb_test_fail(__FILE__, __LINE__,
				             "interval %d, subset %d: not clean after e2fsck -p", k,
				             mode);
			CHECK_INT(bb_resdisk_open(crash, RESDISK_READ, &d), ==, 0);
			for (size_t f = 0; f < nfiles; f++) {
				got[0] = 0;
				int r = bb_resdisk_read(d, files[f].path, 0, collect_str, got);
				if (r == -ENOENT)
					continue;
				CHECK_INT(r, ==, 0);
				int ok = 0;
				for (int v = 0; v < 3 && files[f].versions[v]; v++)
					ok |= !strcmp(got, files[f].versions[v]);
				if (!ok)
					bb_test_fail(
					    __FILE__, __LINE__,
					    "interval %d, subset %d: %s holds a version never "
					    "written (%zu bytes)",
					    k, mode, files[f].path, strlen(got));
			}
			bb_resdisk_close(d);
			/* and the writer takes the repaired disk */
			CHECK_INT(bb_resdisk_open(crash, RESDISK_WRITE, &d), ==, 0);
			CHECK_INT(bb_resdisk_close(d), ==, 0);
			checked++;
		}
	}
	return checked;
}

TEST(every_crash_state_is_repaired_by_preen)
{
	struct resdisk *d;
	static char big[200001];
	const char *img = make_image("w.img", "8M", RESDISK_LABEL, 1);
	char base[4096], crash[4096], cmd[20000];
	snprintf(base, sizeof(base), "%s/base.img", test_tmpdir());
	snprintf(crash, sizeof(crash), "%s/crash.img", test_tmpdir());
	snprintf(cmd, sizeof(cmd), "cp %s %s", img, base);
	CHECK_INT(test_run(cmd, NULL), ==, 0);
	for (size_t i = 0; i < sizeof(big) - 1; i++)
		big[i] = (char)('a' + i % 23);

	recording_start();
	CHECK_INT(bb_resdisk_open(img, RESDISK_WRITE, &d), ==, 0);
	CHECK_INT(bb_resdisk_mkdir_p(d, "boots/0001-x"), ==, 0);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-x/env.json", "{\"a\":1}", 7), ==, 0);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-x/init.log", "one\n", 4), ==, 0);
	CHECK_INT(bb_resdisk_flush(d), ==, 0);
	CHECK_INT(bb_resdisk_mkdir_p(d, "boots/0001-x/runs/r/1"), ==, 0);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-x/runs/r/1/client.0.out", big, strlen(big)),
	          ==, 0);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-x/runs/r/results.json", "[1]", 3), ==, 0);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-x/init.log", "one\ntwo\n", 8), ==, 0);
	CHECK_INT(bb_resdisk_flush(d), ==, 0);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-x/env.json", "{\"a\":2}", 7), ==, 0);
	CHECK_INT(bb_resdisk_close(d), ==, 0);
	resdisk_io_manager = NULL;
	CHECK(fsck_clean(img));
	CHECK_INT(rec.interval, >=, 10);

	const struct version_check files[] = {
	    {"boots/0001-x/env.json", {"{\"a\":1}", "{\"a\":2}"}},
	    {"boots/0001-x/init.log", {"one\n", "one\ntwo\n"}},
	    {"boots/0001-x/runs/r/1/client.0.out", {big}},
	    {"boots/0001-x/runs/r/results.json", {"[1]"}},
	};
	CHECK_INT(check_crash_states(base, crash, files, sizeof(files) / sizeof(files[0]), 8), >=,
	          60);
}

/* The same for a directory that grows, and a replacement whose two entries are in different
 * directory blocks (the slower path without the one-block exchange). */
TEST(crash_states_of_a_growing_directory)
{
	struct resdisk *d;
	static char names[24][300];
	static struct version_check files[26];
	const char *img = make_image("g.img", "8M", RESDISK_LABEL, 1);
	char base[4096], crash[4096], cmd[20000], pad[209];
	snprintf(base, sizeof(base), "%s/base.img", test_tmpdir());
	snprintf(crash, sizeof(crash), "%s/crash.img", test_tmpdir());
	snprintf(cmd, sizeof(cmd), "cp %s %s", img, base);
	CHECK_INT(test_run(cmd, NULL), ==, 0);
	memset(pad, 'n', 208);
	pad[208] = 0;

	recording_start();
	CHECK_INT(bb_resdisk_open(img, RESDISK_WRITE, &d), ==, 0);
	CHECK_INT(bb_resdisk_mkdir_p(d, "boots/0001-g"), ==, 0);
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-g/a", "first", 5), ==, 0);
	size_t n = 0;
	files[n++] = (struct version_check){"boots/0001-g/a", {"first", "second"}};
	/* 202-byte names (one of 210): 19 fill the first 4 KiB block but for 12 bytes, too few
	 * for .tmp.a, and the folder grows into a second block */
	for (int i = 0; i < 22; i++) {
		snprintf(names[i], sizeof(names[i]), "boots/0001-g/%02d%s", i, pad + (i ? 8 : 0));
		CHECK_INT(bb_resdisk_write_buf(d, names[i], names[i], strlen(names[i])), ==, 0);
		files[n++] = (struct version_check){names[i], {names[i]}};
	}
	/* `a` is in the first block, .tmp.a goes to the last */
	CHECK_INT(bb_resdisk_write_buf(d, "boots/0001-g/a", "second", 6), ==, 0);
	CHECK_INT(bb_resdisk_close(d), ==, 0);
	resdisk_io_manager = NULL;
	CHECK(fsck_clean(img));
	CHECK_STR(debugfs_cat(img, "/boots/0001-g/a"), "second");
	CHECK_INT(check_crash_states(base, crash, files, n, 5), >=, 100);
}
