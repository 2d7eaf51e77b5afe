/*
 * ELF closure, checked against the real loader: `ldd` on host binaries (sysroot = /), and the
 * sysroot's own ld.so (--list --inhibit-cache --library-path) for netperf and stress-ng.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "host/image/elfdeps.h"
#include "host/image/image.h"

static char err[4096];

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, newline-joined. */
static char *join_sorted(char **v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_str);
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	char *s = calloc(1, len);
	for (size_t i = 0; i < n; i++) {
		strcat(s, v[i]);
		strcat(s, "\n");
	}
	return s;
}

/*
 * "NAME REALPATH" lines from loader output ("name => path (addr)" or "/interp (addr)"), the
 * sysroot prefix removed. Names without a path (vdso) are skipped.
 */
static char *loader_view(const char *cmd, const char *sysroot)
{
	char *out, *save, *line;
	char *v[512];
	size_t n = 0;
	CHECK_INT(test_run(cmd, &out), ==, 0);
	CHECK(!strstr(out, "not found"));
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[PATH_MAX], path[PATH_MAX], real[PATH_MAX];
		if (sscanf(line, " %4095s => %4095s", name, path) == 2) {
		} else if (sscanf(line, " %4095s", name) == 1 && name[0] == '/') {
			strcpy(path, name);
		} else {
			continue;
		}
		CHECK(realpath(path, real));
		size_t sl = strlen(sysroot);
		const char *rel = real;
		if (sl && !strncmp(real, sysroot, sl))
			rel = real + sl;
		CHECK_INT(n, <, 512);
		CHECK(asprintf(&v[n++], "%s %s", name, rel) > 0);
	}
	free(out);
	return join_sorted(v, n);
}

/* Lines of a that are not in b, for messages. */
static char *missing_lines(const char *a, const char *b)
{
	char *copy = strdup(a), *save, *line, *out = calloc(1, strlen(a) + 1);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char needle[PATH_MAX + 2];
		snprintf(needle, sizeof(needle), "\n%s\n", line);
		if (strncmp(b, needle + 1, strlen(needle + 1)) && !strstr(b, needle)) {
			strcat(out, line);
			strcat(out, "; ");
		}
	}
	free(copy);
	return out;
}

static char *our_view(const struct elfdeps *d, int host_realpath)
{
	char *v[512];
	size_t n = 0;
	for (size_t i = 0; i < d->nfound; i++) {
		char real[PATH_MAX];
		const char *r = d->found[i].real;
		if (host_realpath) {
			CHECK(realpath(d->found[i].real, real));
			r = real;
		}
		CHECK_INT(n, <, 512);
		CHECK(asprintf(&v[n++], "%s %s", d->found[i].name, r) > 0);
	}
	return join_sorted(v, n);
}

static const char *sysroot(void)
{
	static char s[PATH_MAX];
	char e[512];
	if (bb_image_default_sysroot(s, sizeof(s), e, sizeof(e)) || access(s, F_OK))
		SKIP("no sysroot (run make fetch)");
	return s;
}

/* Where the sysroot's glibc lives: /lib/x86_64-linux-gnu (Debian 12) or, from a merged-/usr
 * suite, /usr/lib/x86_64-linux-gnu. No leading slash. */
static const char *glibc_dir(const char *s)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%.4000s/usr/lib/x86_64-linux-gnu/libc.so.6", s);
	return access(p, F_OK) ? "lib/x86_64-linux-gnu" : "usr/lib/x86_64-linux-gnu";
}

TEST(host_binaries_match_ldd)
{
	const char *bins[] = {"/usr/bin/qemu-system-x86_64", "/usr/bin/cpio", "/usr/sbin/depmod",
	                      "/usr/bin/python3", "/bin/ls"};
	int tested = 0;
	for (size_t i = 0; i < sizeof(bins) / sizeof(*bins); i++) {
		char cmd[PATH_MAX + 16];
		if (access(bins[i], X_OK))
			continue;
		struct elfdeps d;
		CHECK_INT(bb_elfdeps_init(&d, "/", err, sizeof(err)), ==, 0);
		int is_elf = 0;
		int rc = bb_elfdeps_add(&d, bins[i], bins[i], &is_elf, err, sizeof(err));
		if (rc)
			bb_test_fail(__FILE__, __LINE__, "%s: %s", bins[i], err);
		CHECK(is_elf);
		snprintf(cmd, sizeof(cmd), "ldd %s", bins[i]);
		char *want = loader_view(cmd, "");
		char *got = our_view(&d, 1);
		if (strcmp(want, got))
			bb_test_fail(__FILE__, __LINE__, "%s: only ldd: %s only us: %s", bins[i],
			             missing_lines(want, got), missing_lines(got, want));
		free(want);
		free(got);
		bb_elfdeps_free(&d);
		tested++;
	}
	CHECK_INT(tested, >=, 2);
}

