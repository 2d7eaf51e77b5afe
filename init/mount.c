/*
 * Early mounts: proc, sysfs, devtmpfs, tmpfs on /run, /tmp and /dev/shm, debugfs. Without devtmpfs
 * the device nodes are made from /sys/dev/{char,block}/MAJ:MIN/uevent (DEVNAME=), on a tmpfs /dev.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "init.h"

static const struct {
	const char *type, *target;
	unsigned long flags;
	const char *data;
} mounts[] = {
    {"proc", "/proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL},
    {"sysfs", "/sys", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL},
    {"devtmpfs", "/dev", MS_NOSUID, "mode=0755"},
    {"tmpfs", "/run", MS_NOSUID | MS_NODEV, "mode=0755"},
    {"tmpfs", "/tmp", MS_NOSUID | MS_NODEV, "mode=1777"},
    {"tmpfs", "/dev/shm", MS_NOSUID | MS_NODEV, "mode=1777"},
    /* as systemd mounts it: the sched_debug monitor reads /sys/kernel/debug/sched/debug */
    {"debugfs", "/sys/kernel/debug", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL},
};

static int do_mount(const char *type, const char *target, unsigned long flags, const char *data)
{
	int r = init_mkdirs(target, 0755);
	if (r)
		return r;
	if (init_ops->mount(type, init_path("%s", target), type, flags, data) && errno != EBUSY)
		return -errno;
	return 0;
}

/* mknod every device sysfs lists under /sys/dev/KIND; returns the number made. */
static int nodes_from_sysfs(const char *kind, mode_t type)
{
	DIR *d = opendir(init_path("/sys/dev/%s", kind));
	struct dirent *e;
	int made = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		unsigned maj, min;
		char *uevent, *name, path[512];
		if (sscanf(e->d_name, "%u:%u", &maj, &min) != 2)
			continue;
		snprintf(path, sizeof(path), "/sys/dev/%s/%s/uevent", kind, e->d_name);
		if (!(uevent = init_read(path, NULL)))
			continue;
		if ((name = strstr(uevent, "DEVNAME="))) {
			name += 8;
			name[strcspn(name, "\n")] = 0;
			snprintf(path, sizeof(path), "/dev/%s", name);
			char *slash = strrchr(path, '/');
			if (slash != path + 4) {
				*slash = 0;
				init_mkdirs(path, 0755);
				*slash = '/';
			}
			if (!init_ops->mknod(init_path("%s", path), type | 0600,
			                     makedev(maj, min)) ||
			    errno == EEXIST)
				made++;
		}
		free(uevent);
	}
	closedir(d);
	return made;
}

int mount_early(void)
{
	int failures = 0;
	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		int r = do_mount(mounts[i].type, mounts[i].target, mounts[i].flags, mounts[i].data);
		if (!r)
			continue;
		if (!strcmp(mounts[i].type, "devtmpfs")) {
			say("mount devtmpfs on /dev failed (%s): creating device nodes from /sys",
			    strerror(-r));
			if (do_mount("tmpfs", "/dev", MS_NOSUID, "mode=0755"))
				say("mount tmpfs on /dev failed too: using the rootfs /dev");
			int n =
			    nodes_from_sysfs("char", S_IFCHR) + nodes_from_sysfs("block", S_IFBLK);
			say("created %d device nodes from /sys/dev", n);
			continue;
		}
		if (!strcmp(mounts[i].type, "debugfs")) { /* a kernel without CONFIG_DEBUG_FS */
			say("mount debugfs on /sys/kernel/debug failed (%s): the sched_debug "
			    "monitor "
			    "reads /proc/sched_debug or is unavailable",
			    strerror(-r));
			continue;
		}
		say("mount %s on %s failed: %s", mounts[i].type, mounts[i].target, strerror(-r));
		failures++;
	}
	return failures;
}
