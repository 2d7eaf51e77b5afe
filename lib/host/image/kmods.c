/* Kernel module closure with libkmod; see kmods.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libkmod.h>
#include <limits.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "grow.h"
#include "host/editdist.h"
#include "host/strbuf.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/runtool.h"
#include "host/image/kmods.h"
#include "sha256.h"

static int exists(const char *dir, const char *name)
{
	char p[PATH_MAX];
	bb_strfmt(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

/*
 * The digest that names a cached depmod run: the version, where the tree is, and the name,
 * size and mtime of every file in it.
 */

struct listing {
	char **lines;
	size_t n, cap;
};

static int list_tree(struct listing *ls, const char *root, const char *rel)
{
	char path[PATH_MAX];
	bb_strfmt(path, sizeof(path), "%s%s%s", root, rel[0] ? "/" : "", rel);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *de;
	int rc = 0;
	while (!rc && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char sub[PATH_MAX], full[PATH_MAX];
		bb_strfmt(sub, sizeof(sub), "%s%s%s", rel, rel[0] ? "/" : "", de->d_name);
		bb_strfmt(full, sizeof(full), "%s/%s", root, sub);
		struct stat st;
		if (stat(full, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = list_tree(ls, root, sub);
			continue;
		}
		if (bb_grow(&ls->lines, &ls->cap, ls->n + 1, sizeof(*ls->lines))) {
			rc = -1;
			break;
		}
		if (asprintf(&ls->lines[ls->n], "%s %lld %lld.%09ld\n", sub, (long long)st.st_size,
		             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec) < 0) {
			rc = -1;
			break;
		}
		ls->n++;
	}
	closedir(d);
	return rc;
}

static int strpcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int tree_key(const char *moddir, const char *version, char key[17])
{
	struct listing ls = {0};
	int rc = list_tree(&ls, moddir, "");
	if (!rc) {
		struct sha256 s;
		unsigned char d[32];
		char hex[65];
		qsort(ls.lines, ls.n, sizeof(*ls.lines), strpcmp);
		char real[PATH_MAX];
		bb_sha256_init(&s);
		bb_sha256_update(&s, version, strlen(version) + 1);
		/* the staged copy links to this directory: another place is another cache */
		if (realpath(moddir, real))
			bb_sha256_update(&s, real, strlen(real) + 1);
		for (size_t i = 0; i < ls.n; i++)
			bb_sha256_update(&s, ls.lines[i], strlen(ls.lines[i]));
		bb_sha256_final(&s, d);
		bb_sha256_to_hex(d, hex);
		memcpy(key, hex, 16);
		key[16] = 0;
	}
	for (size_t i = 0; i < ls.n; i++)
		free(ls.lines[i]);
	free(ls.lines);
	return rc;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* Remove a staging tree without following its symlinks into the module tree. */
static void rm_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int run_depmod(const char *root, const char *version, char *err, size_t errlen)
{
	static const char *const dirs[] = {"/usr/sbin", "/sbin", NULL};
	char *argv[] = {"depmod", "-b", (char *)root, (char *)version, NULL};
	struct bb_tool t = {.argv = argv, .dirs = dirs, .out = BB_TOOL_TO_NULL};
	int status, rc = bb_tool_run(&t, &status, err, errlen);
	if (rc == -ENOEXEC)
		return bb_errbuf_fail(err, errlen, -EIO,
		                      "unable to run depmod: not found (install kmod)");
	if (!rc && (!WIFEXITED(status) || WEXITSTATUS(status)))
		rc = bb_errbuf_fail(err, errlen, -EIO, "depmod -b %s %s failed", root, version);
	return rc;
}

/*
 * Stage root/lib/modules/VERSION: a symlink to each subdirectory of moddir, copies of its
 * regular files except depmod's outputs, then depmod -b root.
 */
static int stage(const char *moddir, const char *version, const char *root, char *err,
                 size_t errlen)
{
	char dir[PATH_MAX], real[PATH_MAX];
	if (!realpath(moddir, real))
		return bb_errbuf_fail(err, errlen, -errno, "unable to resolve %s: %s", moddir,
		                      strerror(errno));
	bb_strfmt(dir, sizeof(dir), "%s/lib", root);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		goto out_errno;
	bb_strfmt(dir, sizeof(dir), "%s/lib/modules", root);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		goto out_errno;
	bb_strfmt(dir, sizeof(dir), "%s/lib/modules/%s", root, version);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		goto out_errno;
	DIR *d = opendir(real);
	if (!d)
		goto out_errno;
	struct dirent *de;
	while ((de = readdir(d))) {
		char from[PATH_MAX * 2], to[PATH_MAX * 2];
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		bb_strfmt(from, sizeof(from), "%s/%s", real, de->d_name);
		bb_strfmt(to, sizeof(to), "%s/%s", dir, de->d_name);
		if (stat(from, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!strcmp(de->d_name, "build") || !strcmp(de->d_name, "source"))
				continue;
			if (symlink(from, to) < 0) {
				closedir(d);
				goto out_errno;
			}
		} else if (S_ISREG(st.st_mode) &&
		           (!strcmp(de->d_name, "modules.order") ||
		            !strncmp(de->d_name, "modules.builtin", 15)) &&
		           !strstr(de->d_name, ".bin") &&
		           strcmp(de->d_name, "modules.builtin.alias")) {
			int cr = bb_fileio_copy_file(from, to);
			if (cr) {
				closedir(d);
				errno = -cr;
				goto out_errno;
			}
		}
	}
	closedir(d);
	return run_depmod(root, version, err, errlen);
out_errno:
	return bb_errbuf_fail(err, errlen, -errno, "unable to stage %s in %s: %s", moddir, root,
	                      strerror(errno));
}

int bb_kmods_open(struct kmods *k, const char *moddir, const char *cachedir, char *err,
                  size_t errlen)
{
	memset(k, 0, sizeof(*k));
	struct stat st;
	if (stat(moddir, &st) < 0)
		return bb_errbuf_fail(err, errlen, -EINVAL, "modules directory %s: %s", moddir,
		                      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "modules directory %s is not a directory", moddir);
	char tmp[PATH_MAX];
	bb_strfmt(tmp, sizeof(tmp), "%s", moddir);
	size_t n = strlen(tmp);
	while (n > 1 && tmp[n - 1] == '/')
		tmp[--n] = 0;
	const char *base = strrchr(tmp, '/') ? strrchr(tmp, '/') + 1 : tmp;
	k->version = strdup(base);
	k->moddir = strdup(tmp);
	if (!k->version || !k->moddir)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if (!exists(tmp, "kernel") && !exists(tmp, "modules.order"))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "%s does not look like a modules directory (no kernel/ or "
		                      "modules.order)",
		                      moddir);

	char staged[PATH_MAX * 2];
	int rc;
	if (exists(tmp, "modules.dep.bin") || exists(tmp, "modules.dep")) {
		bb_strfmt(staged, sizeof(staged), "%s", tmp);
	} else if (cachedir) {
		char key[17], final[PATH_MAX], work[PATH_MAX + 32];
		if (tree_key(tmp, k->version, key) < 0)
			return bb_errbuf_fail(err, errlen, -errno, "unable to list %s: %s", tmp,
			                      strerror(errno));
		bb_strfmt(final, sizeof(final), "%s/depmod/%s-%s", cachedir, k->version, key);
		bb_strfmt(staged, sizeof(staged), "%s/lib/modules/%s", final, k->version);
		if (!exists(staged, "modules.dep.bin")) {
			bb_strfmt(work, sizeof(work), "%s/depmod/.tmp-XXXXXX", cachedir);
			char parent[PATH_MAX];
			bb_strfmt(parent, sizeof(parent), "%s/depmod", cachedir);
			if ((rc = bb_fileio_mkdirs(parent)) || (!mkdtemp(work) && (rc = -errno)))
				return bb_errbuf_fail(err, errlen, rc, "unable to create %s: %s",
				                      parent, strerror(-rc));
			rc = stage(tmp, k->version, work, err, errlen);
			if (!rc && rename(work, final) < 0 && errno != ENOTEMPTY && errno != EEXIST)
				rc = bb_errbuf_fail(err, errlen, -errno, "unable to rename %s: %s",
				                    work, strerror(errno));
			if (exists(work, "lib"))
				rm_tree(work); /* lost a race with another build, or failed */
			if (rc)
				return rc;
		}
	} else {
		const char *t = getenv("TMPDIR");
		char wpath[PATH_MAX];
		bb_strfmt(wpath, sizeof(wpath), "%s/benchboot-depmod.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(wpath))
			return bb_errbuf_fail(err, errlen, -errno, "unable to create %s: %s", wpath,
			                      strerror(errno));
		k->tmproot = strdup(wpath);
		if (!k->tmproot)
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		rc = stage(tmp, k->version, wpath, err, errlen);
		if (rc)
			return rc;
		bb_strfmt(staged, sizeof(staged), "%s/lib/modules/%s", wpath, k->version);
	}
	k->staged = strdup(staged);
	if (!k->staged)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");

	/* No configuration from the host: an empty list of config paths. */
	const char *no_config[] = {NULL};
	k->ctx = kmod_new(k->staged, no_config);
	if (!k->ctx)
		return bb_errbuf_fail(err, errlen, -EIO, "libkmod: unable to open %s", k->staged);
	kmod_set_log_priority(k->ctx, 0);
	if (kmod_load_resources(k->ctx) < 0)
		return bb_errbuf_fail(err, errlen, -EIO,
		                      "libkmod: unable to load the indexes of %s", k->staged);
	return 0;
}

void bb_kmods_close(struct kmods *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].name);
		free(k->v[i].src);
		free(k->v[i].image_path);
	}
	free(k->v);
	if (k->ctx)
		kmod_unref(k->ctx);
	if (k->tmproot)
		rm_tree(k->tmproot);
	free(k->tmproot);
	free(k->staged);
	free(k->version);
	free(k->moddir);
	memset(k, 0, sizeof(*k));
}

