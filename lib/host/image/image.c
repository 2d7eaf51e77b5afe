/* The image builder; see image.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/strbuf.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/runtool.h"
#include "host/image/cpio.h"
#include "host/image/elfdeps.h"
#include "host/image/image.h"
#include "host/image/kmods.h"
#include "host/image/manifest.h"

void bb_image_default_cachedir(char *out, size_t outlen)
{
	const char *c = getenv("BENCHBOOT_CACHE");
	if (c && *c) {
		bb_strfmt(out, outlen, "%s", c);
		return;
	}
	const char *home = getenv("HOME");
	bb_strfmt(out, outlen, "%s/.cache/benchboot", home && *home ? home : "/root");
}

static int exe_dir(char *out, size_t outlen)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -errno;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = 0;
	return bb_strfmt(out, outlen, "%s", exe);
}

int bb_image_find_data(const char *rel, char *out, size_t outlen)
{
	char dir[PATH_MAX];
	const char *top = getenv("BB_TOP");
	if (top && *top && !bb_strfmt(out, outlen, "%s/%s", top, rel) && access(out, F_OK) == 0)
		return 0;
	if (exe_dir(dir, sizeof(dir)) == 0 && !bb_strfmt(out, outlen, "%s/../%s", dir, rel) &&
	    access(out, F_OK) == 0)
		return 0;
	if (!bb_strfmt(out, outlen, "%s", rel) && access(out, F_OK) == 0)
		return 0;
	return -ENOENT;
}

int bb_image_default_sysroot(char *out, size_t outlen, char *err, size_t errlen)
{
	const char *s = getenv("SYSROOT");
	if (s && *s)
		return bb_strfmt(out, outlen, "%s", s)
		           ? bb_errbuf_fail(err, errlen, -EINVAL, "$SYSROOT is too long")
		           : 0;
	char lock[PATH_MAX], hex[SHA256_HEX_LEN + 1], cache[PATH_MAX];
	if (bb_image_find_data("config/inputs.lock", lock, sizeof(lock)) < 0)
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "no sysroot: $SYSROOT is not set and config/inputs.lock was not found "
		    "(give --sysroot DIR)");
	if (bb_sha256_file_hex(lock, hex) < 0)
		return bb_errbuf_fail(err, errlen, -errno, "unable to read %s: %s", lock,
		                      strerror(errno));
	hex[16] = 0;
	bb_image_default_cachedir(cache, sizeof(cache));
	if (bb_strfmt(out, outlen, "%s/sysroot/%s", cache, hex))
		return bb_errbuf_fail(err, errlen, -EINVAL, "sysroot path too long");
	return 0;
}

static int valid_name(const char *s)
{
	if (!s || !*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._+-", *s)))
			return 0;
	return 1;
}

/* The single file matching a glob, for the sysroot's kernel and modules directory. */
static int single_match(const char *pattern, const char *what, char *out, size_t outlen, char *err,
                        size_t errlen)
{
	glob_t g;
	int r = glob(pattern, 0, NULL, &g);
	if (r == GLOB_NOMATCH)
		return bb_errbuf_fail(err, errlen, -EINVAL, "no %s: nothing matches %s", what,
		                      pattern);
	if (r)
		return bb_errbuf_fail(err, errlen, -EIO, "glob %s failed", pattern);
	int rc = 0;
	if (g.gl_pathc > 1)
		rc = bb_errbuf_fail(err, errlen, -EINVAL,
		                    "%zu candidates for the %s (%s and %s, ...): "
		                    "choose one",
		                    g.gl_pathc, what, g.gl_pathv[0], g.gl_pathv[1]);
	else if (bb_strfmt(out, outlen, "%s", g.gl_pathv[0]))
		rc = bb_errbuf_fail(err, errlen, -EINVAL, "path too long: %s", g.gl_pathv[0]);
	globfree(&g);
	return rc;
}

