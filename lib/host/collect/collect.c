/* `benchboot collect` (see collect.h and docs/results.md). */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/consfile.h"
#include "host/gpt.h"
#include "host/json.h"
#include "host/collect/collect.h"
#include "host/runtool.h"
#include "results/resdisk.h"
#include "sha256.h"
#include "grow.h"

#define MAX_DEPTH 16
#define MAX_ENTRIES 1000000
#define MAX_DONE (16u << 20)

void bb_collect_msgf(const struct collect_opts *o, const char *fmt, ...)
{
	char line[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (o->msg)
		o->msg(o->ctx, line);
}

const char *bb_collect_bad_name(const char *name)
{
	size_t n = strlen(name);
	if (!n)
		return "an empty name";
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return "a '.' or '..' name would escape the folder";
	if (n > 255)
		return "a name longer than 255 bytes";
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == '/')
			return "a '/' inside a name would escape the folder";
		if (c < 0x20 || c == 0x7f)
			return "a control character in the name";
	}
	if (name[0] == '.')
		return "a name starting with '.' (reserved for temporary files)";
	return NULL;
}

static const char *collect_bad_path(const char *path)
{
	static char why[300];
	if (!*path)
		return "an empty path";
	if (path[0] == '/')
		return "an absolute path would escape the folder";
	if (strlen(path) > 4000)
		return "a path longer than 4000 bytes";
	const char *p = path;
	while (*p) {
		char comp[256];
		size_t n = strcspn(p, "/");
		if (n == 0)
			return "an empty path component ('//')";
		if (n > 255)
			return "a name longer than 255 bytes";
		memcpy(comp, p, n);
		comp[n] = 0;
		const char *bad = bb_collect_bad_name(comp);
		if (bad) {
			snprintf(why, sizeof(why), "%s", bad);
			return why;
		}
		p += n;
		if (*p == '/' && !*++p)
			return "a path ending in '/'";
	}
	return NULL;
}

int bb_collect_is_boot_name(const char *name)
{
	size_t i = 0, n = strlen(name);
	while (i < n && name[i] >= '0' && name[i] <= '9')
		i++;
	if (i < 4 || i > 9 || name[i] != '-' || n - i - 1 < 1 || n - i - 1 > 64)
		return 0;
	for (i++; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return name[strspn(name, "0123456789") + 1] != '.';
}

/* A name for messages: it may hold anything, so only printable ASCII, shortened. */
static void printable(const char *name, char *out, size_t cap)
{
	size_t k = 0;
	for (const char *c = name; *c && k < cap - 1; c++)
		out[k++] = (*c >= 0x20 && *c < 0x7f) ? *c : '?';
	out[k] = 0;
}

/* ---- output folder helpers ---- */

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int rm_tree_at(int dirfd, const char *name, int depth)
{
	if (!unlinkat(dirfd, name, 0) || errno == ENOENT)
		return 0;
	if ((errno != EISDIR && errno != EPERM) || depth > MAX_DEPTH + 4)
		return -errno;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			rm_tree_at(fd, de->d_name, depth + 1);
	closedir(d);
	return unlinkat(dirfd, name, AT_REMOVEDIR) ? -errno : 0;
}

/* Create (or open) the directories of rel's parent under dirfd, never following a symlink. */
static int open_parent(int dirfd, const char *rel, const char **base)
{
	int fd = dup(dirfd);
	const char *p = rel;
	if (fd < 0)
		return -errno;
	for (;;) {
		size_t n = strcspn(p, "/");
		if (!p[n]) {
			*base = p;
			return fd;
		}
		char comp[256];
		memcpy(comp, p, n);
		comp[n] = 0;
		if (mkdirat(fd, comp, 0755) && errno != EEXIST) {
			int e = -errno;
			close(fd);
			return e;
		}
		int sub = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = -errno;
		close(fd);
		if (sub < 0)
			return e;
		fd = sub;
		p += n + 1;
	}
}

/* ---- a boot being assembled ---- */

struct seen {
	char *path;
	char sha[SHA256_HEX_LEN + 1];
	unsigned long long size;
};

struct boot {
	char name[128], tmp[192];
	int fd; /* DIR/.NAME.tmp-PID */
	int skip;
	struct seen *seen;
	size_t n, cap;
	char *done; /* content of `done`, when collected */
	size_t done_len;
	unsigned problems;
	unsigned long long bytes;
};

static void boot_free(struct boot *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->seen[i].path);
	free(b->seen);
	free(b->done);
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
}

