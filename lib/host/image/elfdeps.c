/* ELF closure resolver inside a sysroot; see elfdeps.h. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <glob.h>
#include <libelf.h>
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
#include "host/image/elfdeps.h"

/* Where Debian's glibc looks after ld.so.cache (its multiarch directories come first). */
static const char *const default_dirs[] = {
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
};

struct elfdeps_obj {
	char *image_path; /* as found */
	char *real;       /* resolved image path */
	char *src;        /* host path */
	char *rpath;      /* DT_RPATH, used only when runpath is NULL */
	char *runpath;
	char *soname;
	struct bb_strv needed;
	char *interp;
	int elfclass, machine;
	int is_elf;  /* 1: read, ELF; 0: not read yet; -1: read, not ELF */
	long parent; /* index of the loader, -1 for a binary */
};

static int add_dir(struct elfdeps *d, const char *dir)
{
	char norm[PATH_MAX];
	if (bb_cpio_norm_path(dir, norm + 1, sizeof(norm) - 1))
		return 0;
	norm[0] = '/';
	for (size_t i = 0; i < d->dirs.n; i++)
		if (!strcmp(d->dirs.v[i], norm))
			return 0;
	return bb_strv_add(&d->dirs, norm) ? -1 : 0;
}

/* ld.so.conf syntax: directories, '#' comments, "include GLOB" (relative to /etc). */
static int read_ldso_conf(struct elfdeps *d, const char *image_path, int depth)
{
	char path[PATH_MAX], line[4096];
	if (depth > 8)
		return 0;
	bb_strfmt(path, sizeof(path), "%s%s", d->sysroot, image_path);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char *save, *word = strtok_r(line, " \t\r\n:,", &save);
		if (!word)
			continue;
		if (!strcmp(word, "include")) {
			char *pat;
			while ((pat = strtok_r(NULL, " \t\r\n", &save))) {
				char full[PATH_MAX];
				glob_t g;
				bb_strfmt(full, sizeof(full), "%s%s%s", d->sysroot,
				          pat[0] == '/' ? "" : "/etc/", pat);
				if (glob(full, 0, NULL, &g) == 0) {
					for (size_t i = 0; i < g.gl_pathc; i++)
						read_ldso_conf(d,
						               g.gl_pathv[i] + strlen(d->sysroot),
						               depth + 1);
					globfree(&g);
				}
			}
			continue;
		}
		if (!strcmp(word, "hwcap"))
			continue;
		do {
			char *eq = strchr(word, '=');
			if (eq)
				*eq = 0;
			if (word[0] == '/' && add_dir(d, word)) {
				fclose(f);
				return -1;
			}
		} while ((word = strtok_r(NULL, " \t\r\n:,", &save)));
	}
	fclose(f);
	return 0;
}

int bb_elfdeps_init(struct elfdeps *d, const char *sysroot, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return bb_errbuf_fail(err, errlen, -EIO, "libelf: %s", elf_errmsg(-1));
	d->sysroot = strdup(sysroot ? sysroot : "");
	if (!d->sysroot)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	size_t n = strlen(d->sysroot);
	while (n && d->sysroot[n - 1] == '/')
		d->sysroot[--n] = 0;
	struct stat st;
	if (n && (stat(d->sysroot, &st) < 0 || !S_ISDIR(st.st_mode)))
		return bb_errbuf_fail(err, errlen, -EINVAL, "sysroot %s is not a directory",
		                      sysroot);
	if (read_ldso_conf(d, "/etc/ld.so.conf", 0))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < sizeof(default_dirs) / sizeof(*default_dirs); i++)
		if (add_dir(d, default_dirs[i]))
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

static void obj_free(struct elfdeps_obj *o)
{
	free(o->image_path);
	free(o->real);
	free(o->src);
	free(o->rpath);
	free(o->runpath);
	free(o->soname);
	free(o->interp);
	bb_strv_free(&o->needed);
}