/* Run argv, collecting its stdout; a tool that ends with a status other than 0 is -EIO. */
static int run_capture(char *const argv[], struct bytebuf *out, char *err, size_t errlen)
{
	struct bb_tool t = {.argv = argv, .out = BB_TOOL_CAPTURE, .captured = out};
	int status, rc = bb_tool_run(&t, &status, err, errlen);
	if (!rc && (!WIFEXITED(status) || WEXITSTATUS(status)))
		rc = bb_errbuf_fail(err, errlen, -EIO, "%s %s failed (status %d)", argv[0], argv[1],
		                    status);
	return rc;
}

/* BusyBox and one weak symlink per applet, at the paths `busybox --list-full` gives. */
static int add_busybox(struct cpio_list *l, struct elfdeps *ed, const char *sysroot, char *err,
                       size_t errlen)
{
	char real[PATH_MAX], src[PATH_MAX * 2];
	if (bb_elfdeps_resolve(ed, "/bin/busybox", real, sizeof(real)) < 0)
		return bb_errbuf_fail(err, errlen, -EINVAL, "--busybox: %s/bin/busybox: %s",
		                      sysroot, strerror(errno));
	bb_strfmt(src, sizeof(src), "%s%s", ed->sysroot, real);
	int rc = bb_cpio_add_file(l, "/bin/busybox", src, 0755, "--busybox", err, errlen);
	if (!rc)
		rc = bb_elfdeps_add(ed, src, "/bin/busybox", NULL, err, errlen);
	if (rc)
		return rc;
	struct bytebuf list = {0};
	char *argv[] = {src, "--list-full", NULL};
	rc = run_capture(argv, &list, err, errlen);
	if (!rc && bb_bytebuf_append(&list, "", 1))
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	char *save = NULL;
	for (char *line = rc ? NULL : strtok_r((char *)list.p, "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!*line || !strcmp(line, "bin/busybox"))
			continue;
		rc = bb_cpio_add_slink(l, line, "/bin/busybox", "busybox applet", err, errlen);
		bb_cpio_last_weak(l);
	}
	bb_bytebuf_free(&list);
	return rc;
}

static int add_binary(struct cpio_list *l, struct elfdeps *ed, const struct image_pair *b,
                      char *err, size_t errlen)
{
	char real[PATH_MAX], src[PATH_MAX * 2], dest[PATH_MAX * 2], origin[PATH_MAX + 16];
	struct stat st;
	char inroot[PATH_MAX * 2];

	bb_strfmt(origin, sizeof(origin), "--binary %s", b->src);
	bb_strfmt(inroot, sizeof(inroot), "/%s", b->src);
	if (ed->sysroot[0] && bb_elfdeps_resolve(ed, inroot, real, sizeof(real)) == 0 &&
	    !bb_strfmt(src, sizeof(src), "%s%s", ed->sysroot, real) && stat(src, &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		bb_strfmt(dest, sizeof(dest), "%s", b->dest ? b->dest : inroot);
	} else if (stat(b->src, &st) == 0 && S_ISREG(st.st_mode)) {
		const char *base = strrchr(b->src, '/') ? strrchr(b->src, '/') + 1 : b->src;
		bb_strfmt(src, sizeof(src), "%s", b->src);
		if (b->dest)
			bb_strfmt(dest, sizeof(dest), "%s", b->dest);
		else
			bb_strfmt(dest, sizeof(dest), "/usr/bin/%s", base);
	} else {
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "--binary %s: no such file in the sysroot (%s) nor on the host", b->src,
		    ed->sysroot[0] ? ed->sysroot : "/");
	}
	char norm[PATH_MAX];
	if (bb_cpio_norm_path(dest, norm + 1, sizeof(norm) - 1))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "--binary %s: destination %s escapes the image root", b->src,
		                      dest);
	norm[0] = '/';
	int rc = bb_cpio_add_file(l, norm, src, 0755, origin, err, errlen);
	if (!rc)
		rc = bb_elfdeps_add(ed, src, norm, NULL, err, errlen);
	return rc;
}