static struct seen *boot_seen(struct boot *b, const char *path)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->seen[i].path, path))
			return &b->seen[i];
	if (bb_grow(&b->seen, &b->cap, b->n + 1, sizeof(*b->seen)))
		return NULL;
	struct seen *s = &b->seen[b->n];
	memset(s, 0, sizeof(*s));
	if (!(s->path = strdup(path)))
		return NULL;
	b->n++;
	return s;
}

int bb_collect_record_read(int dirfd, const char *name, struct collect_record *rec)
{
	char path[4400], buf[1024];
	memset(rec, 0, sizeof(*rec));
	snprintf(path, sizeof(path), "%s/.collect", name);
	int fd = openat(dirfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strncmp(line, "status=", 7))
			snprintf(rec->status, sizeof(rec->status), "%s", line + 7);
		else if (!strncmp(line, "source=", 7))
			snprintf(rec->source, sizeof(rec->source), "%s", line + 7);
		else if (!strncmp(line, "files=", 6))
			rec->files = strtoull(line + 6, NULL, 10);
		else if (!strncmp(line, "bytes=", 6))
			rec->bytes = strtoull(line + 6, NULL, 10);
	}
	return 0;
}

/* Should boot NAME be (re)collected? 1 yes, 0 no (already complete or not ours: says why). */
static int boot_wanted(const struct collect_opts *o, int outfd, const char *name,
                       struct collect_stats *st)
{
	char filed[192];
	struct collect_record rec;
	struct stat sb;
	/* a server host's boot filed under server-host/ before */
	snprintf(filed, sizeof(filed), COLLECT_SERVER_DIR "/%s", name);
	if (o->file_server_boots && !fstatat(outfd, filed, &sb, AT_SYMLINK_NOFOLLOW))
		name = filed;
	if (fstatat(outfd, name, &sb, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return 1;
		bb_collect_msgf(o, "%s: cannot look at %s/%s: %s", name, o->outdir, name,
		                strerror(errno));
		st->problems++;
		return 0;
	}
	if (!S_ISDIR(sb.st_mode) || bb_collect_record_read(outfd, name, &rec)) {
		bb_collect_msgf(o, "%s: %s/%s exists and was not made by collect: left alone", name,
		                o->outdir, name);
		st->problems++;
		return 0;
	}
	if (!strcmp(rec.status, "complete")) {
		st->boots_skipped++;
		return 0;
	}
	return 1;
}

static int boot_begin(const struct collect_opts *o, int outfd, const char *name, struct boot *b)
{
	memset(b, 0, sizeof(*b));
	b->fd = -1;
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->tmp, sizeof(b->tmp), ".%s.tmp-%ld", name, (long)getpid());
	rm_tree_at(outfd, b->tmp, 0);
	if (mkdirat(outfd, b->tmp, 0755))
		return -errno;
	b->fd = openat(outfd, b->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return b->fd < 0 ? -errno : 0;
}

struct sink {
	int fd;
	struct sha256 sha;
	unsigned long long len;
	char *keep; /* a copy in memory (for `done`) */
	size_t keep_len, keep_cap;
};

static int sink_write(const void *buf, size_t len, void *ctx)
{
	struct sink *s = ctx;
	bb_sha256_update(&s->sha, buf, len);
	s->len += len;
	if (s->keep_cap) {
		if (s->keep_len + len > s->keep_cap)
			return -EFBIG;
		memcpy(s->keep + s->keep_len, buf, len);
		s->keep_len += len;
	}
	return write_all(s->fd, buf, len);
}

/* Check what was collected against the `done` manifest; returns the number of problems. */
static unsigned verify_manifest(const struct collect_opts *o, struct boot *b)
{
	unsigned problems = 0;
	char *text = b->done, *end = b->done + b->done_len;
	char *nl = memchr(text, '\n', b->done_len);
	unsigned char *listed = calloc(b->n ? b->n : 1, 1);
	if (!listed)
		return 1;
	if (!nl || strncmp(text, "benchboot-done 1\n", 17)) {
		bb_collect_msgf(o, "%s: the done file is not a benchboot-done 1 manifest", b->name);
		free(listed);
		return 1;
	}
	for (char *line = nl + 1; line < end;) {
		char *le = memchr(line, '\n', (size_t)(end - line));
		if (!le) {
			bb_collect_msgf(o, "%s: the done manifest ends without a newline", b->name);
			problems++;
			break;
		}
		*le = 0;
		char sha[SHA256_HEX_LEN + 1];
		unsigned long long size;
		int off = 0;
		if (sscanf(line, "not-written %llu %n", &size, &off) == 1 && off && line[off]) {
			/* the init could not write it (a full disk): its iteration says why */
			bb_collect_msgf(
			    o,
			    "%s: %s (%llu bytes) was not written to the results disk (full; "
			    "see its iteration's status)",
			    b->name, line + off, size);
			problems++;
		} else if (sscanf(line, "%64s %llu %n", sha, &size, &off) != 2 || !off ||
		           !line[off]) {
			bb_collect_msgf(o, "%s: garbled line in the done manifest", b->name);
			problems++;
		} else {
			const char *path = line + off;
			size_t i;
			for (i = 0; i < b->n; i++)
				if (!strcmp(b->seen[i].path, path))
					break;
			if (i == b->n) {
				bb_collect_msgf(
				    o, "%s: %s is in the done manifest but was not collected",
				    b->name, path);
				problems++;
			} else {
				listed[i] = 1;
				if (b->seen[i].size != size || strcmp(b->seen[i].sha, sha)) {
					bb_collect_msgf(
					    o,
					    "%s: %s differs from the done manifest (size %llu, "
					    "expected %llu; or its sha256)",
					    b->name, path, b->seen[i].size, size);
					problems++;
				}
			}
		}
		*le = '\n';
		line = le + 1;
	}
	for (size_t i = 0; i < b->n; i++)
		if (!listed[i] && strcmp(b->seen[i].path, "done")) {
			bb_collect_msgf(o, "%s: %s is not in the done manifest", b->name,
			                b->seen[i].path);
			problems++;
		}
	free(listed);
	return problems;
}

/* Runs whose results.json arrived (finished) and the others (interrupted), for the message. */
static void describe_runs(struct boot *b, char *buf, size_t len)
{
	unsigned finished = 0, interrupted = 0;
	for (size_t i = 0; i < b->n; i++) {
		const char *p = b->seen[i].path;
		if (strncmp(p, "runs/", 5))
			continue;
		const char *id = p + 5, *slash = strchr(id, '/');
		if (!slash)
			continue;
		size_t idlen = (size_t)(slash - id);
		size_t j;
		for (j = 0; j < i; j++) /* first file of this run? */
			if (!strncmp(b->seen[j].path, p, 5 + idlen + 1))
				break;
		if (j < i)
			continue;
		int done = 0;
		for (j = 0; j < b->n; j++) {
			const char *q = b->seen[j].path;
			if (!strncmp(q, p, 5 + idlen + 1) &&
			    !strcmp(q + 5 + idlen + 1, "results.json"))
				done = 1;
		}
		if (done)
			finished++;
		else
			interrupted++;
	}
	snprintf(buf, len, "%u finished runs, %u interrupted", finished, interrupted);
}

/* Where boot b goes under DIR: NNNN-BOOTID, or server-host/NNNN-BOOTID for a server host's
 * boot when o->file_server_boots (the folder made). 0 or -errno. */
static int boot_dest(const struct collect_opts *o, int outfd, const struct boot *b, char *dest,
                     size_t len)
{
	char tmpdir[4200], role[16];
	snprintf(dest, len, "%s", b->name);
	if (!o->file_server_boots)
		return 0;
	snprintf(tmpdir, sizeof(tmpdir), "%s/%s", o->outdir, b->tmp);
	if (strcmp(bb_collect_boot_role(tmpdir, o->role_fallback, role, sizeof(role)), "server"))
		return 0;
	if (mkdirat(outfd, COLLECT_SERVER_DIR, 0755) && errno != EEXIST)
		return -errno;
	snprintf(dest, len, COLLECT_SERVER_DIR "/%s", b->name);
	return 0;
}

static int boot_finish(const struct collect_opts *o, int outfd, struct boot *b, const char *source,
                       struct collect_stats *st)
{
	char text[512], runs[128], dest[192];
	struct collect_record old;
	int complete = b->done != NULL;
	unsigned files = 0;
	int r;

	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->seen[i].path, "done"))
			files++;
	if (complete)
		b->problems += verify_manifest(o, b);
	/* the manifest checked, the monitors' raw samples kept compressed (docs/results.md) */
	unsigned zproblems;
	char zerr[300];
	bb_collect_compress_monitors(b->fd, &zproblems, zerr, sizeof zerr);
	if (zproblems) {
		bb_collect_msgf(o, "%s: %u monitor file(s) not compressed, kept as they were: %s",
		                b->name, zproblems, zerr);
		b->problems += zproblems;
	}
	snprintf(text, sizeof(text), "source=%s\nstatus=%s\nfiles=%u\nbytes=%llu\nproblems=%u\n",
	         source, complete ? "complete" : "incomplete", files, b->bytes, b->problems);
	int fd =
	    openat(b->fd, ".collect", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	r = write_all(fd, text, strlen(text));
	if (close(fd) && !r)
		r = -errno;
	if (r)
		return r;
	st->problems += b->problems;
	if ((r = boot_dest(o, outfd, b, dest, sizeof(dest))))
		return r;

	if (!bb_collect_record_read(outfd, dest, &old)) {
		if (!strcmp(old.status, complete ? "complete" : "incomplete") &&
		    old.files == files && old.bytes == b->bytes) {
			rm_tree_at(outfd, b->tmp, 0);
			st->boots_skipped++;
			return 0;
		}
		/* an incomplete earlier copy: swap the new one in, then drop the old */
		if (renameat2(outfd, b->tmp, outfd, dest, RENAME_EXCHANGE))
			return -errno;
		rm_tree_at(outfd, b->tmp, 0);
	} else if (renameat2(outfd, b->tmp, outfd, dest, RENAME_NOREPLACE)) {
		return -errno;
	}
	st->boots_collected++;
	st->files += files;
	st->bytes += b->bytes;
	if (complete) {
		bb_collect_msgf(o, "%s: collected, complete: %u files, %llu bytes%s", dest, files,
		                b->bytes, b->problems ? " (with problems, see above)" : "");
	} else {
		st->boots_incomplete++;
		describe_runs(b, runs, sizeof(runs));
		bb_collect_msgf(
		    o,
		    "%s: collected, INCOMPLETE (no done file: the boot was interrupted): %u "
		    "files, %llu bytes, %s",
		    dest, files, b->bytes, runs);
	}
	return 0;
}

