/* The rootfs table (rootfs.h); the sources of each row are in docs/jobs.md. */
#include <stdio.h>
#include <string.h>

#include "host/job/rootfs.h"

/*
 * systemd turns memory accounting on for every unit by default since version 238 (NEWS), and
 * tasks (pids) accounting since 227/228; CPU accounting on the unified hierarchy needs no cpu
 * controller (cpu.stat), and IO accounting is off. So every row's service cgroup has the
 * memory and pids controllers. Debian builds systemd 241 (buster) with the hybrid
 * hierarchy, 247 (bullseye) and 252 (bookworm) with the unified one; with
 * systemd.unified_cgroup_hierarchy=0 those fall back to hybrid.
 */
static const struct bb_rootfs_env table[] = {
    {"debian-10", "Debian 10 (buster)", "241", "hybrid", "hybrid", "hybrid", "memory pids",
     "/system.slice/lkp-bootstrap.service"},
    {"debian-11", "Debian 11 (bullseye)", "247", "unified", "v2", "hybrid", "memory pids",
     "/system.slice/lkp-bootstrap.service"},
    {"debian-12", "Debian 12 (bookworm)", "252", "unified", "v2", "hybrid", "memory pids",
     "/system.slice/lkp-bootstrap.service"},
};

const struct bb_rootfs_env *bb_rootfs_find(const char *rootfs)
{
	/* LKP's rootfs_filename(): the last part after anything but [A-Za-z0-9._-] */
	const char *base = rootfs;
	for (const char *p = rootfs; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._-", *p)))
			base = p + 1;
	for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
		size_t n = strlen(table[i].prefix);
		/* debian-11 names debian-11-..., debian-11.1-...; not debian-110 */
		if (!strncmp(base, table[i].prefix, n) && (base[n] == '-' || base[n] == '.'))
			return &table[i];
	}
	return NULL;
}

void bb_rootfs_describe(const char *rootfs, const struct bb_rootfs_env *e, char *buf, size_t len)
{
	if (!e) {
		snprintf(
		    buf, len,
		    "rootfs %s: not in benchboot's table of rootfs environments (docs/jobs.md); "
		    "its cgroup layout is not reproduced",
		    rootfs);
		return;
	}
	snprintf(buf, len, "rootfs %s: %s, systemd %s, %s hierarchy, %s controller%s on: job in %s",
	         rootfs, e->release, e->systemd, e->hierarchy, e->controllers,
	         strchr(e->controllers, ' ') ? "s" : "", e->path);
}