static int add_file_arg(struct cpio_list *l, const struct image_pair *f, char *err, size_t errlen)
{
	char origin[PATH_MAX + 16];
	struct stat st;
	bb_strfmt(origin, sizeof(origin), "--file %s", f->src);
	if (!f->dest || !*f->dest)
		return bb_errbuf_fail(err, errlen, -EINVAL, "--file %s: no destination (SRC:DEST)",
		                      f->src);
	if (stat(f->src, &st) < 0)
		return bb_errbuf_fail(err, errlen, -EINVAL, "--file %s: %s", f->src,
		                      strerror(errno));
	if (S_ISDIR(st.st_mode))
		return bb_cpio_add_tree(l, f->dest, f->src, origin, err, errlen);
	return bb_cpio_add_file(l, f->dest, f->src, 0, origin, err, errlen);
}

static int dest_is(const char *dest, const char *want)
{
	char norm[PATH_MAX];
	return dest && bb_cpio_norm_path(dest, norm, sizeof(norm)) == 0 && !strcmp(norm, want);
}

static int write_out(const char *dir, const char *name, const void *data, size_t len, char *err,
                     size_t errlen)
{
	char path[PATH_MAX * 2];
	bb_strfmt(path, sizeof(path), "%s/%s", dir, name);
	int r =
	    bb_fileio_write_file(path, data, len); /* a tmp file per process: concurrent builds */
	return r ? bb_errbuf_fail(err, errlen, r, "unable to write %s: %s", path, strerror(-r)) : 0;
}

/* The release a bzImage was built as (the setup header's kernel_version string), or "". */
static void kernel_release(const char *path, char *out, size_t outlen)
{
	unsigned char hdr[0x210];
	char buf[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	out[0] = 0;
	if (fd < 0)
		return;
	if (pread(fd, hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr) &&
	    !memcmp(hdr + 0x202, "HdrS", 4)) {
		unsigned off = hdr[0x20e] | (unsigned)hdr[0x20f] << 8;
		ssize_t n = off ? pread(fd, buf, sizeof(buf) - 1, off + 0x200) : -1;
		if (n > 0) {
			buf[n] = 0;
			bb_strfmt(out, outlen, "%.*s", (int)strcspn(buf, " "), buf);
		}
	}
	close(fd);
}

int bb_image_epoch(uint32_t *mtime, char *err, size_t errlen)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	if (!sde || !*sde) {
		*mtime = IMAGE_DEFAULT_MTIME;
		return 0;
	}
	char *end;
	errno = 0;
	unsigned long long v = strtoull(sde, &end, 10);
	if (errno || *end || sde[0] == '-' || v > 0xffffffffull)
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "SOURCE_DATE_EPOCH='%s' is not a number of seconds (0..4294967295)", sde);
	*mtime = (uint32_t)v;
	return 0;
}

static int build_mtime(const struct image_spec *spec, uint32_t *mtime, char *err, size_t errlen)
{
	if (spec->have_mtime) {
		*mtime = spec->mtime;
		return 0;
	}
	return bb_image_epoch(mtime, err, errlen);
}

/* The fixed skeleton: mount points and the two device nodes the kernel and init need. */
static int add_skeleton(struct cpio_list *l, char *err, size_t errlen)
{
	static const struct {
		const char *path;
		unsigned mode;
	} dirs[] = {{"/proc", 0555}, {"/sys", 0555}, {"/dev", 0755},          {"/tmp", 01777},
	            {"/run", 0755},  {"/etc", 0755}, {"/etc/benchboot", 0755}};
	int rc = 0;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs) && !rc; i++)
		rc = bb_cpio_add_dir(l, dirs[i].path, dirs[i].mode, "image skeleton", err, errlen);
	if (!rc)
		rc = bb_cpio_add_nod(l, "/dev/console", 0600, 'c', 5, 1, "image skeleton", err,
		                     errlen);
	if (!rc)
		rc =
		    bb_cpio_add_nod(l, "/dev/null", 0666, 'c', 1, 3, "image skeleton", err, errlen);
	return rc;
}