/* `.NNNN-BOOTID.tmp-PID` folders that a collect killed while copying (SIGKILL, a power cut)
 * left in DIR: removed when PID is no process any more. A live PID's is another collect at
 * work there (or a PID reused since: left for a later collect). Only a folder collect names
 * so is touched; none is ever a boot folder compare reads (it skips names with a dot). */
static void rm_stale_tmp(const struct collect_opts *o, int outfd)
{
	int fd = dup(outfd);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		char name[256], *end;
		const char *n = de->d_name, *t = NULL;
		for (const char *q = n; (q = strstr(q, ".tmp-")); q++)
			t = q;
		if (n[0] != '.' || !t || t == n || (size_t)(t - n) >= sizeof(name))
			continue;
		long pid = strtol(t + 5, &end, 10);
		if (end == t + 5 || *end || pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(t - n - 1), n + 1);
		if (!bb_collect_is_boot_name(name) || !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		if (!rm_tree_at(outfd, n, 0))
			bb_collect_msgf(o,
			                "%s: removed %s/%s, left by a collect that was interrupted",
			                name, o->outdir, n);
	}
	closedir(d);
}

static int open_outdir(const struct collect_opts *o)
{
	if (mkdir(o->outdir, 0755) && errno != EEXIST)
		return -errno;
	int fd = open(o->outdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rm_stale_tmp(o, fd);
	return fd;
}

/* ---- from a disk ---- */

struct dentry {
	char *name;
	enum resdisk_type type;
	uint64_t size;
	uint32_t ino;
};

struct dlist {
	struct dentry *v;
	size_t n, cap;
};

static int add_dentry(const struct resdisk_entry *e, void *ctx)
{
	struct dlist *l = ctx;
	if (l->n >= MAX_ENTRIES)
		return -E2BIG;
	if (bb_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)))
		return -ENOMEM;
	if (!(l->v[l->n].name = strdup(e->name)))
		return -ENOMEM;
	l->v[l->n].type = e->type;
	l->v[l->n].size = e->size;
	l->v[l->n].ino = e->ino;
	l->n++;
	return 0;
}

