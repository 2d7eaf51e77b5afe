/*
 * Scratch disks and their filesystems (docs/jobs.md, "Disks and filesystems"): the plan's
 * disk.devices (brd ramdisks, loaded with the plan's modules.params.brd) are looked at once at
 * boot: each must exist and must not be benchboot's results disk (its label, its marker) or in
 * use (mounted, swap, held); one that is refused is never written. Before each iteration of a
 * run with fs=, every scratch device is wiped (its first and last MiB: the signatures LKP's
 * wipefs -a removes), made (the plan's fs.mkfs.arg + the device, its output in the
 * iteration's mkfs.NAME.out) and mounted at /fs/NAME with fs.mount; the clients get LKP's
 * $mount_points; after the iteration they are unmounted. env.json records each device and, per
 * run, the mounts as the kernel shows them.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "init.h"
#include "json.h"
#include "results/resdisk.h"
#include "results/resfind.h"
#include "run.h"
#include "spawn.h"

#define WIPE_BYTES (1024 * 1024)
#define MKFS_TIMEOUT_MS (300 * 1000.0)
#define DEVICE_WAIT_MS 15000.0

static const char *dev_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The device node: there, or made from /sys/class/block/NAME/dev (waiting for it a while). */
static int device_node(const char *path, char *why, size_t len)
{
	const char *name = dev_name(path);
	struct stat st;
	double deadline = init_now_ms() + DEVICE_WAIT_MS;
	for (;;) {
		if (stat(init_path("%s", path), &st) == 0) {
			if (S_ISBLK(st.st_mode))
				return 0;
			snprintf(why, len, "%s is not a block device", path);
			return -ENOTBLK;
		}
		char dev[32];
		unsigned maj, min;
		if (!init_read_line(init_path("/sys/class/block/%s/dev", name), dev, sizeof dev) &&
		    sscanf(dev, "%u:%u", &maj, &min) == 2) {
			if (init_ops->mknod(init_path("%s", path), S_IFBLK | 0600,
			                    makedev(maj, min)) &&
			    errno != EEXIST) {
				snprintf(why, len, "mknod %s: %s", path, strerror(errno));
				return -errno;
			}
			continue;
		}
		if (init_now_ms() > deadline) {
			snprintf(why, len, "%s did not appear in %.0f s (no /sys/class/block/%s)",
			         path, DEVICE_WAIT_MS / 1e3, name);
			return -ENODEV;
		}
		struct timespec t = {0, 100 * 1000 * 1000};
		nanosleep(&t, NULL);
	}
}

/* The results disk is never a scratch disk: its label, its marker (under any label), or a
 * device in use refuse it. 0, or 1 with the reason. */
static int refused(const char *path, char *why, size_t len)
{
	const char *p = init_path("%s", path);
	if (bb_resdisk_check_label(p) == 0) {
		snprintf(why, len,
		         "%s carries the results disk's label %s: never made a scratch disk", path,
		         RESDISK_LABEL);
		return 1;
	}
	struct resdisk *d;
	if (bb_resdisk_open(p, RESDISK_READ, &d) == 0) {
		int marked = *bb_resdisk_id(d) != 0;
		bb_resdisk_close(d);
		if (marked) {
			snprintf(why, len,
			         "%s carries the results disk's marker: never made a scratch disk",
			         path);
			return 1;
		}
	}
	char busy[256];
	if (bb_resfind_device_busy(init_root, p, busy, sizeof busy) == 1) {
		snprintf(why, len, "%s is in use (%s): never made a scratch disk", path, busy);
		return 1;
	}
	return 0;
}

static void read_sys(const char *name, const char *file, char *buf, size_t len)
{
	if (init_read_line(init_path("/sys/class/block/%s/%s", name, file), buf, len))
		*buf = 0;
}