static int add_rootfs(struct cpio_list *l, const char *rootfs, char *err, size_t errlen)
{
	size_t first = l->n;
	int rc = bb_cpio_add_tree(l, "/", rootfs, "rootfs", err, errlen);
	/* Files of rootfs/ are defaults: an explicit --file at the same path replaces them. */
	for (size_t i = first; i < l->n; i++)
		l->v[i].weak = 1;
	return rc;
}

/* The paths an image is made from, resolved from the spec and the defaults. */
struct build_paths {
	char sysroot[PATH_MAX], kernel[PATH_MAX], cachedir[PATH_MAX], rootfs[PATH_MAX];
};

static int resolve_paths(const struct image_spec *spec, struct build_paths *p, char *err,
                         size_t errlen)
{
	char pattern[PATH_MAX * 2];
	struct stat st;
	int rc;
	if (spec->sysroot)
		bb_strfmt(p->sysroot, sizeof(p->sysroot), "%s", spec->sysroot);
	else if ((rc = bb_image_default_sysroot(p->sysroot, sizeof(p->sysroot), err, errlen)))
		return rc;
	if (stat(p->sysroot, &st) < 0 || !S_ISDIR(st.st_mode))
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "sysroot %s is not a directory (run `make fetch`, or give --sysroot)",
		    p->sysroot);
	if (spec->cachedir)
		bb_strfmt(p->cachedir, sizeof(p->cachedir), "%s", spec->cachedir);
	else
		bb_image_default_cachedir(p->cachedir, sizeof(p->cachedir));
	if (spec->kernel) {
		bb_strfmt(p->kernel, sizeof(p->kernel), "%s", spec->kernel);
	} else {
		bb_strfmt(pattern, sizeof(pattern), "%s/boot/vmlinuz-*", p->sysroot);
		if ((rc = single_match(pattern, "kernel (--kernel)", p->kernel, sizeof(p->kernel),
		                       err, errlen)))
			return rc;
	}
	if (stat(p->kernel, &st) < 0)
		return bb_errbuf_fail(err, errlen, -EINVAL, "kernel %s: %s", p->kernel,
		                      strerror(errno));
	if (!S_ISREG(st.st_mode))
		return bb_errbuf_fail(err, errlen, -EINVAL, "kernel %s is not a file", p->kernel);
	if (spec->rootfs)
		bb_strfmt(p->rootfs, sizeof(p->rootfs), "%s", spec->rootfs);
	else if (bb_image_find_data("rootfs", p->rootfs, sizeof(p->rootfs)) < 0)
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "rootfs/ of the benchboot tree not found");
	return 0;
}

/* /init: --init, else the build's own init beside this binary (unless a file or binary is
 * placed at /init), else none. */
static int add_init(struct cpio_list *l, const struct image_spec *spec, char *err, size_t errlen)
{
	char init[PATH_MAX] = "", origin[PATH_MAX + 16];
	int init_given = 0;
	for (size_t i = 0; i < spec->nfiles; i++)
		init_given |= dest_is(spec->files[i].dest, "init");
	for (size_t i = 0; i < spec->nbinaries; i++)
		init_given |= dest_is(spec->binaries[i].dest, "init");
	if (spec->init && *spec->init) {
		bb_strfmt(init, sizeof(init), "%s", spec->init);
	} else if (!spec->init && !init_given) {
		char dir[PATH_MAX];
		if (!(exe_dir(dir, sizeof(dir)) == 0 &&
		      !bb_strfmt(init, sizeof(init), "%s/init", dir) && access(init, R_OK) == 0) &&
		    bb_image_find_data("build/init", init, sizeof(init)) < 0)
			init[0] = 0;
	}
	if (!init[0])
		return 0;
	bb_strfmt(origin, sizeof(origin), "--init %s", init);
	return bb_cpio_add_file(l, "/init", init, 0755, origin, err, errlen);
}

/* The modules the spec names and their dependencies, from a directory of the kernel's own
 * release (modules of another release would not load: "Invalid module format"). */