static int cmp_dentry(const void *a, const void *b)
{
	return strcmp(((const struct dentry *)a)->name, ((const struct dentry *)b)->name);
}

static void free_dlist(struct dlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
}

struct disk_walk {
	const struct collect_opts *o;
	struct resdisk *d;
	struct boot *b;
	uint64_t max;
	unsigned entries;
};

static void refuse(struct disk_walk *w, const char *rel, const char *why)
{
	bb_collect_msgf(w->o, "%s: refusing %s: %s", w->b->name, rel, why);
	w->b->problems++;
}

static int copy_disk_file(struct disk_walk *w, const char *diskpath, const char *rel, int dirfd,
                          const char *name, uint64_t size)
{
	struct sink s = {.fd = -1};
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	s.fd = fd;
	bb_sha256_init(&s.sha);
	int keep = !strcmp(rel, "done");
	if (keep) {
		s.keep_cap = size < MAX_DONE ? size + 1 : MAX_DONE;
		if (!(s.keep = malloc(s.keep_cap))) {
			close(fd);
			return -ENOMEM;
		}
	}
	int r = bb_resdisk_read(w->d, diskpath, w->max, sink_write, &s);
	if (!r && s.len != size)
		r = -EIO;
	if (close(fd) && !r)
		r = -errno;
	if (r) {
		unlinkat(dirfd, name, 0);
		bb_collect_msgf(w->o, "%s: %s: unreadable, not collected: %s", w->b->name, rel,
		                bb_resdisk_strerror(r));
		w->b->problems++;
		free(s.keep);
		return 0;
	}
	unsigned char dig[SHA256_DIGEST_LEN];
	struct seen *sn = boot_seen(w->b, rel);
	if (!sn) {
		free(s.keep);
		return -ENOMEM;
	}
	bb_sha256_final(&s.sha, dig);
	bb_sha256_to_hex(dig, sn->sha);
	sn->size = s.len;
	w->b->bytes += s.len;
	if (keep) {
		free(w->b->done);
		w->b->done = s.keep;
		w->b->done_len = s.keep_len;
	}
	return 0;
}