void bb_elfdeps_free(struct elfdeps *d)
{
	bb_strv_free(&d->dirs);
	for (size_t i = 0; i < d->nfiles; i++) {
		free(d->files[i].path);
		free(d->files[i].src);
		free(d->files[i].target);
		free(d->files[i].needed_by);
	}
	free(d->files);
	for (size_t i = 0; i < d->nfound; i++) {
		free(d->found[i].name);
		free(d->found[i].path);
		free(d->found[i].real);
		free(d->found[i].needed_by);
	}
	free(d->found);
	for (size_t i = 0; i < d->nobjs; i++)
		obj_free(&d->objs[i]);
	free(d->objs);
	free(d->sysroot);
	memset(d, 0, sizeof(*d));
}

static int add_file(struct elfdeps *d, const char *path, const char *src, const char *target,
                    const char *needed_by)
{
	for (size_t i = 0; i < d->nfiles; i++)
		if (!strcmp(d->files[i].path, path))
			return 0;
	if (bb_grow(&d->files, &d->capfiles, d->nfiles + 1, sizeof(*d->files)))
		return -1;
	struct elfdeps_file *f = &d->files[d->nfiles];
	f->path = strdup(path);
	f->src = src ? strdup(src) : NULL;
	f->target = target ? strdup(target) : NULL;
	f->needed_by = strdup(needed_by);
	if (!f->path || (src && !f->src) || (target && !f->target) || !f->needed_by)
		return -1;
	d->nfiles++;
	return 0;
}

/*
 * Follow path inside the sysroot, chroot-style. With needed_by set, every symlink met is
 * recorded as an image entry.
 */