static int add_modules(struct kmods *km, const struct image_spec *spec, const struct build_paths *p,
                       char *err, size_t errlen)
{
	char moddir[PATH_MAX], pattern[PATH_MAX * 2], release[256], version[PATH_MAX];
	int rc;
	if (!spec->nmodules)
		return 0;
	if (spec->modules_dir) {
		bb_strfmt(moddir, sizeof(moddir), "%s", spec->modules_dir);
	} else {
		bb_strfmt(pattern, sizeof(pattern), "%s/lib/modules/*", p->sysroot);
		if ((rc = single_match(pattern, "modules directory (--modules-dir)", moddir,
		                       sizeof(moddir), err, errlen)))
			return rc;
	}
	kernel_release(p->kernel, release, sizeof(release));
	bb_strfmt(version, sizeof(version), "%s", moddir);
	while (strlen(version) > 1 && version[strlen(version) - 1] == '/')
		version[strlen(version) - 1] = 0;
	const char *base = strrchr(version, '/') ? strrchr(version, '/') + 1 : version;
	if (release[0] && strcmp(release, base))
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "kernel %s is release %s but the modules directory %s is for %s "
		    "(--kernel, --modules-dir)",
		    p->kernel, release, moddir, base);
	if ((rc = bb_kmods_open(km, moddir, p->cachedir, err, errlen)))
		return rc;
	for (size_t i = 0; i < spec->nmodules; i++)
		if ((rc = bb_kmods_add(km, spec->modules[i], err, errlen)))
			return rc;
	return 0;
}

/* The manifest describes every entry; it then goes in itself, with the image id. */
static int add_manifest(struct cpio_list *l, const struct image_spec *spec, const char *kernel,
                        const char *cmdline, uint32_t mtime, struct bytebuf *manifest,
                        struct image_result *res, char *err, size_t errlen)
{
	char how[256], early[SHA256_HEX_LEN + 1] = "", idline[SHA256_HEX_LEN + 2];
	int rc;
	if (spec->early_cpio && bb_sha256_file_hex(spec->early_cpio, early) < 0)
		return bb_errbuf_fail(err, errlen, errno == ENOENT ? -EINVAL : -errno,
		                      "unable to read early cpio %s: %s", spec->early_cpio,
		                      strerror(errno));
	bb_strfmt(how, sizeof(how), "mtime=%u compress=%s level=%d%s%s", mtime,
	          bb_compress_name(spec->compress),
	          spec->level ? spec->level : bb_compress_default_level(spec->compress),
	          early[0] ? " early-cpio=" : "", early);
	if ((rc = bb_cpio_finish(l, err, errlen)) ||
	    (rc = bb_manifest_build(l, kernel, cmdline, how, manifest, res->id, err, errlen)))
		return rc;
	bb_strfmt(idline, sizeof(idline), "%s\n", res->id);
	if ((rc = bb_cpio_add_data(l, MANIFEST_PATH, manifest->p, manifest->len, 0644, "manifest",
	                           err, errlen)) ||
	    (rc = bb_cpio_add_data(l, MANIFEST_ID_PATH, idline, strlen(idline), 0644, "manifest",
	                           err, errlen)))
		return rc;
	return bb_cpio_finish(l, err, errlen);
}

/* OUTDIR/NAME/{vmlinuz, initrd.img, manifest, cmdline}. */
static int write_image_dir(const struct image_spec *spec, const char *kernel, const char *cmdline,
                           const struct bytebuf *initrd, const struct bytebuf *manifest,
                           struct image_result *res, char *err, size_t errlen)
{
	unsigned char *kdata;
	size_t klen;
	char cmdline_nl[8192];
	int rc;
	if (bb_strfmt(res->dir, sizeof(res->dir), "%s/%s", spec->outdir ? spec->outdir : "images",
	              spec->name))
		return bb_errbuf_fail(err, errlen, -ENAMETOOLONG, "the output path is too long");
	if ((rc = bb_fileio_mkdirs(res->dir)))
		return bb_errbuf_fail(err, errlen, rc, "unable to create %s: %s", res->dir,
		                      strerror(-rc));
	if (bb_strfmt(cmdline_nl, sizeof(cmdline_nl), "%s\n", cmdline))
		return bb_errbuf_fail(err, errlen, -EINVAL, "the kernel command line is too long");
	if ((rc = bb_fileio_read_all(kernel, &kdata, &klen)))
		return bb_errbuf_fail(err, errlen, rc, "unable to read kernel %s: %s", kernel,
		                      strerror(-rc));
	rc = write_out(res->dir, "vmlinuz", kdata, klen, err, errlen);
	free(kdata);
	if (!rc)
		rc = write_out(res->dir, "initrd.img", initrd->p, initrd->len, err, errlen);
	if (!rc)
		rc = write_out(res->dir, "manifest", manifest->p, manifest->len, err, errlen);
	if (!rc)
		rc = write_out(res->dir, "cmdline", cmdline_nl, strlen(cmdline_nl), err, errlen);
	return rc;
}