static int walk_disk(struct disk_walk *w, const char *diskpath, const char *rel, int dirfd,
                     int depth)
{
	struct dlist l = {0};
	int r = bb_resdisk_list(w->d, diskpath, add_dentry, &l);
	if (r) {
		bb_collect_msgf(w->o, "%s: %s: unreadable folder, skipped: %s", w->b->name,
		                *rel ? rel : ".", bb_resdisk_strerror(r));
		w->b->problems++;
		free_dlist(&l);
		return r == -ENOMEM ? r : 0;
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_dentry);
	for (size_t i = 0; i < l.n && !r; i++) {
		const struct dentry *e = &l.v[i];
		char sub[4352], subdisk[4352];
		if (++w->entries > MAX_ENTRIES) {
			refuse(w, rel, "too many entries");
			r = -E2BIG;
			break;
		}
		const char *bad = bb_collect_bad_name(e->name);
		if (snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", e->name) >=
		        (int)sizeof(sub) ||
		    snprintf(subdisk, sizeof(subdisk), "%s/%s", diskpath, e->name) >=
		        (int)sizeof(subdisk)) {
			refuse(w, rel, "a path longer than 4000 bytes");
			continue;
		}
		if (bad && !strncmp(e->name, RESDISK_TMP_PREFIX, strlen(RESDISK_TMP_PREFIX)) &&
		    !bb_collect_bad_name(e->name + strlen(RESDISK_TMP_PREFIX))) {
			/* the writer's temporary: quiet when it is the final file under a second
			 * name, or an old version (both left by a crash) */
			const char *fin = e->name + strlen(RESDISK_TMP_PREFIX);
			int has_final = 0;
			for (size_t k = 0; k < l.n && !has_final; k++)
				has_final = !strcmp(l.v[k].name, fin);
			if (!has_final)
				bb_collect_msgf(
				    w->o, "%s: %s: a write the boot did not finish, not collected",
				    w->b->name, sub);
			continue;
		}
		if (bad) {
			char shown[300];
			printable(sub, shown, sizeof(shown));
			refuse(w, shown, bad);
			continue;
		}
		switch (e->type) {
		case RESDISK_T_SYMLINK:
			refuse(w, sub, "a symbolic link (it could point outside the folder)");
			break;
		case RESDISK_T_OTHER:
			refuse(w, sub, "a device, fifo or socket, or an unreadable inode");
			break;
		case RESDISK_T_FILE:
			if (e->size > w->max) {
				char why[128];
				snprintf(why, sizeof(why),
				         "too large (%llu bytes; the limit is %llu)",
				         (unsigned long long)e->size, (unsigned long long)w->max);
				refuse(w, sub, why);
				break;
			}
			r = copy_disk_file(w, subdisk, sub, dirfd, e->name, e->size);
			break;
		case RESDISK_T_DIR: {
			if (depth >= MAX_DEPTH) {
				refuse(w, sub, "folders nested too deep");
				break;
			}
			if (mkdirat(dirfd, e->name, 0755) && errno != EEXIST) {
				r = -errno;
				break;
			}
			int fd =
			    openat(dirfd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0) {
				r = -errno;
				break;
			}
			r = walk_disk(w, subdisk, sub, fd, depth + 1);
			close(fd);
			break;
		}
		}
	}
	free_dlist(&l);
	return r;
}

struct results_part {
	int fd;
	const char *disk;
	char *out;
	size_t outlen;
	unsigned *partno;
};