static void check_sysroot_binary(const char *s, const char *src, const char *image_path)
{
	char cmd[3 * PATH_MAX];
	struct elfdeps d;
	CHECK_INT(bb_elfdeps_init(&d, s, err, sizeof(err)), ==, 0);
	int rc = bb_elfdeps_add(&d, src, image_path, NULL, err, sizeof(err));
	if (rc)
		bb_test_fail(__FILE__, __LINE__, "%s: %s", src, err);
	snprintf(cmd, sizeof(cmd),
	         "%s/%s/ld-linux-x86-64.so.2 --inhibit-cache --library-path "
	         "%s/lib/x86_64-linux-gnu:%s/usr/lib/x86_64-linux-gnu --list %s",
	         s, glibc_dir(s), s, s, src);
	char *want = loader_view(cmd, s);
	char *got = our_view(&d, 0);
	if (strcmp(want, got))
		bb_test_fail(__FILE__, __LINE__, "%s: only ld.so: %s only us: %s", src,
		             missing_lines(want, got), missing_lines(got, want));
	/* everything found is a file or a symlink inside the sysroot */
	for (size_t i = 0; i < d.nfiles; i++)
		if (d.files[i].src)
			CHECK(!strncmp(d.files[i].src, s, strlen(s)));
	free(want);
	free(got);
	bb_elfdeps_free(&d);
}

TEST(netperf_closure_matches_sysroot_loader)
{
	const char *s = sysroot();
	const char *top = getenv("BB_TOP") ? getenv("BB_TOP") : ".";
	char src[PATH_MAX];
	snprintf(src, sizeof(src), "%s/build/netperf/netperf", top);
	if (access(src, F_OK))
		SKIP("build/netperf/netperf not built (make netperf)");
	check_sysroot_binary(s, src, "/usr/bin/netperf");
}

TEST(stress_ng_closure_matches_sysroot_loader)
{
	const char *s = sysroot();
	char src[PATH_MAX];
	snprintf(src, sizeof(src), "%.4000s/usr/bin/stress-ng", s);
	check_sysroot_binary(s, src, "/usr/bin/stress-ng");
}