int bb_image_build(const struct image_spec *spec, struct image_result *res, char *err,
                   size_t errlen)
{
	struct build_paths p;
	struct cpio_list l;
	struct elfdeps ed;
	struct kmods km;
	struct bytebuf manifest = {0}, archive = {0}, initrd = {0};
	const char *cmdline = spec->cmdline ? spec->cmdline : IMAGE_DEFAULT_CMDLINE;
	uint32_t mtime = 0;
	int rc;

	memset(res, 0, sizeof(*res));
	bb_cpio_list_init(&l);
	memset(&ed, 0, sizeof(ed));
	memset(&km, 0, sizeof(km));
	if (!valid_name(spec->name))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "image name '%s' must be made of letters, digits and ._+-",
		                      spec->name ? spec->name : "");
	if ((rc = build_mtime(spec, &mtime, err, errlen)) ||
	    (rc = resolve_paths(spec, &p, err, errlen)))
		return rc;

	if ((rc = bb_elfdeps_init(&ed, p.sysroot, err, errlen)) ||
	    (rc = add_skeleton(&l, err, errlen)) || (rc = add_rootfs(&l, p.rootfs, err, errlen)))
		goto out;
	if (spec->busybox && (rc = add_busybox(&l, &ed, p.sysroot, err, errlen)))
		goto out;
	for (size_t i = 0; i < spec->nbinaries; i++)
		if ((rc = add_binary(&l, &ed, &spec->binaries[i], err, errlen)))
			goto out;
	for (size_t i = 0; i < spec->nfiles; i++)
		if ((rc = add_file_arg(&l, &spec->files[i], err, errlen)))
			goto out;
	if ((rc = add_init(&l, spec, err, errlen)))
		goto out;
	if (spec->plan && (rc = bb_cpio_add_file(&l, "/etc/benchboot/plan", spec->plan, 0644,
	                                         "--plan", err, errlen)))
		goto out;
	if ((rc = add_modules(&km, spec, &p, err, errlen)) ||
	    (rc = bb_kmods_to_cpio(&km, &l, err, errlen)))
		goto out;
	res->nmodules = km.n;
	if ((rc = bb_elfdeps_to_cpio(&ed, &l, err, errlen)) ||
	    (rc = add_manifest(&l, spec, p.kernel, cmdline, mtime, &manifest, res, err, errlen)))
		goto out;
	res->nentries = l.n;

	if ((rc = bb_cpio_write(&l, mtime, &archive, err, errlen)))
		goto out;
	res->cpio_size = archive.len;
	if (spec->early_cpio &&
	    (rc = bb_compress_append_early(&initrd, spec->early_cpio, err, errlen)))
		goto out;
	if ((rc = bb_compress_append(&initrd, archive.p, archive.len, spec->compress, spec->level,
	                             err, errlen)))
		goto out;
	res->initrd_size = initrd.len;
	rc = write_image_dir(spec, p.kernel, cmdline, &initrd, &manifest, res, err, errlen);
out:
	bb_bytebuf_free(&manifest);
	bb_bytebuf_free(&archive);
	bb_bytebuf_free(&initrd);
	bb_kmods_close(&km);
	bb_elfdeps_free(&ed);
	bb_cpio_list_free(&l);
	return rc;
}