/* A partition holding an ext4 file system labelled as a benchboot results disk: 1, else 0. */
static int is_results_part(void *ctx, unsigned partno, const struct gpt_partition *p)
{
	struct results_part *rp = ctx;
	unsigned char sb[1024];
	if (pread(rp->fd, sb, sizeof(sb), (off_t)(p->first_lba * GPT_SECTOR + 1024)) !=
	    (ssize_t)sizeof(sb))
		return 0;
	if (sb[56] != 0x53 || sb[57] != 0xef || strncmp((char *)sb + 120, RESDISK_LABEL, 16))
		return 0;
	snprintf(rp->out, rp->outlen, "%s?offset=%llu", rp->disk,
	         (unsigned long long)(p->first_lba * GPT_SECTOR));
	*rp->partno = partno;
	return 1;
}

int bb_collect_find_gpt_results(const char *disk, char *out, size_t outlen, unsigned *partno)
{
	struct results_part rp = {open(disk, O_RDONLY | O_CLOEXEC), disk, out, outlen, partno};
	*partno = 0;
	if (rp.fd < 0)
		return -errno;
	int r = bb_gpt_read(rp.fd, is_results_part, &rp);
	close(rp.fd);
	return r < 0 ? r : 0;
}

/*
 * An image file that cannot be a whole results disk: empty, or shorter than the ext2/3/4
 * filesystem its superblock describes (a copy cut short). The sentence into why, -EMEDIUMTYPE;
 * else 0 (a device, a partition at an offset, a whole file, no superblock: bb_resdisk_open says).
 */
static int image_cut_short(const char *disk, char *why, size_t len)
{
	struct stat sb;
	unsigned char super[1024];
	if (strchr(disk, '?') || stat(disk, &sb) || !S_ISREG(sb.st_mode))
		return 0;
	if (!sb.st_size) {
		snprintf(why, len,
		         "the image is empty (0 bytes): a results disk holds an ext4 "
		         "filesystem (benchboot mkdisk makes one)");
		return -EMEDIUMTYPE;
	}
	int fd = open(disk, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : pread(fd, super, sizeof(super), 1024);
	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(super) || super[56] != 0x53 || super[57] != 0xef)
		return 0; /* no ext2/3/4 superblock whole: not a results disk, said by the open */
	unsigned long long blocks =
	    (unsigned long long)super[4] | (unsigned long long)super[5] << 8 |
	    (unsigned long long)super[6] << 16 | (unsigned long long)super[7] << 24;
	unsigned log = (unsigned)super[24] | (unsigned)super[25] << 8;
	if (log > 6)
		return 0;
	unsigned long long want = blocks << (10 + log);
	if ((unsigned long long)sb.st_size >= want)
		return 0;
	snprintf(why, len,
	         "the image is truncated: %lld bytes, its filesystem has %llu (a copy cut short? "
	         "copy the whole disk again)",
	         (long long)sb.st_size, want);
	return -EMEDIUMTYPE;
}

int bb_collect_disk(const char *disk, const struct collect_opts *o, struct collect_stats *st)
{
	struct resdisk *d;
	struct dlist boots = {0};
	char source[128];
	int r = image_cut_short(disk, st->why, sizeof(st->why));
	if (r || (r = bb_resdisk_open(disk, RESDISK_READ, &d)))
		return r;
	if (bb_resdisk_backup_superblock(d)) {
		bb_collect_msgf(
		    o, "%s: the primary superblock is damaged: reading with the backup at block %u",
		    disk, bb_resdisk_backup_superblock(d));
		st->problems++;
	}
	if (!*bb_resdisk_id(d)) {
		struct resdisk_entry e;
		int mr = bb_resdisk_marker_error(d);
		if (mr != -EMEDIUMTYPE) { /* said once, by the caller: the marker unreadable */
			bb_resdisk_close(d);
			return mr;
		}
		if ((r = bb_resdisk_stat(d, RESDISK_BOOTS, &e)) || e.type != RESDISK_T_DIR) {
			bb_resdisk_close(d);
			return r && r != -ENOENT ? r : -EMEDIUMTYPE;
		}
		bb_collect_msgf(
		    o, "%s: no valid benchboot marker, but a boots folder: collecting it", disk);
		st->problems++;
	}
	if (bb_resdisk_unclean(d))
		bb_collect_msgf(o,
		                "%s: not closed cleanly (a boot was interrupted, or the disk needs "
		                "`e2fsck -p`): collecting what is there",
		                disk);
	snprintf(source, sizeof(source), "disk %s",
	         *bb_resdisk_id(d) ? bb_resdisk_id(d) : "unmarked");

	int outfd = open_outdir(o);
	if (outfd < 0) {
		bb_resdisk_close(d);
		return outfd;
	}
	if ((r = bb_resdisk_list(d, RESDISK_BOOTS, add_dentry, &boots))) {
		bb_collect_msgf(o, "%s: cannot read the boots folder: %s", disk,
		                bb_resdisk_strerror(r));
		r = r == -ENOMEM ? r : -EUCLEAN;
		goto out;
	}
	if (boots.n)
		qsort(boots.v, boots.n, sizeof(*boots.v), cmp_dentry);
	for (size_t i = 0; i < boots.n && !r; i++) {
		const struct dentry *e = &boots.v[i];
		struct boot b;
		char diskpath[512];
		if (!bb_collect_is_boot_name(e->name) || e->type != RESDISK_T_DIR) {
			if (!strncmp(e->name, RESDISK_TMP_PREFIX, strlen(RESDISK_TMP_PREFIX)))
				continue;
			const char *bad = bb_collect_bad_name(e->name);
			char shown[80];
			printable(e->name, shown, sizeof(shown));
			bb_collect_msgf(o, "boots: refusing %s: %s", shown,
			                bad ? bad
			                : e->type != RESDISK_T_DIR
			                    ? "not a folder"
			                    : "not a boot folder name (NNNN-BOOTID)");
			st->problems++;
			continue;
		}
		if (!boot_wanted(o, outfd, e->name, st))
			continue;
		if ((r = boot_begin(o, outfd, e->name, &b)))
			break;
		snprintf(diskpath, sizeof(diskpath), "%s/%s", RESDISK_BOOTS, e->name);
		struct disk_walk w = {o, d, &b, o->max_file_size ? o->max_file_size : (1ULL << 30),
		                      0};
		r = walk_disk(&w, diskpath, "", b.fd, 0);
		if (!r)
			r = boot_finish(o, outfd, &b, source, st);
		if (r)
			rm_tree_at(outfd, b.tmp, 0);
		boot_free(&b);
	}
out:
	free_dlist(&boots);
	close(outfd);
	bb_resdisk_close(d);
	return r;
}

