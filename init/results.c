/*
 * The init's side of the results: the boot folder on the results disk, synced after each run,
 * and the console encoding for labs where only the console comes back. See results.h and
 * docs/results.md.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "console_proto.h"
#include "results/consfile.h"
#include "readall.h"
#include "results/resdisk.h"
#include "results/resfind.h"
#include "results.h"
#include "sha256.h"
#include "grow.h"

/* The init's console (console.c) when linked in; plain stdout otherwise (host tests). */
extern void say(const char *fmt, ...) __attribute__((weak, format(printf, 1, 2)));
extern void console_raw(const char *s) __attribute__((weak));
extern void machine(const char *fmt, ...) __attribute__((weak, format(printf, 1, 2)));

#define MAX_DEPTH 16

struct synced {
	char *path; /* relative to the boot folder */
	off_t size;
	struct timespec mtime;
	ino_t ino;
	char sha[SHA256_HEX_LEN + 1];
	int on_disk;
	int nospace; /* not written for a full disk: retried last, without failing a later sync */
};

static struct {
	struct resdisk *disk;
	char bootdir[128];
	char *localdir;
	int dumped; /* something went to the console: `done` goes there too */
	int last_dump;
	struct synced *files;
	size_t n, cap;
	/* No disk at results_open: look once more at the first sync, when the init has loaded
	 * its modules (a disk driver loaded after results_open). */
	int look_again;
	char *root, boot_id[65];
	/* Given up after an I/O error (disk_fault): never written or closed again. */
	struct resdisk *failed;
} rs;