/* libkmod's print_action has no context pointer: the probe being collected. */
static struct {
	struct kmod_module **mods;
	size_t n, cap;
	int nomem;
} probe;

static void collect(struct kmod_module *m, bool install, const char *options)
{
	if (bb_grow(&probe.mods, &probe.cap, probe.n + 1, sizeof(*probe.mods))) {
		probe.nomem = 1;
		return;
	}
	probe.mods[probe.n++] = kmod_module_ref(m);
}

static void normalise(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

struct suggestion {
	size_t dist;
	char name[128];
};

static void consider(struct suggestion *best, const char *want, const char *cand)
{
	char c[128];
	bb_strfmt(c, sizeof(c), "%s", cand);
	normalise(c);
	size_t d = bb_edit_distance(want, c);
	size_t limit = strlen(want) / 3 + 1;
	if (d > limit && !(strlen(want) >= 3 && strstr(c, want)))
		return;
	if (d > limit)
		d = limit + 1; /* a containing name ranks after the close ones */
	for (int i = 0; i < 3; i++) {
		if (best[i].name[0] && !strcmp(best[i].name, c))
			return;
	}
	for (int i = 0; i < 3; i++) {
		if (!best[i].name[0] || d < best[i].dist ||
		    (d == best[i].dist && strcmp(c, best[i].name) < 0)) {
			for (int j = 2; j > i; j--)
				best[j] = best[j - 1];
			best[i].dist = d;
			bb_strfmt(best[i].name, sizeof(best[i].name), "%s", c);
			return;
		}
	}
}

/* Close names from modules.dep (loadable) and modules.builtin. */
static void suggest(const struct kmods *k, const char *name, char *out, size_t outlen)
{
	struct suggestion best[3] = {{0}};
	char want[128];
	bb_strfmt(want, sizeof(want), "%s", name);
	normalise(want);
	const char *files[] = {"modules.dep", "modules.builtin"};
	for (int f = 0; f < 2; f++) {
		char path[PATH_MAX * 2], line[4096];
		bb_strfmt(path, sizeof(path), "%s/%s", k->staged, files[f]);
		FILE *fp = fopen(path, "re");
		if (!fp)
			continue;
		while (fgets(line, sizeof(line), fp)) {
			char *end = strchr(line, ':');
			if (!end)
				end = strchr(line, '\n');
			if (end)
				*end = 0;
			char *base = strrchr(line, '/') ? strrchr(line, '/') + 1 : line;
			char *dot = strstr(base, ".ko");
			if (dot)
				*dot = 0;
			consider(best, want, base);
		}
		fclose(fp);
	}
	out[0] = 0;
	if (!best[0].name[0])
		return;
	size_t len = (size_t)snprintf(out, outlen, "; did you mean");
	for (int i = 0; i < 3 && best[i].name[0] && len < outlen; i++)
		len +=
		    (size_t)snprintf(out + len, outlen - len, "%s %s", i ? "," : "", best[i].name);
	if (len < outlen)
		bb_strfmt(out + len, outlen - len, "?");
}

static int add_module(struct kmods *k, struct kmod_module *m, char *err, size_t errlen)
{
	const char *name = kmod_module_get_name(m);
	const char *path = kmod_module_get_path(m);
	if (!path)
		return 0; /* builtin: nothing to load */
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].name, name))
			return 0;
	size_t sl = strlen(k->staged);
	if (strncmp(path, k->staged, sl) || path[sl] != '/')
		return bb_errbuf_fail(err, errlen, -EIO, "module %s has an unexpected path %s",
		                      name, path);
	const char *rel = path + sl + 1;
	if (bb_grow(&k->v, &k->cap, k->n + 1, sizeof(*k->v)))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	struct kmods_entry *e = &k->v[k->n];
	memset(e, 0, sizeof(*e));
	e->name = strdup(name);
	if (asprintf(&e->src, "%s/%s", k->moddir, rel) < 0)
		e->src = NULL;
	if (asprintf(&e->image_path, "/lib/modules/%s/%s", k->version, rel) < 0)
		e->image_path = NULL;
	if (!e->name || !e->src || !e->image_path)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	char *ko = strstr(e->image_path, ".ko");
	if (ko && ko[3] == '.')
		ko[3] = 0; /* .ko.xz, .ko.zst, .ko.gz become .ko */
	k->n++;
	return 0;
}

