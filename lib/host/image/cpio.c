/* Deterministic newc cpio writer; see cpio.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "host/strbuf.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/image/cpio.h"
#include "sha256.h"

/* gen_init_cpio starts counting here too; any fixed start keeps images reproducible. */
#define CPIO_FIRST_INO 721

void bb_cpio_list_init(struct cpio_list *l)
{
	memset(l, 0, sizeof(*l));
}

static void entry_free(struct cpio_entry *e)
{
	free(e->path);
	free(e->data);
	free(e->target);
	free(e->origin);
}

void bb_cpio_list_free(struct cpio_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		entry_free(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int bb_cpio_norm_path(const char *in, char *out, size_t outlen)
{
	size_t len = 0;
	const char *p = in;

	if (!outlen)
		return -ENAMETOOLONG;
	out[0] = 0;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == 1 && p[0] == '.') {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (len == 0)
				return -EINVAL;
			char *slash = strrchr(out, '/');
			len = slash ? (size_t)(slash - out) : 0;
			out[len] = 0;
		} else {
			if (len + n + 2 > outlen)
				return -ENAMETOOLONG;
			if (len)
				out[len++] = '/';
			memcpy(out + len, p, n);
			len += n;
			out[len] = 0;
		}
		p += n;
	}
	return len ? 0 : -EINVAL;
}

static struct cpio_entry *new_entry(struct cpio_list *l, const char *path, enum cpio_type type,
                                    const char *origin, char *err, size_t errlen, int *rc)
{
	char norm[PATH_MAX];

	*rc = 0;
	if (!path || bb_cpio_norm_path(path, norm, sizeof(norm))) {
		*rc = bb_errbuf_fail(err, errlen, -EINVAL,
		                     "image path '%s' (from %s) is empty or escapes the image root",
		                     path ? path : "", origin);
		return NULL;
	}
	if (bb_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)))
		goto out_nomem;
	struct cpio_entry *e = &l->v[l->n];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->path = strdup(norm);
	e->origin = strdup(origin ? origin : "?");
	if (!e->path || !e->origin) {
		entry_free(e);
		goto out_nomem;
	}
	e->seq = l->n;
	l->n++;
	l->finished = 0;
	return e;
out_nomem:
	*rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	return NULL;
}

void bb_cpio_last_weak(struct cpio_list *l)
{
	if (l->n)
		l->v[l->n - 1].weak = 1;
}

/* Add a file entry that takes ownership of data (malloc'd). */
static int add_data_owned(struct cpio_list *l, const char *path, unsigned char *data, size_t size,
                          unsigned mode, const char *origin, char *err, size_t errlen)
{
	int rc;
	struct cpio_entry *e = new_entry(l, path, CPIO_FILE, origin, err, errlen, &rc);
	if (!e) {
		free(data);
		return rc;
	}
	e->mode = mode & 07777;
	e->size = size;
	e->data = data;
	struct sha256 s;
	bb_sha256_init(&s);
	bb_sha256_update(&s, data, size);
	bb_sha256_final(&s, e->sha);
	return 0;
}

int bb_cpio_add_data(struct cpio_list *l, const char *path, const void *data, size_t size,
                     unsigned mode, const char *origin, char *err, size_t errlen)
{
	unsigned char *copy = malloc(size ? size : 1);
	if (!copy)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if (size)
		memcpy(copy, data, size);
	return add_data_owned(l, path, copy, size, mode, origin, err, errlen);
}