/* ---- from a console log ---- */

struct cons_ctx {
	const char *log; /* the console log, for the line of a loss */
	struct consfile_parser *p;
	const struct collect_opts *o;
	struct collect_stats *st;
	int outfd;
	struct boot *boots;
	size_t n, cap;
	int fatal;
};

static struct boot *cons_boot(struct cons_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->boots[i].name, name))
			return &c->boots[i];
	if (bb_grow(&c->boots, &c->cap, c->n + 1, sizeof(*c->boots)))
		return NULL;
	struct boot *b = &c->boots[c->n];
	if (!boot_wanted(c->o, c->outfd, name, c->st)) {
		memset(b, 0, sizeof(*b));
		b->fd = -1;
		b->skip = 1;
		snprintf(b->name, sizeof(b->name), "%s", name);
	} else {
		int r = boot_begin(c->o, c->outfd, name, b);
		if (r) {
			c->fatal = r;
			return NULL;
		}
	}
	c->n++;
	return b;
}

static int cons_file(const struct consfile_file *f, void *ctx)
{
	struct cons_ctx *c = ctx;
	const char *bad;
	if (!bb_collect_is_boot_name(f->bootdir)) {
		char shown[100];
		printable(f->bootdir, shown, sizeof(shown));
		bb_collect_msgf(c->o, "console: refusing boot folder name '%s': not NNNN-BOOTID",
		                shown);
		c->st->problems++;
		return 0;
	}
	struct boot *b = cons_boot(c, f->bootdir);
	if (!b)
		return c->fatal ? c->fatal : -ENOMEM;
	if (b->skip)
		return 0;
	if ((bad = collect_bad_path(f->path))) {
		char shown[300];
		printable(f->path, shown, sizeof(shown));
		bb_collect_msgf(c->o, "%s: refusing %s: %s", b->name, shown, bad);
		b->problems++;
		return 0;
	}
	uint64_t max = c->o->max_file_size ? c->o->max_file_size : (1ULL << 30);
	if (f->len > max) {
		bb_collect_msgf(c->o, "%s: refusing %s: too large (%zu bytes)", b->name, f->path,
		                f->len);
		b->problems++;
		return 0;
	}
	const char *base = NULL;
	int dfd = open_parent(b->fd, f->path, &base);
	if (dfd < 0) {
		bb_collect_msgf(c->o, "%s: %s: cannot create its folder: %s", b->name, f->path,
		                strerror(-dfd));
		b->problems++;
		return 0;
	}
	int fd = openat(dfd, base, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	int r = fd < 0 ? -errno : write_all(fd, f->data, f->len);
	if (fd >= 0 && close(fd) && !r)
		r = -errno;
	close(dfd);
	if (r)
		return r;
	struct seen *s = boot_seen(b, f->path);
	if (!s)
		return -ENOMEM;
	b->bytes = b->bytes - s->size + f->len;
	s->size = f->len;
	snprintf(s->sha, sizeof(s->sha), "%s", f->sha256);
	if (!strcmp(f->path, "done")) {
		free(b->done);
		b->done = malloc(f->len + 1);
		if (!b->done)
			return -ENOMEM;
		memcpy(b->done, f->data, f->len);
		b->done_len = f->len;
	}
	return 0;
}

static void cons_error(const char *bootdir, const char *path, const char *why, void *ctx)
{
	struct cons_ctx *c = ctx;
	unsigned long line = c->p ? bb_consfile_line(c->p) : 0;
	if (!strcmp(bootdir, "?"))
		bb_collect_msgf(c->o, "%.300s:%lu: a file lost on the console: %s", c->log, line,
		                why);
	else
		bb_collect_msgf(c->o, "%.300s:%lu: %.100s: %.300s: lost on the console: %s", c->log,
		                line, bootdir, path, why);
	c->st->problems++;
}

int bb_collect_console(const char *log, const struct collect_opts *o, struct collect_stats *st)
{
	struct cons_ctx c = {.log = strcmp(log, "-") ? log : "stdin", .o = o, .st = st};
	char buf[65536];
	int r = 0;
	int fd = strcmp(log, "-") ? open(log, O_RDONLY | O_CLOEXEC) : dup(0);
	if (fd < 0)
		return -errno;
	if ((c.outfd = open_outdir(o)) < 0) {
		close(fd);
		return c.outfd;
	}
	struct consfile_parser *p = bb_consfile_parser_new(cons_file, cons_error, &c);
	c.p = p;
	if (!p) {
		r = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0) {
			r = bb_consfile_finish(p);
			break;
		}
		if ((r = bb_consfile_feed(p, buf, (size_t)n)))
			break;
	}
	unsigned ok, bad;
	bb_consfile_counts(p, &ok, &bad);
	bb_consfile_parser_free(p);
	for (size_t i = 0; i < c.n; i++) {
		struct boot *b = &c.boots[i];
		if (!r && !b->skip) {
			r = boot_finish(o, c.outfd, b, "console", st);
			if (r)
				rm_tree_at(c.outfd, b->tmp, 0);
		} else if (!b->skip) {
			rm_tree_at(c.outfd, b->tmp, 0);
		}
		boot_free(b);
	}
	if (!r && !ok && !bad)
		r = -EMEDIUMTYPE;
out:
	free(c.boots);
	close(c.outfd);
	close(fd);
	return r;
}