int bb_kmods_add(struct kmods *k, const char *name, char *err, size_t errlen)
{
	struct kmod_list *list = NULL, *l;
	int rc = kmod_module_new_from_lookup(k->ctx, name, &list);
	if (rc < 0)
		return bb_errbuf_fail(err, errlen, rc, "libkmod: lookup of %s failed: %s", name,
		                      strerror(-rc));
	if (!list) {
		char hint[512];
		suggest(k, name, hint, sizeof(hint));
		return bb_errbuf_fail(err, errlen, -EINVAL, "unknown module '%s' for kernel %s%s",
		                      name, k->version, hint);
	}
	rc = 0;
	kmod_list_foreach(l, list)
	{
		struct kmod_module *m = kmod_module_get_module(l);
		probe.n = 0;
		probe.nomem = 0;
		int r = kmod_module_probe_insert_module(
		    m, KMOD_PROBE_DRY_RUN | KMOD_PROBE_IGNORE_LOADED | KMOD_PROBE_IGNORE_COMMAND,
		    NULL, NULL, NULL, collect);
		if (r < 0 && !rc)
			rc = bb_errbuf_fail(err, errlen, r, "libkmod: resolving %s failed: %s",
			                    kmod_module_get_name(m), strerror(-r));
		if (probe.nomem && !rc)
			rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		for (size_t i = 0; i < probe.n; i++) {
			if (!rc)
				rc = add_module(k, probe.mods[i], err, errlen);
			kmod_module_unref(probe.mods[i]);
		}
		probe.n = 0;
		kmod_module_unref(m);
	}
	kmod_module_unref_list(list);
	free(probe.mods);
	probe.mods = NULL;
	probe.cap = 0;
	return rc;
}

