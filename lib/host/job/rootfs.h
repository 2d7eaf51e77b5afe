/*
 * The environment a 0-day job ran in, from the name of its rootfs (`rootfs:
 * debian-11.1-x86_64-20220510.cgz`): what that rootfs's systemd did with cgroups before LKP's
 * job started. LKP runs a job from its boot script rootfs/addon/etc/init.d/lkp-bootstrap,
 * which systemd runs as the service lkp-bootstrap.service (systemd-sysv-generator: no Slice=
 * and no accounting of its own), so the job's processes sit in /system.slice/lkp-bootstrap.service
 * with the controllers systemd's defaults turn on. docs/jobs.md "The rootfs's environment"
 * gives the sources of every row.
 */
#ifndef BENCHBOOT_HOST_ROOTFS_H
#define BENCHBOOT_HOST_ROOTFS_H

struct bb_rootfs_env {
	const char *prefix;      /* the rootfs file names it covers: "debian-11" */
	const char *release;     /* "Debian 11 (bullseye)" */
	const char *systemd;     /* its systemd's version: "247" */
	const char *hierarchy;   /* systemd's cgroup hierarchy: legacy, hybrid, unified */
	const char *mode;        /* benchboot's cgroup.mode for it: v1, hybrid, v2 */
	const char *mode_v1;     /* with systemd.unified_cgroup_hierarchy=0 on the command line */
	const char *controllers; /* on for the job's cgroup: "memory pids" */
	const char *path;        /* where the job's processes sat */
};

/* The row of a rootfs (a file name, or a path or URL ending in one), or NULL. */
const struct bb_rootfs_env *bb_rootfs_find(const char *rootfs);
/* "rootfs debian-11.1-...: Debian 11 (bullseye), systemd 247, unified hierarchy, memory
 * pids controllers on: job in /system.slice/lkp-bootstrap.service" */
void bb_rootfs_describe(const char *rootfs, const struct bb_rootfs_env *e, char *buf, size_t len);

#endif