static int resolve(struct elfdeps *d, const char *path, char *real, size_t reallen,
                   const char *needed_by)
{
	char done[PATH_MAX] = "", rest[PATH_MAX], host[PATH_MAX], target[PATH_MAX];
	int links = 0;

	if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	char *p = rest;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char comp[NAME_MAX + 1];
		if (n > NAME_MAX) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(comp, p, n);
		comp[n] = 0;
		p += n;
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *slash = strrchr(done, '/');
			if (slash)
				*slash = 0;
			continue;
		}
		char cand[PATH_MAX];
		if (snprintf(cand, sizeof(cand), "%s/%s", done, comp) >= (int)sizeof(cand) ||
		    bb_strfmt(host, sizeof(host), "%s%s", d->sysroot, cand) >= (int)sizeof(host)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		struct stat st;
		if (lstat(host, &st) < 0)
			return -1;
		if (!S_ISLNK(st.st_mode)) {
			strcpy(done, cand);
			continue;
		}
		if (++links > 40) {
			errno = ELOOP;
			return -1;
		}
		ssize_t tn = readlink(host, target, sizeof(target) - 1);
		if (tn < 0)
			return -1;
		target[tn] = 0;
		if (needed_by && add_file(d, cand, NULL, target, needed_by)) {
			errno = ENOMEM;
			return -1;
		}
		char newrest[PATH_MAX];
		if (snprintf(newrest, sizeof(newrest), "%s/%s", target, p) >=
		    (int)sizeof(newrest)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (target[0] == '/')
			done[0] = 0;
		strcpy(rest, newrest);
		p = rest;
	}
	if (snprintf(real, reallen, "%s", done[0] ? done : "/") >= (int)reallen) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int bb_elfdeps_resolve(const struct elfdeps *d, const char *path, char *real, size_t reallen)
{
	return resolve((struct elfdeps *)d, path, real, reallen, NULL) ? -errno : 0;
}

/*
 * Read what the closure needs from one ELF file. Returns 1 if ELF, 0 if not, with a message:
 * -EINVAL for a malformed file or one that does not exist, another -errno else.
 */
/* A libelf failure on src: -EINVAL with libelf's reason in err. */
static int elf_bad(const char *src, char *err, size_t errlen)
{
	return bb_errbuf_fail(err, errlen, -EINVAL, "%s: malformed ELF file: %s", src,
	                      elf_errmsg(-1));
}

/* The i-th of the n entries of a dynamic section into dyn: 1, 0 at its end (DT_NULL or n), -1
 * when libelf cannot read it. */
static int dyn_entry(Elf_Data *data, size_t n, size_t i, GElf_Dyn *dyn)
{
	if (i >= n)
		return 0;
	if (!gelf_getdyn(data, (int)i, dyn))
		return -1;
	return dyn->d_tag != DT_NULL;
}

/*
 * The dynamic section (dynph) as the loader finds it, its strings through DT_STRTAB mapped by
 * the PT_LOAD segments (section headers may be stripped): DT_NEEDED, DT_SONAME, DT_RPATH and
 * DT_RUNPATH into o. 0, -EINVAL with the reason in err, -ENOMEM.
 */
static int read_dynamic(Elf *e, const GElf_Phdr *dynph, size_t nph, const char *raw, size_t rawlen,
                        const char *src, struct elfdeps_obj *o, char *err, size_t errlen)
{
	Elf_Data *data =
	    elf_getdata_rawchunk(e, (int64_t)dynph->p_offset, dynph->p_filesz, ELF_T_DYN);
	if (!data)
		return elf_bad(src, err, errlen);
	size_t n = dynph->p_filesz / gelf_fsize(e, ELF_T_DYN, 1, EV_CURRENT);
	GElf_Addr strtab = 0;
	GElf_Xword strsz = 0;
	GElf_Dyn dyn;
	int r;
	for (size_t i = 0; (r = dyn_entry(data, n, i, &dyn)) > 0; i++) {
		if (dyn.d_tag == DT_STRTAB)
			strtab = dyn.d_un.d_ptr;
		else if (dyn.d_tag == DT_STRSZ)
			strsz = dyn.d_un.d_val;
	}
	if (r < 0)
		return elf_bad(src, err, errlen);
	size_t stroff = 0;
	int mapped = 0;
	for (size_t i = 0; i < nph && strtab && !mapped; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && strtab >= ph.p_vaddr &&
		    strtab - ph.p_vaddr < ph.p_filesz) {
			stroff = (size_t)(strtab - ph.p_vaddr + ph.p_offset);
			mapped = 1;
		}
	}
	if (!mapped || !strsz || stroff + strsz > rawlen)
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "%s: malformed ELF file: no usable DT_STRTAB", src);
	for (size_t i = 0; (r = dyn_entry(data, n, i, &dyn)) > 0; i++) {
		if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RPATH && dyn.d_tag != DT_RUNPATH &&
		    dyn.d_tag != DT_SONAME)
			continue;
		if (dyn.d_un.d_val >= strsz)
			return bb_errbuf_fail(err, errlen, -EINVAL,
			                      "%s: malformed ELF file: string outside DT_STRTAB",
			                      src);
		char *copy = strndup(raw + stroff + dyn.d_un.d_val, strsz - dyn.d_un.d_val);
		if (!copy)
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		char **slot = dyn.d_tag == DT_SONAME    ? &o->soname
		              : dyn.d_tag == DT_RPATH   ? &o->rpath
		              : dyn.d_tag == DT_RUNPATH ? &o->runpath
		                                        : NULL;
		if (!slot) {
			int oom = bb_strv_add(&o->needed, copy);
			free(copy);
			if (oom)
				return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
			continue;
		}
		free(*slot);
		*slot = copy;
	}
	return r < 0 ? elf_bad(src, err, errlen) : 0;
}