static int read_xz(const unsigned char *in, size_t inlen, unsigned char **data, size_t *size)
{
	lzma_stream s = LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return -1;
	size_t cap = inlen * 4 + 65536, len = 0;
	unsigned char *out = malloc(cap);
	if (!out) {
		lzma_end(&s);
		return -1;
	}
	s.next_in = in;
	s.avail_in = inlen;
	lzma_ret r;
	do {
		if (bb_grow(&out, &cap, len + 1, 1))
			break;
		s.next_out = out + len;
		s.avail_out = cap - len;
		r = lzma_code(&s, LZMA_FINISH);
		len = cap - s.avail_out;
	} while (r == LZMA_OK);
	lzma_end(&s);
	if (r != LZMA_STREAM_END) {
		free(out);
		return -1;
	}
	*data = out;
	*size = len;
	return 0;
}

static int read_zstd(const unsigned char *in, size_t inlen, unsigned char **data, size_t *size)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	if (!z)
		return -1;
	size_t cap = inlen * 4 + 65536, ret = 1;
	unsigned char *out = malloc(cap);
	ZSTD_inBuffer ib = {in, inlen, 0};
	ZSTD_outBuffer ob = {out, cap, 0};
	while (out && ib.pos < ib.size) {
		if (ob.pos == ob.size) {
			if (bb_grow(&out, &cap, cap + 1, 1))
				break;
			ob.dst = out;
			ob.size = cap;
		}
		ret = ZSTD_decompressStream(z, &ob, &ib);
		if (ZSTD_isError(ret))
			break;
	}
	ZSTD_freeDStream(z);
	if (!out || ZSTD_isError(ret) || ib.pos < ib.size || ret != 0) {
		free(out);
		return -1;
	}
	*data = out;
	*size = ob.pos;
	return 0;
}