static void out_raw(const char *s, size_t len)
{
	if (console_raw) {
		console_raw(s);
		return;
	}
	while (len) {
		ssize_t n = write(1, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

/* A line to the console as the init's own: "benchboot: LINE". */
static void say_line(const char *line)
{
	if (say) {
		say("%s", line);
		return;
	}
	char full[1200];
	int n = snprintf(full, sizeof(full), "benchboot: %s\n", line);
	out_raw(full, n < (int)sizeof(full) ? (size_t)n : sizeof(full) - 1);
}

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
	char line[1100] = "results: ";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line + 9, sizeof(line) - 9, fmt, ap);
	va_end(ap);
	say_line(line);
}

static void find_log(void *ctx, const char *line)
{
	report("%s", line);
}

static const char *errno_name(int err, char *buf, size_t len)
{
	if (err == -EIO)
		return "EIO";
	snprintf(buf, len, "errno%d", -err);
	return buf;
}

/* What a file of the boot folder is, for a message: "iteration I of RUN", "the results of RUN". */
static void describe(const char *path, char *buf, size_t len)
{
	char run[256];
	const char *p;
	*buf = 0;
	if (!path || strncmp(path, "runs/", 5) || !(p = strchr(path + 5, '/')))
		return;
	snprintf(run, sizeof(run), "%.*s", (int)(p - path - 5), path + 5);
	p++;
	if (!strcmp(p, "results.json"))
		snprintf(buf, len, " (the results of %s)", run);
	else if (!strncmp(p, "warmup-", 7) && strchr(p, '/'))
		snprintf(buf, len, " (warm-up %.*s of %s)", (int)(strchr(p, '/') - p - 7), p + 7,
		         run);
	else if (!strncmp(p, "monitored-", 10) && strchr(p, '/'))
		snprintf(buf, len, " (monitored iteration %.*s of %s)",
		         (int)(strchr(p, '/') - p - 10), p + 10, run);
	else if (strchr(p, '/'))
		snprintf(buf, len, " (iteration %.*s of %s)", (int)(strchr(p, '/') - p), p, run);
}

/*
 * An I/O error on the results disk (docs/results.md, "Disk I/O errors"), while `doing`
 * (writing path, flushing after path, closing; path: a file of the boot folder, or NULL): said on
 * the console, a human line and BB_CON_RESULTS_DISK_ERROR; the disk is given up: nothing more is
 * written to it (what the earlier syncs put there stays, the disk is left marked not clean,
 * as after a crash), and every file of the boot folder goes to the console from then on (all
 * of them again at the next sync: the console then holds the whole boot, as after the writer's
 * death). A full disk is not a fault (it has its own handling).
 */
static int disk_fault(int err, const char *doing, const char *path)
{
	char buf[32], what[512], line[1024];
	if (err != -EIO || !rs.disk)
		return 0;
	const char *name = errno_name(err, buf, sizeof(buf)), *reason = strerror(-err);
	describe(path, what, sizeof(what));
	snprintf(line, sizeof(line),
	         "results disk: I/O error (%s) while %s%s%s: the results disk is given up (what "
	         "was synced before stays there), every result from now on goes to the console",
	         name,
	         !strcmp(doing, "writing") ? "writing "
	         : !strcmp(doing, "flushing")
	             ? (path ? "flushing the disk after writing " : "flushing the disk")
	             : "closing the disk",
	         path ? path : "", what);
	say_line(line);
	if (machine) {
		machine(BB_CON_RESULTS_DISK_ERROR " errno=%s while=%s path=%s reason=%s", name,
		        doing, path ? path : "-", reason);
	} else {
		snprintf(line, sizeof(line),
		         BB_CON_PREFIX BB_CON_RESULTS_DISK_ERROR " errno=%s while=%s path=%s "
		                                                 "reason=%s\n",
		         name, doing, path ? path : "-", reason);
		out_raw(line, strlen(line));
	}
	if (rs.disk != rs.failed)
		rs.failed = rs.disk; /* left open, untouched: closing it would write to it */
	rs.disk = NULL;
	rs.look_again = 0;
	for (size_t i = 0; i < rs.n; i++) {
		rs.files[i].on_disk = 0;
		rs.files[i].mtime.tv_sec = -1; /* to the console at the next sync */
	}
	return 1;
}

/*
 * benchboot.debug.disk_stat=1 on the kernel command line: a line `BENCHBOOT disk-stat at=WHEN
 * sync=K writes=W flushes=F` at the start and the end of each sync and around the close, W and
 * F the write and flush requests completed so far by the virtio disks (/proc/diskstats), for
 * tests that put their faults at points of a real boot (tests/qemu/results-disk-faults.sh).
 */
static void disk_stat(const char *at)
{
	static int on = -1, nsync;
	if (on < 0) {
		char line[4096] = "";
		FILE *f = fopen("/proc/cmdline", "re");
		if (f) {
			if (!fgets(line, sizeof(line), f))
				line[0] = 0;
			fclose(f);
		}
		on = strstr(line, "benchboot.debug.disk_stat=1") != NULL;
	}
	if (!on || !machine || !rs.disk)
		return;
	if (!strcmp(at, "sync-start"))
		nsync++;
	unsigned long long writes = 0, flushes = 0;
	FILE *f = fopen("/proc/diskstats", "re");
	char l[512];
	while (f && fgets(l, sizeof(l), f)) {
		char name[64];
		unsigned long long v[17] = {0};
		int n =
		    sscanf(l,
		           "%*u %*u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
		           "%llu %llu %llu %llu %llu %llu",
		           name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
		           &v[9], &v[10], &v[11], &v[12], &v[13], &v[14], &v[15], &v[16]);
		/* whole virtio disks: writes completed (the 5th value), flushes completed (the
		 * 16th, after the four of discards) */
		if (n < 6 || strncmp(name, "vd", 2) ||
		    strspn(name + 2, "abcdefghijklmnopqrstuvwxyz") != strlen(name + 2))
			continue;
		writes += v[4];
		flushes += n >= 17 ? v[15] : 0;
	}
	if (f)
		fclose(f);
	machine(BB_CON_DISK_STAT " at=%s sync=%d writes=%llu flushes=%llu", at, nsync, writes,
	        flushes);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int valid_boot_id(const char *id)
{
	size_t n = strlen(id);
	if (!n || n > 64 || id[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = id[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

static int highest_seq(const struct resdisk_entry *e, void *ctx)
{
	unsigned long *max = ctx;
	char *end;
	if (e->name[0] < '0' || e->name[0] > '9')
		return 0;
	unsigned long v = strtoul(e->name, &end, 10);
	if (*end == '-' && v > *max)
		*max = v;
	return 0;
}

const char *results_bootdir(void)
{
	return rs.bootdir;
}

int results_disk_open(void)
{
	return rs.disk != NULL;
}

void results_console_only(const char *bootdir)
{
	snprintf(rs.bootdir, sizeof(rs.bootdir), "%s", bootdir);
	rs.look_again = 0;
}

int results_wait_for_disk(const char *root, int seconds)
{
	struct resfind_disk disks[1];
	const struct timespec tick = {0, 200 * 1000 * 1000};
	double deadline = now_ms() + seconds * 1e3, t0 = now_ms();
	struct resfind_ops ops = resfind_real_ops;
	ops.label_only = 1; /* the marker is read once, by results_open */

	if (bb_resfind_scan(root, &ops, disks, 1) > 0)
		return 1;
	report("no results disk yet: waiting up to %d s for one to appear", seconds);
	while (now_ms() < deadline) {
		nanosleep(&tick, NULL);
		if (bb_resfind_scan(root, &ops, disks, 1) > 0) {
			report("results disk %s appeared after %.1f s", disks[0].name,
			       (now_ms() - t0) / 1e3);
			return 1;
		}
	}
	return 0;
}

/* No disk (yet): console only; look once more at the first sync (a driver loaded late). */
static int no_disk(const char *root, const char *boot_id)
{
	if (rs.look_again < 0) {
		report("still no results disk: results go to the console only");
		return -ENODEV;
	}
	report("no results disk: results go to the console only");
	free(rs.root);
	if ((rs.root = strdup(root))) {
		snprintf(rs.boot_id, sizeof(rs.boot_id), "%s", boot_id);
		rs.look_again = 1;
	}
	return -ENODEV;
}

int results_open(const char *root, const char *boot_id)
{
	struct resfind_disk disks[8];
	struct resfind_ops ops = resfind_real_ops;
	char path[256];
	unsigned long seq = 0;
	int r;

	if (!valid_boot_id(boot_id)) {
		report("invalid boot id '%s': results go to the console only", boot_id);
		snprintf(rs.bootdir, sizeof(rs.bootdir), "0000-invalid");
		return -EINVAL;
	}
	snprintf(rs.bootdir, sizeof(rs.bootdir), "0000-%s", boot_id);
	ops.log = find_log;
	ops.label_only = 1; /* each candidate is opened once, below, and its marker read there */
	r = bb_resfind_scan(root, &ops, disks, 8);
	if (r < 0) {
		report("cannot scan block devices: %s: results go to the console only",
		       strerror(-r));
		return r;
	}
	if (r == 0)
		return no_disk(root, boot_id);
	/* the first labelled disk whose marker is valid (read through its one open) */
	int n = r < 8 ? r : 8, at;
	for (at = 0; at < n; at++) {
		r = bb_resdisk_open(disks[at].path, RESDISK_WRITE, &rs.disk);
		if (r != -EMEDIUMTYPE)
			break;
		report("%s: labelled %s but no valid marker: not a benchboot disk", disks[at].name,
		       RESDISK_LABEL);
	}
	if (at == n)
		return no_disk(root, boot_id);
	const struct resfind_disk *disk = &disks[at];
	if (r == -EUCLEAN) {
		report("results disk %s was not closed cleanly (an interrupted boot?): "
		       "collect it and run `e2fsck -p` on it on the host; results go to the "
		       "console only",
		       disk->name);
		return r;
	}
	if (r) {
		report("cannot open results disk %s: %s: results go to the console only",
		       disk->name, bb_resdisk_strerror(r));
		return r;
	}
	if (at + 1 < n)
		report("%d disks labelled %s: using %s (id %s)", n - at, RESDISK_LABEL, disk->name,
		       bb_resdisk_id(rs.disk));
	if ((r = bb_resdisk_list(rs.disk, RESDISK_BOOTS, highest_seq, &seq)) == -ENOENT)
		r = bb_resdisk_mkdir_p(rs.disk, RESDISK_BOOTS);
	if (!r) {
		snprintf(rs.bootdir, sizeof(rs.bootdir), "%04lu-%s", seq + 1, boot_id);
		snprintf(path, sizeof(path), "%s/%s", RESDISK_BOOTS, rs.bootdir);
		r = bb_resdisk_mkdir_p(rs.disk, path);
	}
	if (!r)
		r = bb_resdisk_flush(rs.disk);
	if (r) {
		report("results disk %s: cannot create the boot folder: %s: results go to the "
		       "console only",
		       disk->name, bb_resdisk_strerror(r));
		bb_resdisk_close(rs.disk);
		rs.disk = NULL;
		snprintf(rs.bootdir, sizeof(rs.bootdir), "0000-%s", boot_id);
		return r;
	}
	report("results disk %s (id %s): boot folder %s", disk->name, bb_resdisk_id(rs.disk),
	       rs.bootdir);
	return 0;
}

/* Collect the regular files under dir (relative names) into *v, but top-level skip. */
static int walk(const char *top, const char *rel, int depth, const char *skip, char ***v, size_t *n,
                size_t *cap)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s%s%s", top, *rel ? "/" : "", rel);
	if (depth > MAX_DEPTH)
		return -ELOOP;
	DIR *d = opendir(path);
	if (!d)
		return -errno;
	struct dirent *de;
	int r = 0;
	while ((de = readdir(d))) {
		struct stat st;
		char sub[4096];
		if (de->d_name[0] == '.')
			continue; /* also keeps the disk's temporary names out */
		if (snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", de->d_name) >=
		        (int)sizeof(sub) ||
		    snprintf(path, sizeof(path), "%s/%s", top, sub) >= (int)sizeof(path) ||
		    lstat(path, &st))
			continue;
		if (!*rel && (!strcmp(de->d_name, "done") || (skip && !strcmp(de->d_name, skip))))
			continue; /* done: written by results_finish */
		if (S_ISDIR(st.st_mode)) {
			if ((r = walk(top, sub, depth + 1, NULL, v, n, cap)))
				break;
		} else if (S_ISREG(st.st_mode)) {
			if (bb_grow(v, cap, *n + 1, sizeof(**v))) {
				r = -ENOMEM;
				break;
			}
			if (!((*v)[*n] = strdup(sub))) {
				r = -ENOMEM;
				break;
			}
			(*n)++;
		}
	}
	closedir(d);
	return r;
}

/* results.json marks a finished run: it goes to the disk after the run's other files. */
static int sync_order(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	const char *bx = strrchr(x, '/'), *by = strrchr(y, '/');
	int rx = !strcmp(bx ? bx + 1 : x, "results.json");
	int ry = !strcmp(by ? by + 1 : y, "results.json");
	if (rx != ry)
		return rx - ry;
	return strcmp(x, y);
}

static struct synced *find_synced(const char *path)
{
	for (size_t i = 0; i < rs.n; i++)
		if (!strcmp(rs.files[i].path, path))
			return &rs.files[i];
	return NULL;
}

static struct synced *add_synced(const char *path)
{
	if (bb_grow(&rs.files, &rs.cap, rs.n + 1, sizeof(*rs.files)))
		return NULL;
	struct synced *s = &rs.files[rs.n];
	memset(s, 0, sizeof(*s));
	if (!(s->path = strdup(path)))
		return NULL;
	rs.n++;
	return s;
}

static void console_line(const char *line, size_t len, void *ctx)
{
	out_raw(line, len);
}

static int read_all(const char *path, char **data, size_t *len, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int r = 0;
	if (fstat(fd, st))
		r = -errno;
	else
		r = bb_read_fd(fd, data, len);
	close(fd);
	return r;
}

/* Write one file to the boot folder (making its parent folders). */
static int write_to_disk(const char *rel, const char *data, size_t len)
{
	char path[4096];
	int r;
	const char *slash = strrchr(rel, '/');
	if (slash) {
		snprintf(path, sizeof(path), "%s/%s/%.*s", RESDISK_BOOTS, rs.bootdir,
		         (int)(slash - rel), rel);
		if ((r = bb_resdisk_mkdir_p(rs.disk, path)))
			return r;
	}
	snprintf(path, sizeof(path), "%s/%s/%s", RESDISK_BOOTS, rs.bootdir, rel);
	return bb_resdisk_write_buf(rs.disk, path, data, len);
}

int results_sync(const char *localdir, int dump_console)
{
	return results_sync_except(localdir, dump_console, NULL);
}

/* One sync's tally: its first error, whether the disk filled or failed, what it wrote. */
struct sync_pass {
	int first, disk_full, fault, dump;
	size_t nfiles, nskipped;
	unsigned long long bytes;
	const char *last; /* the last file written */
};

/* One file of localdir to the disk (and the console when dumping), unless it is as synced
 * before; retry: the pass over the files a full disk kept out at an earlier sync. */
static void sync_file(struct sync_pass *p, const char *localdir, const char *name, int retry)
{
	char full[4096], *data = NULL;
	size_t len = 0;
	struct stat st;
	int r;
	snprintf(full, sizeof(full), "%s/%s", localdir, name);
	if (lstat(full, &st) || !S_ISREG(st.st_mode))
		return;
	struct synced *s = find_synced(name);
	if ((s && s->nospace) != retry)
		return;
	if (s && s->size == st.st_size && s->ino == st.st_ino &&
	    s->mtime.tv_sec == st.st_mtim.tv_sec && s->mtime.tv_nsec == st.st_mtim.tv_nsec &&
	    (s->on_disk || !rs.disk))
		return;
	if ((r = read_all(full, &data, &len, &st))) {
		report("cannot read %s: %s", full, strerror(-r));
		if (!p->first)
			p->first = r;
		return;
	}
	if (!s && !(s = add_synced(name))) {
		free(data);
		p->first = p->first ? p->first : -ENOMEM;
		return;
	}
	bb_sha256_hex(data, len, s->sha);
	s->size = (off_t)len;
	s->ino = st.st_ino;
	s->mtime = st.st_mtim;
	s->on_disk = 0;
	if (rs.disk &&
	    (p->disk_full || (retry && (unsigned long long)len > bb_resdisk_free_bytes(rs.disk)))) {
		s->nospace = 1;
		p->nskipped++;
	} else if (rs.disk) {
		r = write_to_disk(name, data, len);
		if (r && (p->fault = disk_fault(r, "writing", name))) {
			free(data);
			return; /* all of this sync goes to the console (results_sync_except) */
		}
		if (r) {
			report("writing %s/%s failed: %s%s", rs.bootdir, name,
			       bb_resdisk_strerror(r), retry ? " (again)" : "");
			if (!p->first && !(retry && r == -ENOSPC))
				p->first = r;
			s->nospace = r == -ENOSPC;
			p->disk_full = s->nospace && !retry;
			s->mtime.tv_sec = -1; /* retried at the next sync */
			p->nskipped++;
		} else {
			s->on_disk = 1;
			s->nospace = 0;
			p->nfiles++;
			p->bytes += len;
			p->last = s->path;
		}
	}
	if (p->dump) {
		bb_consfile_encode(rs.bootdir, name, data, len, console_line, NULL);
		rs.dumped = 1;
	}
	free(data);
}

/* The disk flushed after a sync, and what the sync wrote said on the console. */
static void sync_flush(struct sync_pass *p, double t0)
{
	int r = bb_resdisk_flush(rs.disk);
	if (r && (p->fault = disk_fault(r, "flushing", p->last)))
		r = 0;
	disk_stat("sync-end");
	if (r) {
		report("flushing the results disk failed: %s", bb_resdisk_strerror(r));
		if (!p->first)
			p->first = r;
	}
	if (p->nskipped)
		report("synced %zu files (%llu bytes) to %s in %.0f ms; %zu NOT written "
		       "(retried at the next sync)",
		       p->nfiles, p->bytes, rs.bootdir, now_ms() - t0, p->nskipped);
	else
		report("synced %zu files (%llu bytes) to %s in %.0f ms%s", p->nfiles, p->bytes,
		       rs.bootdir, now_ms() - t0, p->first ? " with errors" : "");
}

int results_sync_except(const char *localdir, int dump_console, const char *skip)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	double t0 = now_ms();
	struct sync_pass p = {.dump = dump_console || !rs.disk};

	if (!rs.localdir || strcmp(rs.localdir, localdir)) {
		free(rs.localdir);
		rs.localdir = strdup(localdir);
	}
	rs.last_dump = dump_console;
	if (rs.look_again > 0 && !rs.n) {
		rs.look_again = -1;
		results_open(rs.root, rs.boot_id);
		p.dump = dump_console || !rs.disk;
	}
	rs.look_again = 0;
	disk_stat("sync-start");
	int r = walk(localdir, "", 0, skip, &names, &n, &cap);
	if (r) {
		report("cannot read %s: %s", localdir, strerror(-r));
		p.first = r;
	}
	if (n)
		qsort(names, n, sizeof(*names), sync_order);
	/*
	 * Two passes: this sync's files, then those a full disk kept out at an earlier sync
	 * (their iterations were failed then and taken out of results.json, so their order does
	 * not matter). A retried file is tried only when the disk's free space could hold it;
	 * one that still does not fit is kept for the next sync and fails nothing: the
	 * iterations after a file too big for the disk keep their results.
	 */
	for (size_t k = 0; k < 2 * n && !p.fault; k++) {
		int retry = k >= n;
		if (retry && p.disk_full)
			break; /* full again in the first pass: no retry this time */
		sync_file(&p, localdir, names[k % n], retry);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rs.disk)
		sync_flush(&p, t0);
	/* given up: this sync's files, and those synced before, to the console instead */
	if (p.fault)
		return results_sync_except(localdir, dump_console, skip);
	return p.first;
}

static int manifest_order(const void *a, const void *b)
{
	return strcmp(((const struct synced *)a)->path, ((const struct synced *)b)->path);
}

/*
 * The manifest `done` to the disk (which is then closed) and, when results went to the console,
 * there. 1 when the disk failed on the way (disk_fault: given up, nothing written): the boot
 * then goes to the console and `done` after it (the caller syncs and calls again).
 */
static int write_done(int *first)
{
	int r;
	if (rs.n)
		qsort(rs.files, rs.n, sizeof(*rs.files), manifest_order);
	size_t cap = 64 + rs.n * (SHA256_HEX_LEN + 32), len = 0, missing = 0;
	for (size_t i = 0; i < rs.n; i++)
		cap += strlen(rs.files[i].path);
	char *done = malloc(cap);
	if (!done) {
		*first = *first ? *first : -ENOMEM;
		return 0;
	}
	len += (size_t)snprintf(done + len, cap - len, "benchboot-done 1\n");
	for (size_t i = 0; i < rs.n; i++) {
		const struct synced *s = &rs.files[i];
		if (rs.disk && !s->on_disk) {
			/* listed as such: collect reports it */
			missing++;
			len += (size_t)snprintf(done + len, cap - len, "not-written %lld %s\n",
			                        (long long)s->size, s->path);
			continue;
		}
		len += (size_t)snprintf(done + len, cap - len, "%s %lld %s\n", s->sha,
		                        (long long)s->size, s->path);
	}
	if (rs.disk) {
		char path[256];
		snprintf(path, sizeof(path), "%s/%s/done", RESDISK_BOOTS, rs.bootdir);
		r = bb_resdisk_write_buf(rs.disk, path, done, len);
		if (r && disk_fault(r, "writing", "done")) {
			free(done);
			return 1;
		}
		if (r) {
			report("writing %s/done failed: %s", rs.bootdir, bb_resdisk_strerror(r));
			if (!*first)
				*first = r;
		}
		disk_stat("close-start");
		r = bb_resdisk_close(rs.disk); /* the handle is freed in every case */
		if (r && disk_fault(r, "closing", NULL)) {
			rs.failed = NULL;
			free(done);
			return 1;
		}
		disk_stat("close-end"); /* rs.disk not used, only tested */
		rs.disk = NULL;
		if (r) {
			report("closing the results disk failed: %s", bb_resdisk_strerror(r));
			if (!*first)
				*first = r;
		} else if (missing) {
			report("results disk closed: %s has a done file, but %zu files could not "
			       "be written (see above)",
			       rs.bootdir, missing);
		} else {
			report("results disk closed: %s complete", rs.bootdir);
		}
	}
	if (rs.dumped || rs.last_dump)
		bb_consfile_encode(rs.bootdir, "done", done, len, console_line, NULL);
	free(done);
	return 0;
}

int results_finish(void)
{
	int r, first = 0;
	do {
		if (rs.localdir && (r = results_sync(rs.localdir, rs.last_dump)) && !first)
			first = r;
	} while (write_done(&first));
	for (size_t i = 0; i < rs.n; i++)
		free(rs.files[i].path);
	free(rs.files);
	free(rs.localdir);
	rs.files = NULL;
	rs.n = rs.cap = 0;
	rs.localdir = NULL;
	return first;
}
