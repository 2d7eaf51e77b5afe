/*
 * Module closure, checked against `modprobe --show-depends -S VERSION -d ROOT` on the same
 * tree staged by depmod -b (Debian's kernel package has no modules.dep).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "host/image/image.h"
#include "host/image/kmods.h"

static char err[4096];

/* The sysroot's single lib/modules/VERSION. */
static const char *moddir(void)
{
	static char dir[PATH_MAX];
	char s[PATH_MAX], e[512];
	char cmd[PATH_MAX + 64], *out;
	if (bb_image_default_sysroot(s, sizeof(s), e, sizeof(e)) || access(s, F_OK))
		SKIP("no sysroot (run make fetch)");
	snprintf(cmd, sizeof(cmd), "ls -d %s/lib/modules/*/", s);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK(strchr(out, '\n') == out + strlen(out) - 1);
	out[strlen(out) - 2] = 0; /* "/\n" */
	snprintf(dir, sizeof(dir), "%s", out);
	free(out);
	return dir;
}

static void open_cached(struct kmods *k, const char *dir)
{
	char cache[PATH_MAX];
	bb_image_default_cachedir(cache, sizeof(cache));
	int rc = bb_kmods_open(k, dir, cache, err, sizeof(err));
	if (rc)
		bb_test_fail(__FILE__, __LINE__, "kmods_open: %s", err);
}

/* modprobe's insmod lines for name, as paths relative to the modules directory. */
static char *modprobe_view(const struct kmods *k, const char *name)
{
	char root[PATH_MAX], cmd[3 * PATH_MAX], *out, *save, *line;
	snprintf(root, sizeof(root), "%s", k->staged);
	char *cut = strstr(root, "/lib/modules/");
	CHECK(cut);
	*cut = 0;
	snprintf(cmd, sizeof(cmd), "modprobe --show-depends -S %s -d %s %s", k->version, root,
	         name);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	size_t cap = strlen(out) + 1, len = 0;
	char *view = calloc(1, cap);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char path[PATH_MAX];
		if (sscanf(line, "insmod %4095s", path) != 1)
			continue;
		char marker[PATH_MAX];
		snprintf(marker, sizeof(marker), "/lib/modules/%s/", k->version);
		const char *rel = strstr(path, marker);
		CHECK(rel);
		rel += strlen(marker);
		len += (size_t)snprintf(view + len, cap - len, "%s\n", rel);
	}
	free(out);
	return view;
}

static char *our_view(const struct kmods *k)
{
	size_t cap = 1;
	for (size_t i = 0; i < k->n; i++)
		cap += strlen(k->v[i].image_path) + 1;
	char *view = calloc(1, cap);
	size_t len = 0, prefix = strlen("/lib/modules/") + strlen(k->version) + 1;
	for (size_t i = 0; i < k->n; i++)
		len += (size_t)snprintf(view + len, cap - len, "%s\n", k->v[i].image_path + prefix);
	return view;
}

TEST(closure_and_order_match_modprobe_show_depends)
{
	const char *dir = moddir();
	const char *names[] = {"sctp", "virtio_blk", "ext4", "dummy"};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		struct kmods k;
		open_cached(&k, dir);
		int rc = bb_kmods_add(&k, names[i], err, sizeof(err));
		if (rc)
			bb_test_fail(__FILE__, __LINE__, "%s: %s", names[i], err);
		char *want = modprobe_view(&k, names[i]);
		char *got = our_view(&k);
		if (strcmp(want, got))
			bb_test_fail(__FILE__, __LINE__, "%s: modprobe:\n%sus:\n%s", names[i], want,
			             got);
		CHECK(strlen(got) > 0);
		free(want);
		free(got);
		bb_kmods_close(&k);
	}
}