void scratch_setup(struct boot *b)
{
	struct scratch_state *s = &b->scratch;
	const struct bb_strv *devs = &b->plan.disk_devices;
	if (!devs->n)
		return;
	if (!(s->v = calloc(devs->n, sizeof *s->v))) {
		snprintf(s->error, sizeof s->error, "out of memory");
		return;
	}
	for (size_t i = 0; i < devs->n; i++) {
		struct scratch_disk *d = &s->v[s->n++];
		char why[256] = "", buf[128];
		snprintf(d->path, sizeof d->path, "%s", devs->v[i]);
		const char *name = dev_name(d->path);
		if (device_node(d->path, why, sizeof why) || refused(d->path, why, sizeof why)) {
			snprintf(d->refused, sizeof d->refused, "%s", why);
			if (!*s->error)
				snprintf(s->error, sizeof s->error, "disk: %s", why);
			say("scratch disk %s: %s", d->path, why);
			continue;
		}
		read_sys(name, "size", buf, sizeof buf);
		d->bytes = strtoull(buf, NULL, 10) * 512;
		read_sys(name, "queue/rotational", buf, sizeof buf);
		d->rotational = *buf ? atoi(buf) : -1;
		read_sys(name, "queue/scheduler", d->scheduler, sizeof d->scheduler);
		read_sys(name, "device/model", d->model, sizeof d->model);
		say("scratch disk %s: %llu MiB, rotational %d, scheduler %s", d->path,
		    d->bytes >> 20, d->rotational, *d->scheduler ? d->scheduler : "?");
	}
	/* LKP's $partitions for the programs that write the devices themselves (fio's raw_disk):
	 * only when every device may be written */
	char list[1024] = "";
	for (size_t i = 0; i < s->n && !*s->error; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? " " : "",
		         s->v[i].path);
	if (*list)
		run_set_partitions(list);
}

/* Zero the first and last MiB: the old filesystem's signatures (its superblock, btrfs's at
 * 64 KiB, a GPT's backup) are gone, as LKP's wipefs -a leaves the device. */
static int wipe(const struct scratch_disk *d, char *why, size_t len)
{
	static const char zero[64 * 1024];
	int fd = open(init_path("%s", d->path), O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "open %s: %s", d->path, strerror(errno));
		return -1;
	}
	unsigned long long ends[2] = {0, d->bytes > WIPE_BYTES ? d->bytes - WIPE_BYTES : 0};
	int rc = 0;
	for (int e = 0; e < 2 && !rc; e++)
		for (unsigned long long o = 0; o < WIPE_BYTES && ends[e] + o < d->bytes && !rc;
		     o += sizeof zero)
			if (pwrite(fd, zero, sizeof zero, (off_t)(ends[e] + o)) !=
			    (ssize_t)sizeof zero) {
				snprintf(why, len, "wipe %s: %s", d->path, strerror(errno));
				rc = -1;
			}
	if (!rc && fsync(fd)) {
		snprintf(why, len, "wipe %s: fsync: %s", d->path, strerror(errno));
		rc = -1;
	}
	close(fd);
	return rc;
}