int bb_collect_repair_disk(const char *disk, int *fsck_exit)
{
	static const char *const dirs[] = {"/sbin", NULL};
	char *argv[] = {"e2fsck", "-p", (char *)disk, NULL};
	struct bb_tool t = {.argv = argv, .dirs = dirs, .out = BB_TOOL_TO_STDERR};
	int status, r = bb_tool_run(&t, &status, NULL, 0);
	if (r)
		return r;
	if (!WIFEXITED(status))
		return -ENOEXEC;
	*fsck_exit = WEXITSTATUS(status);
	return 0;
}

int bb_collect_env_ids_read(const char *path, struct collect_env_ids *ids)
{
	char err[256], b[256];
	memset(ids, 0, sizeof(*ids));
	struct jn *env = bb_jn_parse_file(path, err, sizeof(err));
	if (!env)
		return -EINVAL;
	const struct jn *c = bb_jn_get(env, "cluster");
	const char *v;
	if (c && c->type == JN_OBJ && (v = bb_jn_scalar_text(bb_jn_get(c, "role"), b, sizeof(b))))
		snprintf(ids->role, sizeof(ids->role), "%s", v);
	if (c && c->type == JN_OBJ && (v = bb_jn_scalar_text(bb_jn_get(c, "name"), b, sizeof(b))))
		snprintf(ids->cluster, sizeof(ids->cluster), "%s", v);
	if ((v = bb_jn_scalar_text(bb_jn_get(env, "boot_id"), b, sizeof(b))))
		snprintf(ids->boot_id, sizeof(ids->boot_id), "%s", v);
	if ((v = bb_jn_scalar_text(bb_jn_get(env, "plan_digest"), b, sizeof(b))))
		snprintf(ids->plan, sizeof(ids->plan), "%s", v);
	bb_jn_free(env);
	return 0;
}

const char *bb_collect_boot_role(const char *bootdir, const char *fallback, char *role, size_t len)
{
	char path[PATH_MAX];
	struct collect_env_ids ids;
	if (snprintf(path, sizeof(path), "%s/env.json", bootdir) < (int)sizeof(path) &&
	    !bb_collect_env_ids_read(path, &ids))
		snprintf(role, len, "%s", ids.role);
	else
		snprintf(role, len, "%s", fallback ? fallback : "");
	return role;
}
