/* Find the results disk among the block devices (see resfind.h). */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/resfind.h"
#include "grow.h"

static int real_mknod(const char *path, mode_t mode, dev_t dev)
{
	return mknod(path, mode, dev);
}

const struct resfind_ops resfind_real_ops = {.mknod = real_mknod};

static void logf_(const struct resfind_ops *ops, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void logf_(const struct resfind_ops *ops, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	if (!ops->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ops->log(ops->log_ctx, line);
}

/* Read a one-line sysfs attribute; returns 0 or -errno. */
static int read_attr(const char *root, const char *name, const char *attr, char *buf, size_t cap)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/sys/class/block/%s/%s", root, name, attr);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, cap - 1);
	int saved = errno;
	close(fd);
	if (n < 0)
		return -saved;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Make sure ROOT/dev/NAME exists; returns 0 or -errno. */
static int ensure_node(const char *root, const char *name, const struct resfind_ops *ops,
                       char *path, size_t cap)
{
	char devnum[32];
	unsigned int maj, min;
	struct stat st;
	snprintf(path, cap, "%s/dev/%s", root, name);
	if (!stat(path, &st))
		return 0;
	if (errno != ENOENT)
		return -errno;
	int r = read_attr(root, name, "dev", devnum, sizeof(devnum));
	if (r)
		return r;
	if (sscanf(devnum, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/dev", root);
	mkdir(dir, 0755);
	if (ops->mknod(path, S_IFBLK | 0600, makedev(maj, min)))
		return -errno;
	logf_(ops, "%s: created %s (block %u:%u)", name, path, maj, min);
	return 0;
}

int bb_resfind_scan(const char *root, const struct resfind_ops *ops, struct resfind_disk *out,
                    int max)
{
	char dirpath[4096], buf[64];
	snprintf(dirpath, sizeof(dirpath), "%s/sys/class/block", root);
	DIR *dir = opendir(dirpath);
	if (!dir)
		return -errno;
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int r = 0;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(out->name))
			continue;
		if (bb_grow(&names, &cap, n + 1, sizeof(*names))) {
			r = -ENOMEM;
			goto out_names;
		}
		if (!(names[n] = strdup(de->d_name))) {
			r = -ENOMEM;
			goto out_names;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);

	int found = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		unsigned long long sectors = 0;
		char path[4096], id[RESDISK_ID_LEN + 1];
		if (!read_attr(root, name, "size", buf, sizeof(buf)))
			sectors = strtoull(buf, NULL, 10);
		if (!sectors) {
			logf_(ops, "%s: empty, skipped", name);
			continue;
		}
		int e = ensure_node(root, name, ops, path, sizeof(path));
		if (e) {
			logf_(ops, "%s: no device node: %s", name, strerror(-e));
			continue;
		}
		*id = 0;
		e = ops->label_only ? bb_resdisk_check_label(path) : bb_resdisk_probe(path, id);
		if (e == -EMEDIUMTYPE) {
			logf_(ops, "%s: not a benchboot disk", name);
			continue;
		}
		if (e) {
			logf_(ops, "%s: cannot be read: %s", name, strerror(-e));
			continue;
		}
		if (!read_attr(root, name, "ro", buf, sizeof(buf)) && !strcmp(buf, "1")) {
			logf_(ops, "%s: benchboot disk %s is read-only, skipped", name,
			      *id ? id : "(label)");
			continue;
		}
		if (*id)
			logf_(ops, "%s: benchboot disk %s", name, id);
		else
			logf_(ops, "%s: labelled %s", name, RESDISK_LABEL);
		if (found < max) {
			struct resfind_disk *d = &out[found];
			snprintf(d->name, sizeof(d->name), "%s", name);
			snprintf(d->path, sizeof(d->path), "%s", path);
			memcpy(d->id, id, sizeof(d->id));
			d->sectors = sectors;
		}
		found++;
	}
	r = found;
out_names:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(dir);
	return r;
}

/* Does the list file (mounts or swaps: device path first on each line) name device dev? */
static int listed_in(const char *root, const char *file, dev_t dev, char *why, size_t len)
{
	char path[4096], line[4096];
	snprintf(path, sizeof(path), "%s%s", root, file);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char src[1024], dst[1024] = "";
		struct stat st;
		if (sscanf(line, "%1023s %1023s", src, dst) < 1 || src[0] != '/')
			continue;
		snprintf(path, sizeof(path), "%s%s", root, src);
		if (stat(path, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != dev)
			continue;
		if (strstr(file, "mounts"))
			snprintf(why, len, "mounted on %s", dst);
		else
			snprintf(why, len, "in use as swap");
		found = 1;
	}
	fclose(f);
	return found;
}

/* Does the sysfs block directory have holders (device-mapper, md, ...)? */
static int has_holders(const char *sysdir, char *why, size_t len)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/holders", sysdir) >= (int)sizeof(path))
		return 0;
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *de;
	int found = 0;
	while (!found && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(why, len, "held by %s", de->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

static int dev_busy(const char *root, dev_t dev, char *why, size_t len)
{
	char sysdir[4096];
	snprintf(sysdir, sizeof(sysdir), "%s/sys/dev/block/%u:%u", root, major(dev), minor(dev));
	return listed_in(root, "/proc/self/mounts", dev, why, len) ||
	       listed_in(root, "/proc/swaps", dev, why, len) || has_holders(sysdir, why, len);
}

int bb_resfind_device_busy(const char *root, const char *path, char *why, size_t len)
{
	struct stat st;
	char sysdir[4096], sub[4096], devnum[32];
	if (stat(path, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	if (dev_busy(root, st.st_rdev, why, len))
		return 1;
	/* its partitions: subdirectories of the disk's sysfs directory with a `partition` file */
	snprintf(sysdir, sizeof(sysdir), "%s/sys/dev/block/%u:%u", root, major(st.st_rdev),
	         minor(st.st_rdev));
	DIR *d = opendir(sysdir);
	if (!d)
		return 0;
	struct dirent *de;
	int busy = 0;
	while (!busy && (de = readdir(d))) {
		unsigned int maj, min;
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s/partition", sysdir, de->d_name) >=
		        (int)sizeof(sub) ||
		    access(sub, F_OK))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s/dev", sysdir, de->d_name) >= (int)sizeof(sub))
			continue;
		int fd = open(sub, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t n = read(fd, devnum, sizeof(devnum) - 1);
		close(fd);
		if (n <= 0)
			continue;
		devnum[n] = 0;
		if (sscanf(devnum, "%u:%u", &maj, &min) != 2)
			continue;
		char pwhy[256];
		if (dev_busy(root, makedev(maj, min), pwhy, sizeof(pwhy))) {
			snprintf(why, len, "partition %s is %s", de->d_name, pwhy);
			busy = 1;
		}
	}
	closedir(d);
	return busy;
}