/* Run the run's mkfs on one device, output into the iteration's folder; bounded. */
static int make_fs(const struct bb_plan_run *run, const struct iteration *it,
                   const struct scratch_disk *d, char *why, size_t len)
{
	size_t n = run->fs_mkfs.n;
	char *args[n + 2], out[700];
	memcpy(args, run->fs_mkfs.v, n * sizeof *args);
	args[n] = (char *)d->path;
	args[n + 1] = NULL;
	snprintf(out, sizeof out, "%s/mkfs.%s.out", it->dir, dev_name(d->path));
	struct spawn s = SPAWN_INIT;
	s.mask = SPAWN_MASK_FIRST;
	s.stdin_path = "/dev/null";
	s.stdout_path = init_path("%s", out);
	s.stderr_path = s.stdout_path;
	s.close_others = 1;
	s.path = args[0];
	s.argv = args;
	s.say_exec_error = 1;
	pid_t pid = spawn(&s);
	if (pid < 0) {
		snprintf(why, len, "%s: %s", args[0], strerror((int)-pid));
		return -1;
	}
	double deadline = init_now_ms() + MKFS_TIMEOUT_MS;
	int status = 0;
	pid_t r;
	while ((r = waitpid(pid, &status, WNOHANG)) == 0) {
		if (init_now_ms() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(why, len, "%s %s: no end after %.0f s (killed)", args[0], d->path,
			         MKFS_TIMEOUT_MS / 1e3);
			return -1;
		}
		heartbeat("mkfs", run->id);
		struct timespec t = {0, 50 * 1000 * 1000};
		nanosleep(&t, NULL);
	}
	if (r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	char last[200] = "";
	char *text = init_read(out, NULL);
	if (text) {
		char *end = text + strlen(text);
		while (end > text && (end[-1] == '\n' || end[-1] == ' '))
			*--end = 0;
		char *nl = strrchr(text, '\n');
		snprintf(last, sizeof last, ": %s", nl ? nl + 1 : text);
		free(text);
	}
	if (r == pid && WIFEXITED(status))
		snprintf(why, len, "%s %s exited %d%s", args[0], d->path, WEXITSTATUS(status),
		         last);
	else
		snprintf(why, len, "%s %s died%s", args[0], d->path, last);
	return -1;
}

/* The kernel's lines of /proc/mounts for /fs/, for env.json. */
static char *fs_mounts(void)
{
	char *all = init_read("/proc/self/mounts", NULL), *save = NULL, *out = NULL;
	size_t len = 0;
	for (char *l = all ? strtok_r(all, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		char dev[256], mnt[256];
		if (sscanf(l, "%255s %255s", dev, mnt) != 2 || strncmp(mnt, "/fs/", 4))
			continue;
		char *grown = realloc(out, len + strlen(l) + 2);
		if (!grown)
			break;
		out = grown;
		len += (size_t)sprintf(out + len, "%s\n", l);
	}
	free(all);
	return out;
}

int scratch_prepare(struct boot *b, struct iteration *it, char *why, size_t len)
{
	const struct bb_plan_run *run = it->run;
	struct scratch_state *s = &b->scratch;
	char points[1024] = "";
	if (!run->fs)
		return 0;
	if (*s->error) {
		snprintf(why, len, "%s", s->error);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct scratch_disk *d = &s->v[i];
		char mnt[96];
		snprintf(mnt, sizeof mnt, "/fs/%s", dev_name(d->path));
		if (refused(d->path, why, len) || wipe(d, why, len) ||
		    make_fs(run, it, d, why, len))
			return -1;
		int r = init_mkdirs(mnt, 0755);
		if (r) {
			snprintf(why, len, "mkdir %s: %s", mnt, strerror(-r));
			return -1;
		}
		if (init_ops->mount(d->path, init_path("%s", mnt), run->fs, 0, run->fs_mount)) {
			snprintf(why, len, "mount -t %s%s%s %s %s: %s", run->fs,
			         run->fs_mount ? " -o " : "", run->fs_mount ? run->fs_mount : "",
			         d->path, mnt, strerror(errno));
			return -1;
		}
		it->mounted++;
		snprintf(points + strlen(points), sizeof points - strlen(points), "%s%s",
		         *points ? " " : "", mnt);
	}
	run_set_mount_points(points);
	if (b->run_mounts && !b->run_mounts[it->runidx])
		b->run_mounts[it->runidx] = fs_mounts();
	say("fs %s on %s", run->fs, points);
	return 0;
}

void scratch_release(struct boot *b, struct iteration *it)
{
	run_set_mount_points(NULL);
	for (size_t i = 0; i < (size_t)it->mounted && i < b->scratch.n; i++) {
		const char *mnt = init_path("/fs/%s", dev_name(b->scratch.v[i].path));
		if (umount2(mnt, 0) && umount2(mnt, MNT_DETACH))
			say("umount %s: %s", mnt, strerror(errno));
	}
	it->mounted = 0;
}

void scratch_json(struct ijw *w, const struct boot *b)
{
	const struct scratch_state *s = &b->scratch;
	ijw_open(w, "disk", '{');
	ijw_str(w, "description", b->plan.disk_description);
	ijw_str(w, "error", *s->error ? s->error : NULL);
	ijw_open(w, "module_params", '{');
	for (size_t i = 0; i < b->plan.module_params.n; i++)
		ijw_str(w, b->plan.module_params.v[i].key, b->plan.module_params.v[i].value);
	ijw_close(w, '}');
	ijw_open(w, "devices", '[');
	for (size_t i = 0; i < s->n; i++) {
		const struct scratch_disk *d = &s->v[i];
		ijw_open(w, NULL, '{');
		ijw_str(w, "path", d->path);
		ijw_str(w, "refused", *d->refused ? d->refused : NULL);
		ijw_int(w, "bytes", (long long)d->bytes);
		ijw_int(w, "rotational", d->rotational);
		ijw_str(w, "scheduler", d->scheduler);
		ijw_str(w, "model", *d->model ? d->model : NULL);
		ijw_close(w, '}');
	}
	ijw_close(w, ']');
	ijw_close(w, '}');
}

void scratch_run_json(struct ijw *w, const struct boot *b, size_t run)
{
	const struct bb_plan_run *r = &b->plan.runs[run];
	if (!r->fs)
		return;
	ijw_open(w, "fs", '{');
	ijw_str(w, "type", r->fs);
	ijw_open(w, "mkfs", '[');
	for (size_t i = 0; i < r->fs_mkfs.n; i++)
		ijw_str(w, NULL, r->fs_mkfs.v[i]);
	ijw_close(w, ']');
	ijw_str(w, "mount_options", r->fs_mount);
	/* as the kernel shows them: the options in force, not only the ones asked for */
	ijw_open(w, "mounts", '[');
	const char *m = b->run_mounts ? b->run_mounts[run] : NULL;
	while (m && *m) {
		size_t n = strcspn(m, "\n");
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)n, m);
		ijw_str(w, NULL, line);
		m += n + (m[n] == '\n');
	}
	ijw_close(w, ']');
	ijw_close(w, '}');
}