int bb_cpio_add_file(struct cpio_list *l, const char *path, const char *src, unsigned mode,
                     const char *origin, char *err, size_t errlen)
{
	struct stat st;
	unsigned char *data;
	size_t size;

	if (stat(src, &st) < 0)
		return bb_errbuf_fail(err, errlen, errno == ENOENT ? -EINVAL : -errno,
		                      "unable to read %s (%s): %s", src, origin, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return bb_errbuf_fail(err, errlen, -EINVAL, "%s (%s) is not a regular file", src,
		                      origin);
	int rr = bb_fileio_read_all(src, &data, &size);
	if (rr)
		return bb_errbuf_fail(err, errlen, rr, "unable to read %s (%s): %s", src, origin,
		                      strerror(-rr));
	if (!mode)
		mode = (st.st_mode & 0111) ? 0755 : 0644;
	int rc = add_data_owned(l, path, data, size, mode, origin, err, errlen);
	if (rc)
		return rc;
	l->v[l->n - 1].src_dev = st.st_dev;
	l->v[l->n - 1].src_ino = st.st_ino;
	return 0;
}

int bb_cpio_add_dir(struct cpio_list *l, const char *path, unsigned mode, const char *origin,
                    char *err, size_t errlen)
{
	int rc;
	struct cpio_entry *e = new_entry(l, path, CPIO_DIR, origin, err, errlen, &rc);
	if (!e)
		return rc;
	e->mode = mode & 07777;
	return 0;
}

/* A relative target is resolved from the link's directory; it must stay inside the image. */
static int target_escapes(const char *linkpath, const char *target)
{
	if (target[0] == '/')
		return 0;
	int depth = 0;
	for (const char *p = linkpath; *p; p++)
		depth += *p == '/';
	for (const char *p = target; *p;) {
		while (*p == '/')
			p++;
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return 1;
		} else if (n && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
	}
	return 0;
}

int bb_cpio_add_slink(struct cpio_list *l, const char *path, const char *target, const char *origin,
                      char *err, size_t errlen)
{
	int rc;
	if (!target || !*target)
		return bb_errbuf_fail(err, errlen, -EINVAL, "symlink %s (%s) has an empty target",
		                      path, origin);
	struct cpio_entry *e = new_entry(l, path, CPIO_SLINK, origin, err, errlen, &rc);
	if (!e)
		return rc;
	e->mode = 0777;
	if (target_escapes(e->path, target)) {
		rc = bb_errbuf_fail(err, errlen, -EINVAL,
		                    "symlink /%s -> %s (from %s) points outside the image root",
		                    e->path, target, origin);
		l->n--;
		entry_free(e);
		return rc;
	}
	e->target = strdup(target);
	if (!e->target)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	e->size = strlen(target);
	struct sha256 s;
	bb_sha256_init(&s);
	bb_sha256_update(&s, target, e->size);
	bb_sha256_final(&s, e->sha);
	return 0;
}

int bb_cpio_add_nod(struct cpio_list *l, const char *path, unsigned mode, char nodtype,
                    unsigned rmajor, unsigned rminor, const char *origin, char *err, size_t errlen)
{
	int rc;
	if (nodtype != 'c' && nodtype != 'b')
		return bb_errbuf_fail(err, errlen, -EINVAL, "device %s (%s): type must be c or b",
		                      path, origin);
	struct cpio_entry *e = new_entry(l, path, CPIO_NOD, origin, err, errlen, &rc);
	if (!e)
		return rc;
	e->mode = mode & 07777;
	e->nodtype = nodtype;
	e->rmajor = rmajor;
	e->rminor = rminor;
	return 0;
}

static int namecmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int bb_cpio_add_tree(struct cpio_list *l, const char *path, const char *srcdir, const char *origin,
                     char *err, size_t errlen)
{
	DIR *d = opendir(srcdir);
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct dirent *de;

	if (!d)
		return bb_errbuf_fail(err, errlen, errno == ENOENT ? -EINVAL : -errno,
		                      "unable to open directory %s (%s): %s", srcdir, origin,
		                      strerror(errno));
	/* The image root itself has no entry. */
	char norm[PATH_MAX];
	if (bb_cpio_norm_path(path, norm, sizeof(norm)) == 0)
		rc = bb_cpio_add_dir(l, path, 0755, origin, err, errlen);
	while (!rc && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (bb_grow(&names, &cap, n + 1, sizeof(*names))) {
			rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
			break;
		}
		if (!(names[n++] = strdup(de->d_name)))
			rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof(*names), namecmp);
	for (size_t i = 0; i < n && !rc; i++) {
		char src[PATH_MAX], dst[PATH_MAX];
		struct stat st;
		bb_strfmt(src, sizeof(src), "%s/%s", srcdir, names[i]);
		bb_strfmt(dst, sizeof(dst), "%s/%s", path, names[i]);
		if (lstat(src, &st) < 0) {
			rc = bb_errbuf_fail(err, errlen, -errno, "unable to stat %s: %s", src,
			                    strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			rc = bb_cpio_add_tree(l, dst, src, origin, err, errlen);
		} else if (S_ISREG(st.st_mode)) {
			rc = bb_cpio_add_file(l, dst, src, 0, origin, err, errlen);
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t tn = readlink(src, target, sizeof(target) - 1);
			if (tn < 0) {
				rc = bb_errbuf_fail(err, errlen, -errno,
				                    "unable to read link %s: %s", src,
				                    strerror(errno));
			} else {
				target[tn] = 0;
				rc = bb_cpio_add_slink(l, dst, target, origin, err, errlen);
			}
		} else {
			rc = bb_errbuf_fail(
			    err, errlen, -EINVAL,
			    "%s (%s): only files, directories and symlinks can be copied", src,
			    origin);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct cpio_entry *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int same_entry(const struct cpio_entry *a, const struct cpio_entry *b)
{
	if (a->type != b->type || a->mode != b->mode)
		return 0;
	switch (a->type) {
	case CPIO_FILE:
	case CPIO_SLINK:
		return a->size == b->size && !memcmp(a->sha, b->sha, sizeof(a->sha));
	case CPIO_NOD:
		return a->nodtype == b->nodtype && a->rmajor == b->rmajor && a->rminor == b->rminor;
	case CPIO_DIR:
		return 1;
	}
	return 0;
}

static const char *type_name(enum cpio_type t)
{
	static const char *names[] = {"file", "directory", "symlink", "device"};
	return names[t];
}

/* Add a weak directory entry for every parent that has no entry of its own. */
static int add_parents(struct cpio_list *l, char *err, size_t errlen)
{
	size_t n = l->n;
	for (size_t i = 0; i < n; i++) {
		char parent[PATH_MAX];
		bb_strfmt(parent, sizeof(parent), "%s", l->v[i].path);
		char *slash;
		while ((slash = strrchr(parent, '/'))) {
			*slash = 0;
			int rc = bb_cpio_add_dir(l, parent, 0755, "parent directory", err, errlen);
			if (rc)
				return rc;
			bb_cpio_last_weak(l);
		}
	}
	return 0;
}

static int hardlink_cmp(const void *a, const void *b)
{
	const struct cpio_entry *x = *(struct cpio_entry *const *)a,
	                        *y = *(struct cpio_entry *const *)b;
	if (x->src_dev != y->src_dev)
		return x->src_dev < y->src_dev ? -1 : 1;
	if (x->src_ino != y->src_ino)
		return x->src_ino < y->src_ino ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int slink_cmp(const void *a, const void *b)
{
	return strcmp((*(struct cpio_entry *const *)a)->path,
	              (*(struct cpio_entry *const *)b)->path);
}

/*
 * Entries below a symlink go where the link points, as they would when the archive is
 * unpacked: with /lib -> usr/lib (a merged-/usr sysroot), lib/modules/... becomes
 * usr/lib/modules/.... Repeated until no entry is below a symlink (or too many rounds).
 */
static int follow_parent_links(struct cpio_list *l, char *err, size_t errlen)
{
	for (int round = 0; round < 16; round++) {
		struct cpio_entry **links = NULL;
		size_t nlinks = 0, changed = 0;
		for (size_t i = 0; i < l->n; i++)
			nlinks += l->v[i].type == CPIO_SLINK;
		if (!nlinks)
			return 0;
		links = malloc(nlinks * sizeof(*links));
		if (!links)
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		nlinks = 0;
		for (size_t i = 0; i < l->n; i++)
			if (l->v[i].type == CPIO_SLINK)
				links[nlinks++] = &l->v[i];
		qsort(links, nlinks, sizeof(*links), slink_cmp);
		for (size_t i = 0; i < l->n; i++) {
			struct cpio_entry *e = &l->v[i];
			char prefix[PATH_MAX];
			for (char *slash = strchr(e->path, '/'); slash;
			     slash = strchr(slash + 1, '/')) {
				bb_strfmt(prefix, sizeof(prefix), "%.*s", (int)(slash - e->path),
				          e->path);
				struct cpio_entry key = {.path = prefix}, *kp = &key;
				struct cpio_entry **hit =
				    bsearch(&kp, links, nlinks, sizeof(*links), slink_cmp);
				if (!hit)
					continue;
				char joined[2 * PATH_MAX + 2], norm[PATH_MAX];
				const char *t = (*hit)->target;
				char *dir_end = strrchr(prefix, '/');
				if (t[0] == '/' || !dir_end)
					bb_strfmt(joined, sizeof(joined), "%s%s", t, slash);
				else
					bb_strfmt(joined, sizeof(joined), "%.*s/%s%s",
					          (int)(dir_end - prefix), prefix, t, slash);
				if (bb_cpio_norm_path(joined, norm, sizeof(norm))) {
					free(links);
					return bb_errbuf_fail(
					    err, errlen, -EINVAL,
					    "/%s (from %s) is below the symlink /%s -> %s, "
					    "which leads outside the image",
					    e->path, e->origin, prefix, t);
				}
				char *np = strdup(norm);
				if (!np) {
					free(links);
					return bb_errbuf_fail(err, errlen, -ENOMEM,
					                      "out of memory");
				}
				free(e->path);
				e->path = np;
				changed++;
				break;
			}
		}
		free(links);
		if (!changed)
			return 0;
	}
	return bb_errbuf_fail(err, errlen, -EINVAL, "symlinks in the image form a loop");
}

int bb_cpio_finish(struct cpio_list *l, char *err, size_t errlen)
{
	int rc = follow_parent_links(l, err, errlen);
	if (!rc)
		rc = add_parents(l, err, errlen);
	if (rc)
		return rc;
	qsort(l->v, l->n, sizeof(*l->v), entry_cmp);

	/*
	 * Entries at the same path: the first non-weak one wins and the other non-weak ones must
	 * match it. All conflicts are checked before the list is changed, so that a failed finish
	 * leaves a list that can still be freed.
	 */
	for (int pass = 0; pass < 2; pass++) {
		size_t out = 0;
		for (size_t i = 0; i < l->n;) {
			size_t j = i + 1, keep = i;
			while (j < l->n && !strcmp(l->v[j].path, l->v[i].path))
				j++;
			for (size_t k = i; k < j; k++)
				if (!l->v[k].weak) {
					keep = k;
					break;
				}
			for (size_t k = i; k < j && pass == 0; k++) {
				struct cpio_entry *a = &l->v[keep], *b = &l->v[k];
				if (k == keep || b->weak || same_entry(a, b))
					continue;
				if (a->type == b->type && a->type == CPIO_FILE &&
				    a->mode == b->mode)
					return bb_errbuf_fail(
					    err, errlen, -EINVAL,
					    "duplicate path /%s with different content "
					    "(from %s and from %s)",
					    a->path, a->origin, b->origin);
				return bb_errbuf_fail(
				    err, errlen, -EINVAL,
				    "duplicate path /%s: %s %04o from %s, %s %04o from %s", a->path,
				    type_name(a->type), a->mode, a->origin, type_name(b->type),
				    b->mode, b->origin);
			}
			if (pass == 1) {
				for (size_t k = i; k < j; k++)
					if (k != keep)
						entry_free(&l->v[k]);
				if (out != keep)
					l->v[out] = l->v[keep];
				out++;
			}
			i = j;
		}
		if (pass == 1)
			l->n = out;
	}

	/* Everything above an entry must be a directory in the image. */
	for (size_t i = 0; i < l->n; i++) {
		char parent[PATH_MAX];
		bb_strfmt(parent, sizeof(parent), "%s", l->v[i].path);
		char *slash = strrchr(parent, '/');
		if (!slash)
			continue;
		*slash = 0;
		const struct cpio_entry *p = bb_cpio_find(l, parent);
		if (p && p->type != CPIO_DIR)
			return bb_errbuf_fail(
			    err, errlen, -EINVAL,
			    "/%s (from %s) is inside /%s, which is a %s (from %s)", l->v[i].path,
			    l->v[i].origin, p->path, type_name(p->type), p->origin);
	}

	unsigned ino = CPIO_FIRST_INO;
	for (size_t i = 0; i < l->n; i++) {
		struct cpio_entry *e = &l->v[i];
		e->ino = ino++;
		e->nlink = e->type == CPIO_DIR ? 2 : 1;
		e->data_here = 1;
	}

	/* Hard links: files read from the same source inode share one inode number. */
	struct cpio_entry **files = malloc((l->n + 1) * sizeof(*files));
	size_t nf = 0;
	if (!files)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].type == CPIO_FILE && l->v[i].src_ino)
			files[nf++] = &l->v[i];
	qsort(files, nf, sizeof(*files), hardlink_cmp);
	for (size_t i = 0; i < nf;) {
		size_t j = i + 1;
		while (j < nf && files[j]->src_dev == files[i]->src_dev &&
		       files[j]->src_ino == files[i]->src_ino && files[j]->mode == files[i]->mode)
			j++;
		if (j - i > 1) {
			/* GNU cpio's convention: the data goes with the last name in the archive.
			 */
			unsigned group_ino = files[i]->ino;
			for (size_t k = i; k < j; k++) {
				files[k]->ino = group_ino;
				files[k]->nlink = (unsigned)(j - i);
				files[k]->data_here = k == j - 1;
			}
		}
		i = j;
	}
	free(files);
	l->finished = 1;
	return 0;
}

const struct cpio_entry *bb_cpio_find(const struct cpio_list *l, const char *path)
{
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(path, l->v[mid].path);
		if (!c)
			return &l->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static int pad(struct bytebuf *out, size_t align)
{
	static const unsigned char zeros[512];
	size_t n = (align - out->len % align) % align;
	return bb_bytebuf_append(out, zeros, n);
}

static int header(struct bytebuf *out, unsigned ino, unsigned mode, unsigned nlink, uint32_t mtime,
                  size_t size, unsigned rmajor, unsigned rminor, const char *name)
{
	char h[111];
	size_t namesize = strlen(name) + 1;
	bb_strfmt(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", ino,
	          mode, 0u, 0u, nlink, mtime, (unsigned)size, 0u, 0u, rmajor, rminor,
	          (unsigned)namesize, 0u);
	if (bb_bytebuf_append(out, h, 110) || bb_bytebuf_append(out, name, namesize) || pad(out, 4))
		return -1;
	return 0;
}

int bb_cpio_write(const struct cpio_list *l, uint32_t mtime, struct bytebuf *out, char *err,
                  size_t errlen)
{
	static const unsigned type_bits[] = {S_IFREG, S_IFDIR, S_IFLNK, 0};

	if (!l->finished)
		return bb_errbuf_fail(err, errlen, -EIO, "cpio_write before cpio_finish");
	/* One allocation for the whole archive: header, name and data, each padded to 4. */
	size_t total = 512 + 128;
	for (size_t i = 0; i < l->n; i++)
		total += 110 + strlen(l->v[i].path) + 1 + 3 + l->v[i].size + 3;
	if (out->len + total > out->cap) {
		unsigned char *p = realloc(out->p, out->len + total);
		if (!p)
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		out->p = p;
		out->cap = out->len + total;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct cpio_entry *e = &l->v[i];
		unsigned mode = e->mode | type_bits[e->type];
		size_t size = e->size;
		const void *data = e->type == CPIO_SLINK ? (const void *)e->target : e->data;
		if (e->type == CPIO_NOD)
			mode = e->mode | (e->nodtype == 'c' ? S_IFCHR : S_IFBLK);
		if (e->type == CPIO_DIR || e->type == CPIO_NOD || !e->data_here)
			size = 0;
		if (size > 0xffffffffu)
			return bb_errbuf_fail(err, errlen, -EINVAL,
			                      "/%s is larger than newc cpio allows (4 GiB)",
			                      e->path);
		if (header(out, e->ino, mode, e->nlink, mtime, size, e->rmajor, e->rminor,
		           e->path) ||
		    bb_bytebuf_append(out, data, size) || pad(out, 4))
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	if (header(out, 0, 0, 1, 0, 0, 0, 0, "TRAILER!!!") || pad(out, 512))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	return 0;
}
