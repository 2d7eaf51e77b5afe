/* The manifest and the sha256 it rests on, checked against sha256sum. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "host/image/manifest.h"
#include "sha256.h"

static char err[4096];

static char *sha256sum_of(const char *path)
{
	char cmd[4200], *out;
	snprintf(cmd, sizeof(cmd), "sha256sum < %s | cut -c1-64", path);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	out[strcspn(out, "\n")] = 0;
	return out;
}

TEST(sha256_matches_sha256sum_at_block_edges)
{
	const size_t lens[] = {0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 1 << 20};
	const char *dir = test_tmpdir();
	for (size_t i = 0; i < sizeof(lens) / sizeof(*lens); i++) {
		char *data = malloc(lens[i] + 1);
		for (size_t j = 0; j < lens[i]; j++)
			data[j] = (char)('a' + (j * 7 + i) % 26);
		data[lens[i]] = 0;
		const char *path = test_write_file(dir, "data", data);
		char hex[65], hex2[65];
		bb_sha256_hex(data, lens[i], hex);
		char *want = sha256sum_of(path);
		CHECK_STR(hex, want);
		CHECK_INT(bb_sha256_file_hex(path, hex2), ==, 0);
		CHECK_STR(hex2, want);
		/* fed in odd pieces */
		struct sha256 s;
		unsigned char d[32];
		bb_sha256_init(&s);
		for (size_t off = 0; off < lens[i]; off += 13)
			bb_sha256_update(&s, data + off, lens[i] - off < 13 ? lens[i] - off : 13);
		bb_sha256_final(&s, d);
		bb_sha256_to_hex(d, hex2);
		CHECK_STR(hex2, want);
		free(want);
		free(data);
	}
}

TEST(one_line_per_entry_with_mode_size_digest)
{
	const char *dir = test_tmpdir();
	const char *kernel = test_write_file(dir, "vmlinuz", "not really a kernel\n");
	struct cpio_list l;
	struct bytebuf m = {0};
	char id[65], hi[65], bb[65], kh[65];
	bb_cpio_list_init(&l);
	CHECK_INT(bb_cpio_add_data(&l, "/etc/motd", "hi\n", 3, 0644, "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_slink(&l, "/bin/sh", "busybox", "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_nod(&l, "/dev/console", 0600, 'c', 5, 1, "t", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_add_dir(&l, "/tmp", 01777, "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_data(&l, MANIFEST_PATH, "old", 3, 0644, "t", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_manifest_build(&l, kernel, "console=ttyS0", "mtime=0 compress=gzip level=6",
	                            &m, id, err, sizeof(err)),
	          ==, 0);
	bb_sha256_hex("hi\n", 3, hi);
	bb_sha256_hex("busybox", 7, bb);
	CHECK_INT(bb_sha256_file_hex(kernel, kh), ==, 0);
	char want[2048];
	snprintf(want, sizeof(want),
	         "benchboot-manifest 1\n"
	         "kernel 20 %s\n"
	         "cmdline console=ttyS0\n"
	         "initrd mtime=0 compress=gzip level=6\n"
	         "040755 0 - /bin\n"
	         "120777 7 %s /bin/sh\n"
	         "040755 0 - /dev\n"
	         "020600 0 5:1 /dev/console\n"
	         "040755 0 - /etc\n"
	         "040755 0 - /etc/benchboot\n"
	         "100644 3 %s /etc/motd\n"
	         "041777 0 - /tmp\n",
	         kh, bb, hi);
	char *text = strndup((char *)m.p, m.len);
	CHECK_STR(text, want);
	/* the id is the digest of exactly that text, as sha256sum computes it */
	const char *path = test_write_file(dir, "manifest", text);
	char *sum = sha256sum_of(path);
	CHECK_STR(id, sum);
	free(sum);
	free(text);
	bb_bytebuf_free(&m);
	bb_cpio_list_free(&l);
}

TEST(any_change_changes_the_id)
{
	struct cpio_list l;
	struct bytebuf m = {0};
	char id1[65], id2[65], id3[65];
	bb_cpio_list_init(&l);
	CHECK_INT(bb_cpio_add_data(&l, "/a", "1", 1, 0644, "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_manifest_build(&l, NULL, "x", NULL, &m, id1, err, sizeof(err)), ==, 0);
	m.len = 0;
	CHECK_INT(bb_manifest_build(&l, NULL, "y", NULL, &m, id2, err, sizeof(err)), ==, 0);
	CHECK(strcmp(id1, id2));
	l.v[0].mode = 0755;
	m.len = 0;
	CHECK_INT(bb_manifest_build(&l, NULL, "x", NULL, &m, id3, err, sizeof(err)), ==, 0);
	CHECK(strcmp(id1, id3));
	m.len = 0;
	CHECK_INT(bb_manifest_build(&l, NULL, "a\nb", NULL, &m, id3, err, sizeof(err)), ==,
	          -EINVAL);
	CHECK_CONTAINS(err, "newline");
	bb_bytebuf_free(&m);
	bb_cpio_list_free(&l);
}