static int read_elf(const char *src, struct elfdeps_obj *o, char *err, size_t errlen)
{
	int fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		bb_errbuf_fail(err, errlen, 0, "unable to open %s: %s", src, strerror(e));
		return e == ENOENT ? -EINVAL : -e;
	}
	int rc = -EINVAL;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		rc = 0;
		goto out_end;
	}
	GElf_Ehdr eh;
	if (!gelf_getehdr(e, &eh))
		goto out_bad;
	o->elfclass = eh.e_ident[EI_CLASS];
	o->machine = eh.e_machine;
	size_t rawlen;
	char *raw = elf_rawfile(e, &rawlen);
	size_t nph;
	if (elf_getphdrnum(e, &nph) < 0)
		goto out_bad;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_INTERP)
			continue;
		if (!raw || ph.p_offset + ph.p_filesz > rawlen || !ph.p_filesz)
			goto out_bad;
		o->interp = strndup(raw + ph.p_offset, ph.p_filesz);
		if (!o->interp)
			goto out_nomem;
	}
	/*
	 * The dynamic section as the loader finds it: through PT_DYNAMIC, its strings through
	 * DT_STRTAB mapped by the PT_LOAD segments (section headers may be stripped).
	 */
	GElf_Phdr dynph = {0};
	int have_dyn = 0;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph))
			goto out_bad;
		if (ph.p_offset + ph.p_filesz > rawlen) {
			bb_errbuf_fail(err, errlen, 0,
			               "%s: truncated ELF file (segment %zu ends after the file)",
			               src, i);
			goto out_end;
		}
		if (ph.p_type == PT_DYNAMIC) {
			dynph = ph;
			have_dyn = 1;
		}
	}
	if (have_dyn && (rc = read_dynamic(e, &dynph, nph, raw, rawlen, src, o, err, errlen)))
		goto out_end;
	rc = 1;
	goto out_end;
out_bad:
	rc = elf_bad(src, err, errlen);
	goto out_end;
out_nomem:
	bb_errbuf_fail(err, errlen, 0, "out of memory");
	rc = -ENOMEM;
out_end:
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

/* Is the file at this sysroot path an ELF object the needing object can load? */
static int compatible(struct elfdeps *d, const char *real, const struct elfdeps_obj *by)
{
	char host[PATH_MAX];
	bb_strfmt(host, sizeof(host), "%s%s", d->sysroot, real);
	int fd = open(host, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	int ok = 0;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	if (e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh))
		ok = eh.e_ident[EI_CLASS] == by->elfclass && eh.e_machine == by->machine;
	if (e)
		elf_end(e);
	close(fd);
	return ok;
}

/* Expand $ORIGIN / ${ORIGIN}, $LIB, $PLATFORM in one search-path element. */
static void expand(const char *in, const char *origin, char *out, size_t outlen)
{
	static const struct {
		const char *name;
		const char *value;
	} vars[] = {{"ORIGIN", NULL}, {"LIB", "lib/x86_64-linux-gnu"}, {"PLATFORM", "x86_64"}};
	size_t len = 0;
	out[0] = 0;
	for (const char *p = in; *p && len + 1 < outlen;) {
		int done = 0;
		if (*p == '$') {
			for (size_t v = 0; v < 3 && !done; v++) {
				size_t n = strlen(vars[v].name);
				const char *value = vars[v].value ? vars[v].value : origin;
				if (!strncmp(p + 1, vars[v].name, n)) {
					len +=
					    (size_t)snprintf(out + len, outlen - len, "%s", value);
					p += 1 + n;
					done = 1;
				} else if (p[1] == '{' && !strncmp(p + 2, vars[v].name, n) &&
				           p[2 + n] == '}') {
					len +=
					    (size_t)snprintf(out + len, outlen - len, "%s", value);
					p += 3 + n;
					done = 1;
				}
			}
		}
		if (!done)
			out[len++] = *p++;
		out[len] = 0;
		if (len >= outlen)
			len = outlen - 1;
	}
}

/* Try name in each element of a ':'-separated search path. */
static int search_path(struct elfdeps *d, const char *list, const struct elfdeps_obj *by,
                       const char *name, char *found, size_t foundlen)
{
	char copy[PATH_MAX * 4], origin[PATH_MAX];
	bb_strfmt(copy, sizeof(copy), "%s", list);
	bb_strfmt(origin, sizeof(origin), "%s", by->image_path);
	char *slash = strrchr(origin, '/');
	if (slash)
		*slash = 0;
	char *save, *el;
	for (el = strtok_r(copy, ":", &save); el; el = strtok_r(NULL, ":", &save)) {
		char dir[PATH_MAX], cand[2 * PATH_MAX], real[PATH_MAX];
		expand(el, origin, dir, sizeof(dir));
		if (dir[0] != '/')
			continue; /* relative to the cwd at run time: nothing to take */
		bb_strfmt(cand, sizeof(cand), "%s/%s", dir, name);
		if (resolve(d, cand, real, sizeof(real), NULL) == 0 && compatible(d, real, by)) {
			bb_strfmt(found, foundlen, "%s", cand);
			return 1;
		}
	}
	return 0;
}