TEST(sctp_needs_tunnels_libcrc32c_and_crc32c_softdep)
{
	struct kmods k;
	open_cached(&k, moddir());
	CHECK_INT(bb_kmods_add(&k, "sctp", err, sizeof(err)), ==, 0);
	char *got = our_view(&k);
	CHECK_CONTAINS(got, "kernel/net/ipv4/udp_tunnel.ko\n");
	CHECK_CONTAINS(got, "kernel/net/ipv6/ip6_udp_tunnel.ko\n");
	CHECK_CONTAINS(got, "kernel/crypto/crc32c_generic.ko\n");
	/* the softdep comes before libcrc32c, which comes before sctp, which is last */
	CHECK(strstr(got, "crc32c_generic.ko") < strstr(got, "libcrc32c.ko"));
	CHECK(strstr(got, "libcrc32c.ko") < strstr(got, "sctp.ko"));
	CHECK_STR(k.v[k.n - 1].name, "sctp");
	free(got);
	bb_kmods_close(&k);
}

TEST(several_modules_share_dependencies_once)
{
	struct kmods k;
	open_cached(&k, moddir());
	CHECK_INT(bb_kmods_add(&k, "sctp", err, sizeof(err)), ==, 0);
	size_t after_sctp = k.n;
	CHECK_INT(bb_kmods_add(&k, "ext4", err, sizeof(err)), ==, 0);
	CHECK_INT(bb_kmods_add(&k, "sctp", err, sizeof(err)), ==, 0);
	for (size_t i = 0; i < k.n; i++)
		for (size_t j = i + 1; j < k.n; j++)
			CHECK(strcmp(k.v[i].name, k.v[j].name));
	/* crc32c modules are shared: ext4 adds only what sctp did not */
	CHECK_INT(k.n, >, after_sctp);
	CHECK_STR(k.v[k.n - 1].name, "ext4");
	bb_kmods_close(&k);
}

