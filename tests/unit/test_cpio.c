/* The newc writer, checked against GNU cpio (cpio -it, cpio -itv, cpio -idv). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "host/image/cpio.h"

static char err[4096];

static void write_archive(const struct cpio_list *l, uint32_t mtime, const char *path)
{
	struct bytebuf b = {0};
	CHECK_INT(bb_cpio_write(l, mtime, &b, err, sizeof(err)), ==, 0);
	CHECK_INT(b.len % 512, ==, 0);
	FILE *f = fopen(path, "w");
	CHECK(f);
	CHECK_INT(fwrite(b.p, 1, b.len, f), ==, b.len);
	fclose(f);
	bb_bytebuf_free(&b);
}

/* A list with one of each kind: file, data, dir, slink, char device, hard link. */
static void sample(struct cpio_list *l, const char *dir)
{
	const char *src = test_write_file(dir, "src/hello", "hello, world\n");
	char lpath[4096];
	snprintf(lpath, sizeof(lpath), "%s/src/hello-link", dir);
	CHECK_INT(link(src, lpath), ==, 0);
	chmod(src, 0700);
	bb_cpio_list_init(l);
	CHECK_INT(bb_cpio_add_file(l, "/usr/share/hello", src, 0, "test", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_file(l, "/usr/share/hello2", lpath, 0, "test", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_add_data(l, "etc/motd", "hi\n", 3, 0644, "test", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_add_dir(l, "/tmp", 01777, "test", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_slink(l, "/bin/sh", "busybox", "test", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_nod(l, "/dev/console", 0600, 'c', 5, 1, "test", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_add_nod(l, "/dev/null", 0666, 'c', 1, 3, "test", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_add_nod(l, "/dev/vda", 0660, 'b', 254, 0, "test", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_finish(l, err, sizeof(err)), ==, 0);
}

TEST(gnu_cpio_lists_entries_sorted_with_modes_and_devices)
{
	const char *dir = test_tmpdir();
	struct cpio_list l;
	char path[4096], cmd[8192], *out;
	sample(&l, dir);
	snprintf(path, sizeof(path), "%s/a.cpio", dir);
	write_archive(&l, 1700000000, path);
	snprintf(cmd, sizeof(cmd), "cpio -it --quiet < %s", path);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_STR(out, "bin\nbin/sh\ndev\ndev/console\ndev/null\ndev/vda\netc\netc/motd\ntmp\nusr\n"
	               "usr/share\nusr/share/hello\nusr/share/hello2\n");
	free(out);
	snprintf(cmd, sizeof(cmd),
	         "TZ=UTC cpio -itv --quiet < %s | awk '{print $1, $2, $3, $4, $5, $6, $NF}'", path);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_CONTAINS(out, "crw------- 1 root root 5, 1 dev/console");
	CHECK_CONTAINS(out, "crw-rw-rw- 1 root root 1, 3 dev/null");
	CHECK_CONTAINS(out, "brw-rw---- 1 root root 254, 0 dev/vda");
	CHECK_CONTAINS(out, "drwxrwxrwt 2 root root 0 Nov tmp");
	CHECK_CONTAINS(out, "lrwxrwxrwx 1 root root 7 Nov busybox");
	CHECK_CONTAINS(out, "-rw-r--r-- 1 root root 3 Nov etc/motd");
	/* the source was 0700: any execute bit gives 0755, whatever the umask was; hard links
	 * carry the data with the last name, as GNU cpio writes them */
	CHECK_CONTAINS(out, "-rwxr-xr-x 2 root root 0 Nov usr/share/hello\n");
	CHECK_CONTAINS(out, "-rwxr-xr-x 2 root root 13 Nov usr/share/hello2\n");
	free(out);
	bb_cpio_list_free(&l);
}

TEST(gnu_cpio_extracts_identical_content_and_hard_links)
{
	const char *dir = test_tmpdir();
	struct cpio_list l;
	char path[4096], cmd[8192], *out;
	sample(&l, dir);
	snprintf(path, sizeof(path), "%s/a.cpio", dir);
	write_archive(&l, 0, path);
	/* device nodes need root to extract: skip them when not root */
	snprintf(cmd, sizeof(cmd),
	         "mkdir %s/x && cd %s/x && cpio -idmv --quiet %s < %s 2>&1 && "
	         "cmp usr/share/hello ../src/hello && printf 'hi\\n' | cmp etc/motd - && "
	         "readlink bin/sh && stat -c '%%h %%i' usr/share/hello usr/share/hello2 | sort -u "
	         "| wc -l && stat -c '%%a %%Y' tmp",
	         dir, dir, geteuid() ? "--nonmatching 'dev/*'" : "", path);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_CONTAINS(out, "usr/share/hello\n");
	CHECK_CONTAINS(out, "busybox\n1\n"); /* both names, one inode */
	CHECK_CONTAINS(out, "1777 0\n");
	free(out);
	if (geteuid() == 0) {
		snprintf(cmd, sizeof(cmd), "stat -c '%%F %%t:%%T' %s/x/dev/console %s/x/dev/null",
		         dir, dir);
		CHECK_INT(test_run(cmd, &out), ==, 0);
		CHECK_STR(out, "character special file 5:1\ncharacter special file 1:3\n");
		free(out);
	}
	bb_cpio_list_free(&l);
}

TEST(header_fields_are_fixed_inode_counter_uid0_mtime)
{
	const char *dir = test_tmpdir();
	struct cpio_list l;
	struct bytebuf b = {0};
	sample(&l, dir);
	CHECK_INT(bb_cpio_write(&l, 0x12345678, &b, err, sizeof(err)), ==, 0);
	CHECK(!memcmp(b.p, "070701", 6));
	char field[9] = {0};
	memcpy(field, b.p + 6, 8); /* ino */
	CHECK_STR(field, "000002D1");
	memcpy(field, b.p + 6 + 8 * 2, 8); /* uid */
	CHECK_STR(field, "00000000");
	memcpy(field, b.p + 6 + 8 * 5, 8); /* mtime */
	CHECK_STR(field, "12345678");
	/* the trailer ends it, then zeros to 512 */
	CHECK(memmem(b.p, b.len, "TRAILER!!!", 10));
	CHECK_INT(b.len % 512, ==, 0);
	struct bytebuf b2 = {0};
	CHECK_INT(bb_cpio_write(&l, 0x12345678, &b2, err, sizeof(err)), ==, 0);
	CHECK_INT(b.len, ==, b2.len);
	CHECK(!memcmp(b.p, b2.p, b.len));
	bb_bytebuf_free(&b);
	bb_bytebuf_free(&b2);
	bb_cpio_list_free(&l);
}

TEST(insertion_order_does_not_matter)
{
	struct cpio_list a, b;
	struct bytebuf x = {0}, y = {0};
	bb_cpio_list_init(&a);
	bb_cpio_list_init(&b);
	CHECK_INT(bb_cpio_add_data(&a, "/b/c", "1", 1, 0644, "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_data(&a, "/a", "2", 1, 0644, "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_data(&a, "/b-c", "3", 1, 0644, "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_data(&b, "/b-c", "3", 1, 0644, "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_data(&b, "a", "2", 1, 0644, "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_data(&b, "b//./c", "1", 1, 0644, "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_finish(&a, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_finish(&b, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_write(&a, 0, &x, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_write(&b, 0, &y, err, sizeof(err)), ==, 0);
	CHECK_INT(x.len, ==, y.len);
	CHECK(!memcmp(x.p, y.p, x.len));
	/* parents come before children */
	CHECK_STR(a.v[1].path, "b");
	CHECK_STR(a.v[3].path, "b/c");
	bb_bytebuf_free(&x);
	bb_bytebuf_free(&y);
	bb_cpio_list_free(&a);
	bb_cpio_list_free(&b);
}

TEST(paths_are_normalised_and_escapes_refused)
{
	char out[256];
	CHECK_INT(bb_cpio_norm_path("//usr/./bin/../lib/", out, sizeof(out)), ==, 0);
	CHECK_STR(out, "usr/lib");
	CHECK_INT(bb_cpio_norm_path("../etc/passwd", out, sizeof(out)), ==, -EINVAL);
	CHECK_INT(bb_cpio_norm_path("/a/../../b", out, sizeof(out)), ==, -EINVAL);
	CHECK_INT(bb_cpio_norm_path("/", out, sizeof(out)), ==, -EINVAL);

	struct cpio_list l;
	bb_cpio_list_init(&l);
	CHECK_INT(
	    bb_cpio_add_data(&l, "/usr/../../etc/x", "1", 1, 0644, "--file evil", err, sizeof(err)),
	    ==, -EINVAL);
	CHECK_CONTAINS(err, "'/usr/../../etc/x' (from --file evil)");
	CHECK_CONTAINS(err, "escapes the image root");
	CHECK_INT(bb_cpio_add_slink(&l, "/lib/x", "../../etc", "test", err, sizeof(err)), ==,
	          -EINVAL);
	CHECK_CONTAINS(err, "symlink /lib/x -> ../../etc (from test) points outside");
	CHECK_INT(bb_cpio_add_slink(&l, "/lib/x", "../etc/y", "test", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_slink(&l, "/lib64/ld", "/lib/ld.so", "test", err, sizeof(err)), ==,
	          0);
	bb_cpio_list_free(&l);
}

TEST(duplicates_merge_when_identical_and_fail_when_different)
{
	struct cpio_list l;
	bb_cpio_list_init(&l);
	CHECK_INT(bb_cpio_add_data(&l, "/etc/x", "same", 4, 0644, "first", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_add_data(&l, "etc/x", "same", 4, 0644, "second", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, 0);
	CHECK(bb_cpio_find(&l, "etc/x"));
	CHECK_INT(l.n, ==, 2);
	CHECK_INT(bb_cpio_add_data(&l, "/etc/x", "other", 5, 0644, "--file b", err, sizeof(err)),
	          ==, 0);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "duplicate path /etc/x with different content");
	CHECK_CONTAINS(err, "from first");
	CHECK_CONTAINS(err, "from --file b");
	bb_cpio_list_free(&l);

	bb_cpio_list_init(&l);
	CHECK_INT(bb_cpio_add_data(&l, "/bin/sh", "script", 6, 0755, "--file sh", err, sizeof(err)),
	          ==, 0);
	CHECK_INT(bb_cpio_add_slink(&l, "/bin/sh", "/bin/busybox", "applet", err, sizeof(err)), ==,
	          0);
	bb_cpio_last_weak(&l);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_find(&l, "bin/sh")->type, ==, CPIO_FILE); /* the weak link yields */

	CHECK_INT(bb_cpio_add_slink(&l, "/bin/sh", "/bin/busybox", "other", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "duplicate path /bin/sh: file 0755 from --file sh, symlink 0777");
	bb_cpio_list_free(&l);

	bb_cpio_list_init(&l);
	CHECK_INT(bb_cpio_add_data(&l, "/lib", "x", 1, 0644, "a file", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_data(&l, "/lib/libc.so", "y", 1, 0644, "a lib", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "/lib/libc.so (from a lib) is inside /lib, which is a file");
	bb_cpio_list_free(&l);
}

TEST(tree_copy_keeps_files_dirs_and_symlinks)
{
	const char *dir = test_tmpdir();
	char src[4096], lnk[4096];
	test_write_file(dir, "t/a/one", "1");
	test_write_file(dir, "t/two", "2");
	snprintf(src, sizeof(src), "%s/t", dir);
	snprintf(lnk, sizeof(lnk), "%s/t/a/link", dir);
	CHECK_INT(symlink("../two", lnk), ==, 0);
	struct cpio_list l;
	bb_cpio_list_init(&l);
	CHECK_INT(bb_cpio_add_tree(&l, "/opt/t", src, "--file t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, 0);
	CHECK_INT(l.n, ==, 6);
	CHECK_STR(bb_cpio_find(&l, "opt/t/a/link")->target, "../two");
	CHECK_INT(bb_cpio_find(&l, "opt/t/two")->size, ==, 1);
	bb_cpio_list_free(&l);
}

TEST(entries_below_a_symlink_go_where_it_points)
{
	const char *dir = test_tmpdir();
	struct cpio_list l;
	char path[4096], cmd[8192], *out;
	bb_cpio_list_init(&l);
	/* a merged-/usr layout: /lib -> usr/lib, /lib64 -> /usr/lib64 */
	CHECK_INT(bb_cpio_add_slink(&l, "/lib", "usr/lib", "sysroot", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_slink(&l, "/lib64", "/usr/lib64", "sysroot", err, sizeof(err)), ==,
	          0);
	CHECK_INT(bb_cpio_add_data(&l, "/lib/modules/6.1/a.ko", "ko", 2, 0644, "module", err,
	                           sizeof(err)),
	          ==, 0);
	CHECK_INT(bb_cpio_add_data(&l, "/lib64/ld.so", "ld", 2, 0755, "interp", err, sizeof(err)),
	          ==, 0);
	CHECK_INT(bb_cpio_add_data(&l, "/usr/lib/modules/6.1/a.ko", "ko", 2, 0644, "same", err,
	                           sizeof(err)),
	          ==, 0);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, 0);
	CHECK(bb_cpio_find(&l, "usr/lib/modules/6.1/a.ko"));
	CHECK(bb_cpio_find(&l, "usr/lib64/ld.so"));
	CHECK(!bb_cpio_find(&l, "lib/modules"));
	CHECK_INT(bb_cpio_find(&l, "lib")->type, ==, CPIO_SLINK);
	snprintf(path, sizeof(path), "%s/a.cpio", dir);
	write_archive(&l, 0, path);
	snprintf(cmd, sizeof(cmd),
	         "mkdir %s/x && cd %s/x && cpio -idm --quiet < %s && cat lib/modules/6.1/a.ko "
	         "usr/lib64/ld.so",
	         dir, dir, path);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK_STR(out, "kold");
	free(out);
	bb_cpio_list_free(&l);

	bb_cpio_list_init(&l);
	CHECK_INT(bb_cpio_add_slink(&l, "/a", "b", "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_slink(&l, "/b", "a", "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_add_data(&l, "/a/x", "x", 1, 0644, "t", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "loop");
	bb_cpio_list_free(&l);
}