static int find_library(struct elfdeps *d, size_t objidx, const char *name, char *found,
                        size_t foundlen)
{
	const struct elfdeps_obj *by = &d->objs[objidx];
	char real[PATH_MAX];

	if (strchr(name, '/')) {
		bb_strfmt(found, foundlen, "%s%s", name[0] == '/' ? "" : "/", name);
		return resolve(d, found, real, sizeof(real), NULL) == 0 && compatible(d, real, by);
	}
	if (!by->runpath)
		for (long i = (long)objidx; i >= 0; i = d->objs[i].parent)
			if (d->objs[i].rpath && !d->objs[i].runpath &&
			    search_path(d, d->objs[i].rpath, &d->objs[i], name, found, foundlen))
				return 1;
	if (by->runpath && search_path(d, by->runpath, by, name, found, foundlen))
		return 1;
	for (size_t i = 0; i < d->dirs.n; i++) {
		char cand[2 * PATH_MAX];
		bb_strfmt(cand, sizeof(cand), "%s/%s", d->dirs.v[i], name);
		if (resolve(d, cand, real, sizeof(real), NULL) == 0 && compatible(d, real, by)) {
			bb_strfmt(found, foundlen, "%s", cand);
			return 1;
		}
	}
	return 0;
}

static long find_obj(struct elfdeps *d, const char *real)
{
	for (size_t i = 0; i < d->nobjs; i++)
		if (d->objs[i].real && !strcmp(d->objs[i].real, real))
			return (long)i;
	return -1;
}

static int add_found(struct elfdeps *d, const char *name, const char *path, const char *real,
                     const char *needed_by)
{
	if (bb_grow(&d->found, &d->capfound, d->nfound + 1, sizeof(*d->found)))
		return -1;
	struct elfdeps_found *f = &d->found[d->nfound];
	f->name = strdup(name);
	f->path = strdup(path);
	f->real = strdup(real);
	f->needed_by = strdup(needed_by);
	if (!f->name || !f->path || !f->real || !f->needed_by)
		return -1;
	d->nfound++;
	return 0;
}

/* Record the library found at path (symlinks and file) and queue it for scanning. */
static int take(struct elfdeps *d, const char *name, const char *path, long parent, char *err,
                size_t errlen)
{
	char real[PATH_MAX], host[PATH_MAX];
	const char *by = parent >= 0 ? d->objs[parent].image_path : "?";
	char *needed_by = strdup(by);
	if (!needed_by)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	int rc = resolve(d, path, real, sizeof(real), needed_by);
	if (rc < 0) {
		rc = bb_errbuf_fail(err, errlen, -errno, "unable to resolve %s in %s: %s", path,
		                    d->sysroot[0] ? d->sysroot : "/", strerror(errno));
		goto out_free;
	}
	bb_strfmt(host, sizeof(host), "%s%s", d->sysroot, real);
	if (add_found(d, name, path, real, needed_by) || add_file(d, real, host, NULL, needed_by)) {
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		goto out_free;
	}
	rc = 0;
	if (find_obj(d, real) >= 0)
		goto out_free;
	if (bb_grow(&d->objs, &d->capobjs, d->nobjs + 1, sizeof(*d->objs))) {
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		goto out_free;
	}
	struct elfdeps_obj *o = &d->objs[d->nobjs];
	memset(o, 0, sizeof(*o));
	o->parent = parent;
	o->image_path = strdup(path);
	o->real = strdup(real);
	o->src = strdup(host);
	d->nobjs++;
	if (!o->image_path || !o->real || !o->src) {
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		goto out_free;
	}
	/* Read it now: its DT_SONAME may satisfy names needed before its turn comes. */
	char msg[512] = "";
	int r = read_elf(o->src, o, msg, sizeof(msg));
	if (r < 0)
		rc = bb_errbuf_fail(err, errlen, r, "%s", msg);
	o->is_elf = r > 0 ? 1 : -1;
out_free:
	free(needed_by);
	return rc;
}