static int read_gz(const unsigned char *in, size_t inlen, unsigned char **data, size_t *size)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -1;
	size_t cap = inlen * 4 + 65536, len = 0;
	unsigned char *out = malloc(cap);
	int r = Z_BUF_ERROR;
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)inlen;
	while (out) {
		if (bb_grow(&out, &cap, len + 1, 1))
			break;
		z.next_out = out + len;
		z.avail_out = (uInt)(cap - len);
		r = inflate(&z, Z_NO_FLUSH);
		len = cap - z.avail_out;
		if (r != Z_OK)
			break;
	}
	inflateEnd(&z);
	if (r != Z_STREAM_END) {
		free(out);
		return -1;
	}
	*data = out;
	*size = len;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

int bb_kmods_read(const char *src, unsigned char **data, size_t *size, char *err, size_t errlen)
{
	unsigned char *raw;
	size_t rawlen;
	int rr = bb_fileio_read_all(src, &raw, &rawlen);
	if (rr)
		return bb_errbuf_fail(err, errlen, rr, "unable to read module %s: %s", src,
		                      strerror(-rr));
	int (*decode)(const unsigned char *, size_t, unsigned char **, size_t *) = NULL;
	if (ends_with(src, ".ko.xz"))
		decode = read_xz;
	else if (ends_with(src, ".ko.zst"))
		decode = read_zstd;
	else if (ends_with(src, ".ko.gz"))
		decode = read_gz;
	if (!decode) {
		*data = raw;
		*size = rawlen;
		return 0;
	}
	int rc = decode(raw, rawlen, data, size);
	free(raw);
	if (rc < 0)
		return bb_errbuf_fail(err, errlen, -EINVAL, "unable to decompress module %s", src);
	return 0;
}

int bb_kmods_to_cpio(const struct kmods *k, struct cpio_list *l, char *err, size_t errlen)
{
	struct bytebuf order = {0};
	int rc = 0;
	for (size_t i = 0; i < k->n && !rc; i++) {
		unsigned char *data;
		size_t size;
		char origin[PATH_MAX + 16];
		rc = bb_kmods_read(k->v[i].src, &data, &size, err, errlen);
		if (rc)
			break;
		bb_strfmt(origin, sizeof(origin), "module %s", k->v[i].src);
		rc = bb_cpio_add_data(l, k->v[i].image_path, data, size, 0644, origin, err, errlen);
		free(data);
		if (!rc &&
		    (bb_bytebuf_append(&order, k->v[i].image_path, strlen(k->v[i].image_path)) ||
		     bb_bytebuf_append(&order, "\n", 1)))
			rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	if (!rc)
		rc = bb_cpio_add_data(l, "/etc/benchboot/modules.order",
		                      order.p ? order.p : (void *)"", order.len, 0644,
		                      "module load order", err, errlen);
	bb_bytebuf_free(&order);
	return rc;
}