TEST(interpreter_symlink_is_kept_for_the_image)
{
	const char *s = sysroot();
	char src[PATH_MAX];
	snprintf(src, sizeof(src), "%.4000s/usr/bin/stress-ng", s);
	struct elfdeps d;
	CHECK_INT(bb_elfdeps_init(&d, s, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_elfdeps_add(&d, src, "/usr/bin/stress-ng", NULL, err, sizeof(err)), ==, 0);
	int link = 0, file = 0;
	char real[PATH_MAX];
	snprintf(real, sizeof(real), "/%s/ld-linux-x86-64.so.2", glibc_dir(s));
	for (size_t i = 0; i < d.nfiles; i++) {
		/* Debian 12's absolute link, or the relative one fetch makes for a merged-/usr
		 * glibc */
		if (!strcmp(d.files[i].path, "/lib64/ld-linux-x86-64.so.2") && d.files[i].target)
			link = !strcmp(d.files[i].target, real) ||
			       !strcmp(d.files[i].target,
			               "../usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
		if (!strcmp(d.files[i].path, real))
			file = d.files[i].src != NULL;
	}
	CHECK(link);
	CHECK(file);
	bb_elfdeps_free(&d);
}

/* A fake sysroot with the sysroot's libc, libm and ld.so (copies, not links). */
static const char *fake_sysroot(const char *s)
{
	static char root[PATH_MAX];
	char cmd[16 * PATH_MAX];
	CHECK(strlen(test_tmpdir()) < PATH_MAX - 8);
	snprintf(root, sizeof(root), "%.4000s/root", test_tmpdir());
	snprintf(cmd, sizeof(cmd),
	         "mkdir -p %s/lib/x86_64-linux-gnu %s/lib64 %s/usr/bin && "
	         "cp %s/%s/libc.so.6 %s/%s/libm.so.6 "
	         "%s/%s/ld-linux-x86-64.so.2 %s/lib/x86_64-linux-gnu/ && "
	         "ln -s /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 %s/lib64/",
	         root, root, root, s, glibc_dir(s), s, glibc_dir(s), s, glibc_dir(s), root, root);
	CHECK_INT(test_run(cmd, NULL), ==, 0);
	return root;
}

TEST(missing_library_names_it_and_the_binary)
{
	const char *s = sysroot();
	const char *top = getenv("BB_TOP") ? getenv("BB_TOP") : ".";
	char src[PATH_MAX];
	snprintf(src, sizeof(src), "%s/build/netperf/netperf", top);
	if (access(src, F_OK))
		SKIP("build/netperf/netperf not built (make netperf)");
	const char *root = fake_sysroot(s);
	struct elfdeps d;
	CHECK_INT(bb_elfdeps_init(&d, root, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_elfdeps_add(&d, src, "/usr/bin/netperf", NULL, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "library libsctp.so.1 needed by /usr/bin/netperf not found in");
	CHECK_CONTAINS(err, root);
	bb_elfdeps_free(&d);
}

/*
 * $ORIGIN and the two search-path flavours, with glibc's rules: a DT_RPATH of the executable
 * also serves the libraries it loads; a DT_RUNPATH serves only its own object.
 */
TEST(rpath_runpath_and_origin)
{
	const char *s = sysroot();
	const char *root = fake_sysroot(s);
	char cmd[16 * PATH_MAX];
	const char *dir = test_tmpdir();
	test_write_file(dir, "bar.c", "int bar(void) { return 1; }\n");
	test_write_file(dir, "foo.c", "int bar(void); int foo(void) { return bar(); }\n");
	test_write_file(dir, "main.c", "int foo(void); int main(void) { return foo(); }\n");
	snprintf(cmd, sizeof(cmd),
	         "cd %s && mkdir -p %s/opt/app/bin %s/opt/app/lib && "
	         "gcc -shared -fPIC -Wl,-soname,libbar.so.1 -o %s/opt/app/lib/libbar.so.1 bar.c && "
	         "gcc -shared -fPIC -Wl,-soname,libfoo.so.1 -o %s/opt/app/lib/libfoo.so.1 foo.c "
	         "%s/opt/app/lib/libbar.so.1 && "
	         "gcc -o %s/opt/app/bin/rpath main.c %s/opt/app/lib/libfoo.so.1 "
	         "-Wl,--disable-new-dtags,-rpath,'$ORIGIN/../lib' && "
	         "gcc -o %s/opt/app/bin/runpath main.c %s/opt/app/lib/libfoo.so.1 "
	         "-Wl,--enable-new-dtags,-rpath,'${ORIGIN}/../lib' 2>&1",
	         dir, root, root, root, root, root, root, root, root, root);
	char *out;
	if (test_run(cmd, &out))
		bb_test_fail(__FILE__, __LINE__, "building the fixture failed: %s", out);
	free(out);

	struct elfdeps d;
	char src[PATH_MAX];
	snprintf(src, sizeof(src), "%s/opt/app/bin/rpath", root);
	CHECK_INT(bb_elfdeps_init(&d, root, err, sizeof(err)), ==, 0);
	int rc = bb_elfdeps_add(&d, src, "/opt/app/bin/rpath", NULL, err, sizeof(err));
	if (rc)
		bb_test_fail(__FILE__, __LINE__, "rpath: %s", err);
	char *got = our_view(&d, 0);
	CHECK_CONTAINS(got, "libbar.so.1 /opt/app/lib/libbar.so.1\n");
	CHECK_CONTAINS(got, "libfoo.so.1 /opt/app/lib/libfoo.so.1\n");
	CHECK_CONTAINS(got, "libc.so.6 /lib/x86_64-linux-gnu/libc.so.6\n");
	free(got);
	bb_elfdeps_free(&d);

	snprintf(src, sizeof(src), "%s/opt/app/bin/runpath", root);
	CHECK_INT(bb_elfdeps_init(&d, root, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_elfdeps_add(&d, src, "/opt/app/bin/runpath", NULL, err, sizeof(err)), ==,
	          -EINVAL);
	CHECK_CONTAINS(err, "library libbar.so.1 needed by /opt/app/bin/../lib/libfoo.so.1");
	bb_elfdeps_free(&d);

	/* the real loader agrees on both */
	snprintf(cmd, sizeof(cmd),
	         "%s/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --inhibit-cache --library-path "
	         "%s/lib/x86_64-linux-gnu --list %s/opt/app/bin/rpath | grep -c 'libbar.so.1 => "
	         "%s/opt/app/bin/../lib/libbar.so.1'; "
	         "%s/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --inhibit-cache --library-path "
	         "%s/lib/x86_64-linux-gnu --list %s/opt/app/bin/runpath 2>&1 | grep -c "
	         "'libbar.so.1: cannot open'",
	         root, root, root, root, root, root, root);
	test_run(cmd, &out);
	CHECK_STR(out, "1\n1\n");
	free(out);
}

TEST(not_elf_adds_nothing)
{
	struct elfdeps d;
	const char *script = test_write_file(test_tmpdir(), "init", "#!/bin/sh\necho hi\n");
	CHECK_INT(bb_elfdeps_init(&d, "/", err, sizeof(err)), ==, 0);
	int is_elf = 1;
	CHECK_INT(bb_elfdeps_add(&d, script, "/init", &is_elf, err, sizeof(err)), ==, 0);
	CHECK_INT(is_elf, ==, 0);
	CHECK_INT(d.nfiles, ==, 0);
	bb_elfdeps_free(&d);
}

TEST(static_busybox_needs_nothing_as_ldd_says)
{
	const char *s = sysroot();
	char src[PATH_MAX], cmd[PATH_MAX + 32], *out;
	snprintf(src, sizeof(src), "%.4000s/bin/busybox", s);
	snprintf(cmd, sizeof(cmd), "ldd %s 2>&1", src);
	test_run(cmd, &out);
	CHECK_CONTAINS(out, "not a dynamic executable");
	free(out);
	struct elfdeps d;
	int is_elf = 0;
	CHECK_INT(bb_elfdeps_init(&d, s, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_elfdeps_add(&d, src, "/bin/busybox", &is_elf, err, sizeof(err)), ==, 0);
	CHECK(is_elf);
	CHECK_INT(d.nfound, ==, 0);
	CHECK_INT(d.nfiles, ==, 0);
	bb_elfdeps_free(&d);
}

/* The loader's view: no section headers needed; a truncated file is refused, not misread. */
TEST(stripped_section_headers_and_truncated_files)
{
	const char *s = sysroot();
	const char *top = getenv("BB_TOP") ? getenv("BB_TOP") : ".";
	char src[PATH_MAX], cmd[3 * PATH_MAX];
	snprintf(src, sizeof(src), "%s/build/netperf/netperf", top);
	if (access(src, F_OK))
		SKIP("build/netperf/netperf not built (make netperf)");
	const char *dir = test_tmpdir();
	/* no section headers: e_shoff, e_shnum, e_shstrndx zeroed (ELF64 offsets) */
	snprintf(
	    cmd, sizeof(cmd),
	    "cp %s %s/nosec && printf '\\0\\0\\0\\0\\0\\0\\0\\0' | dd of=%s/nosec bs=1 seek=40 "
	    "conv=notrunc status=none && printf '\\0\\0\\0\\0' | dd of=%s/nosec bs=1 seek=60 "
	    "conv=notrunc status=none && readelf -S %s/nosec 2>&1 | grep -q 'no sections' && "
	    "head -c 100000 %s > %s/trunc",
	    src, dir, dir, dir, dir, src, dir);
	CHECK_INT(test_run(cmd, NULL), ==, 0);
	struct elfdeps d;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/nosec", dir);
	CHECK_INT(bb_elfdeps_init(&d, s, err, sizeof(err)), ==, 0);
	int rc = bb_elfdeps_add(&d, path, "/usr/bin/netperf", NULL, err, sizeof(err));
	if (rc)
		bb_test_fail(__FILE__, __LINE__, "%s", err);
	char *got = our_view(&d, 0);
	char interp[PATH_MAX];
	snprintf(interp, sizeof(interp), "/lib64/ld-linux-x86-64.so.2 /%s/ld-linux-x86-64.so.2\n",
	         glibc_dir(s));
	CHECK_CONTAINS(got, "libsctp.so.1 /usr/lib/x86_64-linux-gnu/libsctp.so.1.0.");
	CHECK_CONTAINS(got, interp);
	free(got);
	bb_elfdeps_free(&d);
	snprintf(path, sizeof(path), "%s/trunc", dir);
	CHECK_INT(bb_elfdeps_init(&d, s, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_elfdeps_add(&d, path, "/usr/bin/netperf", NULL, err, sizeof(err)), ==,
	          -EINVAL);
	CHECK_CONTAINS(err, "truncated ELF file");
	bb_elfdeps_free(&d);
}