/*
 * Is a DT_NEEDED name already satisfied, as glibc decides it: by a name already resolved or by
 * the DT_SONAME of an object already loaded (libc.so.6 needs ld-linux-x86-64.so.2, which is
 * the interpreter, loaded as /lib64/ld-linux-x86-64.so.2).
 */
static int already_found(struct elfdeps *d, const char *name)
{
	for (size_t i = 0; i < d->nfound; i++)
		if (!strcmp(d->found[i].name, name))
			return 1;
	for (size_t i = 0; i < d->nobjs; i++)
		if (d->objs[i].soname && !strcmp(d->objs[i].soname, name))
			return 1;
	return 0;
}

int bb_elfdeps_add(struct elfdeps *d, const char *src, const char *image_path, int *is_elf,
                   char *err, size_t errlen)
{
	if (bb_grow(&d->objs, &d->capobjs, d->nobjs + 1, sizeof(*d->objs)))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	size_t first = d->nobjs;
	struct elfdeps_obj *root = &d->objs[d->nobjs];
	memset(root, 0, sizeof(*root));
	root->parent = -1;
	root->image_path = strdup(image_path);
	root->src = strdup(src);
	d->nobjs++;
	if (!root->image_path || !root->src)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if (is_elf)
		*is_elf = 0;

	/* Breadth-first: objs grows while we walk it. */
	for (size_t i = first; i < d->nobjs; i++) {
		int r = d->objs[i].is_elf;
		if (!r) {
			char msg[512] = "";
			r = read_elf(d->objs[i].src, &d->objs[i], msg, sizeof(msg));
			if (r < 0)
				return bb_errbuf_fail(err, errlen, r, "%s", msg);
		}
		if (r <= 0) {
			if (i == first)
				return 0;
			return bb_errbuf_fail(err, errlen, -EINVAL, "%s (needed by %s) is not ELF",
			                      d->objs[i].image_path,
			                      d->objs[d->objs[i].parent].image_path);
		}
		if (i == first && is_elf)
			*is_elf = 1;
		if (d->objs[i].interp && !already_found(d, d->objs[i].interp)) {
			char real[PATH_MAX];
			const char *interp = d->objs[i].interp;
			if (resolve(d, interp, real, sizeof(real), NULL) < 0)
				return bb_errbuf_fail(
				    err, errlen, -EINVAL,
				    "program interpreter %s needed by %s not found in %s", interp,
				    d->objs[i].image_path, d->sysroot[0] ? d->sysroot : "/");
			char *copy = strdup(interp);
			if (!copy)
				return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
			int rc = take(d, copy, copy, (long)i, err, errlen);
			free(copy);
			if (rc)
				return rc;
		}
		for (size_t k = 0; k < d->objs[i].needed.n; k++) {
			char name[PATH_MAX], found[PATH_MAX];
			bb_strfmt(name, sizeof(name), "%s", d->objs[i].needed.v[k]);
			if (already_found(d, name))
				continue;
			if (!find_library(d, i, name, found, sizeof(found))) {
				const char *where = d->sysroot[0] ? d->sysroot : "/";
				return bb_errbuf_fail(
				    err, errlen, -EINVAL,
				    "library %s needed by %s not found in %s (searched "
				    "%sthe sysroot's ld.so.conf and default directories)",
				    name, d->objs[i].image_path, where,
				    d->objs[i].runpath ? "RUNPATH, "
				    : d->objs[i].rpath ? "RPATH, "
				                       : "");
			}
			int rc = take(d, name, found, (long)i, err, errlen);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int bb_elfdeps_to_cpio(const struct elfdeps *d, struct cpio_list *l, char *err, size_t errlen)
{
	for (size_t i = 0; i < d->nfiles; i++) {
		const struct elfdeps_file *f = &d->files[i];
		char origin[PATH_MAX + 64];
		bb_strfmt(origin, sizeof(origin), "library closure of %s", f->needed_by);
		int rc = f->target ? bb_cpio_add_slink(l, f->path, f->target, origin, err, errlen)
		                   : bb_cpio_add_file(l, f->path, f->src, 0, origin, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}