TEST(unknown_module_suggests_close_names)
{
	struct kmods k;
	open_cached(&k, moddir());
	CHECK_INT(bb_kmods_add(&k, "sctpp", err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "unknown module 'sctpp' for kernel ");
	CHECK_CONTAINS(err, "did you mean sctp");
	CHECK_INT(bb_kmods_add(&k, "virtio-blkk", err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "virtio_blk");
	CHECK_INT(bb_kmods_add(&k, "zzqqxx", err, sizeof(err)), ==, -EINVAL);
	CHECK(!strstr(err, "did you mean"));
	/* dashes and underscores are the same module, as for modprobe */
	CHECK_INT(bb_kmods_add(&k, "virtio-blk", err, sizeof(err)), ==, 0);
	CHECK_STR(k.v[k.n - 1].name, "virtio_blk");
	bb_kmods_close(&k);
}

TEST(builtin_modules_are_skipped)
{
	const char *dir = moddir();
	char cmd[PATH_MAX + 64], *out;
	snprintf(cmd, sizeof(cmd), "head -n1 %s/modules.builtin", dir);
	CHECK_INT(test_run(cmd, &out), ==, 0);
	char *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
	*strstr(base, ".ko") = 0;
	struct kmods k;
	open_cached(&k, dir);
	int rc = bb_kmods_add(&k, base, err, sizeof(err));
	if (rc)
		bb_test_fail(__FILE__, __LINE__, "builtin %s: %s", base, err);
	CHECK_INT(k.n, ==, 0);
	free(out);
	bb_kmods_close(&k);
}

/*
 * A small modules tree with .ko.xz and .ko.zst files (the sctp closure recompressed):
 * depmod runs on a temporary staged copy, the image gets the plain .ko bytes back.
 */
TEST(compressed_modules_are_decompressed)
{
	const char *dir = moddir();
	struct kmods real;
	open_cached(&real, dir);
	CHECK_INT(bb_kmods_add(&real, "sctp", err, sizeof(err)), ==, 0);
	char fake[PATH_MAX], cmd[4 * PATH_MAX];
	snprintf(fake, sizeof(fake), "%s/lib/modules/9.9.9-test", test_tmpdir());
	snprintf(cmd, sizeof(cmd),
	         "mkdir -p %s && cp %s/modules.builtin %s/modules.builtin.modinfo %s/", fake, dir,
	         dir, fake);
	CHECK_INT(test_run(cmd, NULL), ==, 0);
	for (size_t i = 0; i < real.n; i++) {
		const char *rel =
		    real.v[i].image_path + strlen("/lib/modules/") + strlen(real.version) + 1;
		const char *tool = i % 2 ? "xz --check=crc32 -c" : "zstd -q -c";
		const char *ext = i % 2 ? ".xz" : ".zst";
		snprintf(cmd, sizeof(cmd),
		         "mkdir -p $(dirname %s/%s) && %s %s > %s/%s%s && echo %s%s >> "
		         "%s/modules.order",
		         fake, rel, tool, real.v[i].src, fake, rel, ext, rel, ext, fake);
		CHECK_INT(test_run(cmd, NULL), ==, 0);
	}
	struct kmods k;
	int rc = bb_kmods_open(&k, fake, NULL, err, sizeof(err));
	if (rc)
		bb_test_fail(__FILE__, __LINE__, "kmods_open: %s", err);
	CHECK_INT(bb_kmods_add(&k, "sctp", err, sizeof(err)), ==, 0);
	CHECK_INT(k.n, ==, real.n);
	int xz = 0, zst = 0;
	for (size_t i = 0; i < k.n; i++) {
		unsigned char *a, *b;
		size_t alen, blen;
		xz += strstr(k.v[i].src, ".ko.xz") != NULL;
		zst += strstr(k.v[i].src, ".ko.zst") != NULL;
		CHECK(!strcmp(k.v[i].image_path + strlen(k.v[i].image_path) - 3, ".ko"));
		size_t j = 0;
		while (j < real.n && strcmp(real.v[j].name, k.v[i].name))
			j++;
		CHECK_INT(j, <, real.n);
		CHECK_INT(bb_kmods_read(k.v[i].src, &a, &alen, err, sizeof(err)), ==, 0);
		CHECK_INT(bb_kmods_read(real.v[j].src, &b, &blen, err, sizeof(err)), ==, 0);
		CHECK_INT(alen, ==, blen);
		CHECK(!memcmp(a, b, alen));
		free(a);
		free(b);
	}
	CHECK(xz > 0 && zst > 0);
	char staged_root[PATH_MAX];
	snprintf(staged_root, sizeof(staged_root), "%s", k.tmproot);
	bb_kmods_close(&k);
	CHECK(access(staged_root, F_OK) != 0); /* the temporary staging is gone */
	CHECK(access(fake, F_OK) == 0);        /* and the modules it linked to are not */
	bb_kmods_close(&real);
}

TEST(a_tree_with_modules_dep_is_used_as_is)
{
	struct kmods staged, k;
	open_cached(&staged, moddir());
	int rc = bb_kmods_open(&k, staged.staged, NULL, err, sizeof(err));
	if (rc)
		bb_test_fail(__FILE__, __LINE__, "kmods_open: %s", err);
	CHECK_STR(k.staged, staged.staged);
	CHECK(k.tmproot == NULL);
	CHECK_INT(bb_kmods_add(&k, "dummy", err, sizeof(err)), ==, 0);
	CHECK_INT(k.n, ==, 1);
	bb_kmods_close(&k);
	bb_kmods_close(&staged);
}

TEST(modules_order_lists_image_paths_in_load_order)
{
	struct kmods k;
	struct cpio_list l;
	open_cached(&k, moddir());
	CHECK_INT(bb_kmods_add(&k, "sctp", err, sizeof(err)), ==, 0);
	bb_cpio_list_init(&l);
	CHECK_INT(bb_kmods_to_cpio(&k, &l, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_cpio_finish(&l, err, sizeof(err)), ==, 0);
	const struct cpio_entry *e = bb_cpio_find(&l, "etc/benchboot/modules.order");
	CHECK(e);
	char *text = strndup((const char *)e->data, e->size);
	char expect[PATH_MAX];
	snprintf(expect, sizeof(expect), "/lib/modules/%s/kernel/net/sctp/sctp.ko\n", k.version);
	CHECK(strlen(text) >= strlen(expect));
	CHECK_STR(text + strlen(text) - strlen(expect), expect);
	snprintf(expect, sizeof(expect), "lib/modules/%s/kernel/net/sctp/sctp.ko", k.version);
	CHECK(bb_cpio_find(&l, expect));
	free(text);
	bb_cpio_list_free(&l);
	bb_kmods_close(&k);
}
