/* Disks and filesystems of a job (see storage.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/job_internal.h"
#include "host/job/storage.h"
#include "host/job/suites.h"
#include "host/job/suites/suite.h"

#define GIB (1024ULL * 1024 * 1024)

/* The kinds of disk: LKP's word, what benchboot makes of it, the description's word. */
static const struct disk_kind {
	const char *lkp; /* NBRD, NSSD, NHDD */
	enum bb_disk_kind kind;
	const char *desc; /* LKP's disk_description: 1brd, 1ssd, 1hdd */
	const char *dev;  /* the guest's device names: printf with the index */
	const char *vm;   /* plan disk.vm: what the VM host attaches (NULL: nothing) */
	const char *modules;
} disk_kinds[] = {
    {"BRD", BB_DISK_BRD, "brd", "/dev/ram%d", NULL, "brd"},
    /* an SSD is an NVMe disk of QEMU's (one controller each: nvme0n1, nvme1n1, ...) */
    {"SSD", BB_DISK_SSD, "ssd", "/dev/nvme%dn1", "nvme", "nvme"},
    /* an HDD a SCSI disk that says it rotates (virtio-scsi, rotation_rate 7200: sda, ...) */
    {"HDD", BB_DISK_HDD, "hdd", "/dev/sd%c", "hdd", "virtio_scsi sd_mod"},
};

/* Parse LKP's disk value ("1BRD_48G", "2BRD", "1SSD", "2HDD_16G"). 0, or -EINVAL with what is
 * wrong and what benchboot takes instead in err. */
static int disk_parse(const char *s, struct bb_disk *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof *d);
	char *e;
	errno = 0;
	unsigned long n = strtoul(s, &e, 10);
	const struct disk_kind *k = NULL;
	for (size_t i = 0; e != s && i < sizeof disk_kinds / sizeof disk_kinds[0]; i++)
		if (!strncmp(e, disk_kinds[i].lkp, 3))
			k = &disk_kinds[i];
	if (e != s && !errno && (!strncmp(e, "SRD", 3) || !strncmp(e, "pmem", 4))) {
		snprintf(err, errlen,
		         "'%s': scsi_debug and pmem disks are not made by benchboot; a brd ramdisk "
		         "or a disk of the VM is: --set disk=%luBRD_2G or --set disk=%luSSD",
		         s, n, n);
		return -EINVAL;
	}
	if (!k || errno) {
		snprintf(
		    err, errlen,
		    "'%s' is not LKP's NBRD, NSSD or NHDD, with _SIZE or without (1BRD_2G: one "
		    "brd ramdisk of 2 GiB; 1SSD: one NVMe disk of the VM)",
		    s);
		return -EINVAL;
	}
	if (n < 1 || n > (k->kind == BB_DISK_HDD ? 8 : 16)) {
		snprintf(err, errlen, "'%s': 1 to %d disks", s, k->kind == BB_DISK_HDD ? 8 : 16);
		return -EINVAL;
	}
	e += 3;
	d->kind = k->kind;
	d->count = (int)n;
	/* LKP's programs/disk/setup: ramdisk_size defaults to 1G; the VM's disks are sparse
	 * files, 8G unless the job says */
	d->bytes = k->kind == BB_DISK_BRD ? GIB : 8 * GIB;
	if (*e == '_') {
		const char *sz = e + 1;
		errno = 0;
		unsigned long g = strtoul(sz, &e, 10);
		/* LKP's params/disk reads the size as /(\d+G)/ */
		if (e == sz || errno || strcmp(e, "G") || g < 1 || g > 1024) {
			snprintf(err, errlen, "'%s': the disk size is 1G to 1024G (1%s_2G)", s,
			         k->lkp);
			return -EINVAL;
		}
		d->bytes = g * GIB;
	} else if (*e) {
		snprintf(err, errlen, "'%s': after N%s comes nothing or _SIZE (1%s_2G)", s, k->lkp,
		         k->lkp);
		return -EINVAL;
	}
	snprintf(d->description, sizeof d->description, "%d%s", d->count, k->desc);
	return 0;
}

static int boot_disk(const struct bb_kvs *bp, struct bb_disk *d)
{
	char err[256];
	const char *s = bb_kvs_get(bp, "disk");
	return s && !disk_parse(s, d, err, sizeof err);
}

static const struct disk_kind *kind_of(const struct bb_disk *d)
{
	for (size_t i = 0; i < sizeof disk_kinds / sizeof disk_kinds[0]; i++)
		if (disk_kinds[i].kind == d->kind)
			return &disk_kinds[i];
	return &disk_kinds[0];
}

unsigned long long bb_disk_memory(const struct bb_kvs *boot_params)
{
	struct bb_disk d;
	return boot_disk(boot_params, &d) && d.kind == BB_DISK_BRD
	           ? (unsigned long long)d.count * d.bytes
	           : 0;
}

void bb_disk_device(enum bb_disk_kind kind, int i, char *buf, size_t len)
{
	struct bb_disk d = {.kind = kind};
	const struct disk_kind *k = kind_of(&d);
	if (kind == BB_DISK_HDD)
		snprintf(buf, len, k->dev, 'a' + i);
	else
		snprintf(buf, len, k->dev, i);
}

int bb_disk_vm_kind(const char *vm, enum bb_disk_kind *kind)
{
	for (size_t i = 0; vm && i < sizeof disk_kinds / sizeof disk_kinds[0]; i++)
		if (disk_kinds[i].vm && !strcmp(disk_kinds[i].vm, vm)) {
			*kind = disk_kinds[i].kind;
			return 0;
		}
	return -1;
}

/* The machine's own devices of the boot's disk kind (LKP's host file keys), or NULL. */
static const char *machine_partitions(const struct bb_kvs *bp, const struct bb_disk *d)
{
	const char *s = d->kind == BB_DISK_SSD   ? bb_kvs_get(bp, "ssd_partitions")
	                : d->kind == BB_DISK_HDD ? bb_kvs_get(bp, "hdd_partitions")
	                                         : NULL;
	return s && s[strspn(s, " \t")] ? s : NULL;
}

void bb_disk_plan(const struct bb_kvs *boot_params, struct strbuf *o)
{
	struct bb_disk d;
	if (!boot_disk(boot_params, &d))
		return;
	const struct disk_kind *k = kind_of(&d);
	const char *parts = machine_partitions(boot_params, &d);
	/* LKP: modprobe brd rd_nr=N rd_size=KB; the devices are ram0 .. ramN-1 */
	if (d.kind == BB_DISK_BRD)
		bb_strbuf_printf(o, "modules.params.brd=rd_nr=%d rd_size=%llu\n", d.count,
		                 d.bytes / 1024);
	else
		bb_strbuf_printf(o, "disk.vm=%s %llu\n", k->vm, d.bytes);
	bb_strbuf_printf(o, "disk.devices=");
	int n = 0;
	/* LKP's programs/disk/setup: the first nr_ssd (nr_hdd) of the host's partitions, as
	 * many as there are when fewer */
	for (const char *p = parts; p && *(p += strspn(p, " \t")) && n < d.count; n++) {
		size_t len = strcspn(p, " \t");
		bb_strbuf_printf(o, "%s%.*s", n ? " " : "", (int)len, p);
		p += len;
	}
	for (; !parts && n < d.count; n++) {
		char dev[32];
		bb_disk_device(d.kind, n, dev, sizeof dev);
		bb_strbuf_printf(o, "%s%s", n ? " " : "", dev);
	}
	/* LKP's disk_description: ${nr_ssd}ssd with nr_ssd as taken */
	bb_strbuf_printf(o, "\ndisk.description=%d%s\n", n, k->desc);
}

int bb_disk_boot_modules(const struct bb_kvs *boot_params, struct bb_strv *modules)
{
	struct bb_disk d;
	if (!boot_disk(boot_params, &d))
		return 0;
	struct bb_strv words = {0};
	int rc = bb_suite_argv_split(&words, kind_of(&d)->modules);
	for (size_t i = 0; i < words.n && !rc; i++)
		rc = bb_suite_add_unique(modules, words.v[i]);
	bb_strv_free(&words);
	return rc;
}

/* Each filesystem: its program in the image, where it comes from in the sysroot, LKP's
 * options (programs/fs/setup: ensure_mkfs always, def_mkfs unless the job's mkfs replaces it;
 * def_mount unless the job's mount does) and its module. */
static const struct fs_kind {
	const char *fs;
	const char *mkfs;   /* the image's program */
	const char *src;    /* in the sysroot (Debian 12's xfsprogs and btrfs-progs: /sbin) */
	const char *type;   /* mke2fs -t */
	const char *ensure; /* LKP's ensure_mkfs */
	const char *mount;  /* LKP's def_mount: -o ... */
	const char *module;
} fs_kinds[] = {
    {"ext2", "/usr/sbin/mke2fs", "usr/sbin/mke2fs", "ext2", "-q -F", "", "ext2"},
    {"ext3", "/usr/sbin/mke2fs", "usr/sbin/mke2fs", "ext3", "", "", "ext4"},
    {"ext4", "/usr/sbin/mke2fs", "usr/sbin/mke2fs", "ext4",
     "-q -E lazy_itable_init=0,lazy_journal_init=0 -F", "", "ext4"},
    {"xfs", "/usr/sbin/mkfs.xfs", "sbin/mkfs.xfs", NULL, "-f -mreflink=0", "inode64", "xfs"},
    {"btrfs", "/usr/sbin/mkfs.btrfs", "sbin/mkfs.btrfs", NULL, "", "", "btrfs"},
};

static const struct fs_kind *fs_kind(const char *fs)
{
	for (size_t i = 0; i < sizeof fs_kinds / sizeof fs_kinds[0]; i++)
		if (!strcmp(fs_kinds[i].fs, fs))
			return &fs_kinds[i];
	return NULL;
}

int bb_fs_file_source(const char *image_path, const char **src)
{
	for (size_t i = 0; i < sizeof fs_kinds / sizeof fs_kinds[0]; i++)
		if (!strcmp(fs_kinds[i].mkfs, image_path)) {
			*src = fs_kinds[i].src;
			return 0;
		}
	return -1;
}

int bb_fs_run(const struct bb_kvs *p, struct bb_suite_run *sr, char *err, size_t errlen)
{
	const char *fs = bb_kvs_get(p, "fs");
	if (!fs)
		return 0;
	const struct fs_kind *k = fs_kind(fs);
	if (!k) {
		snprintf(err, errlen, "fs: '%s' is not a filesystem benchboot makes", fs);
		return -EINVAL;
	}
	sr->fs = k->fs;
	struct bb_strv *a = &sr->fs_mkfs;
	if (bb_strv_add(a, k->mkfs) ||
	    (k->type && (bb_strv_add(a, "-t") || bb_strv_add(a, k->type))) ||
	    bb_suite_argv_split(a, bb_kvs_get_or(p, "mkfs", "")) ||
	    bb_suite_argv_split(a, k->ensure))
		return -ENOMEM;
	/* LKP: mount -t FS ${mount:-$def_mount} -o $mount_option: two -o, joined here */
	const char *opt = bb_kvs_get(p, "mount_option");
	char mount[512];
	snprintf(mount, sizeof mount, "%s%s%s", k->mount, *k->mount && opt ? "," : "",
	         opt ? opt : "");
	if (*mount && !(sr->fs_mount = strdup(mount)))
		return -ENOMEM;
	if (bb_suite_add_unique(&sr->modules, k->module) ||
	    bb_suite_add_unique(&sr->files, k->mkfs))
		return -ENOMEM;
	return 0;
}

int bb_check_disk(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	struct bb_disk d;
	char err[256];
	if (disk_parse(s, &d, err, sizeof err))
		return jfail(w, m, "%s: %s", key, err);
	return 0;
}

/* LKP's loopback exports (programs/fs/setup): NFS and SMB versions */
static int is_export(const char *s)
{
	return !strcmp(s, "nfsv3") || !strcmp(s, "nfsv4") || !strcmp(s, "cifs") ||
	       !strncmp(s, "smbv", 4);
}

static int refuse_export(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	return jfail(
	    w, m,
	    "%s: '%s': LKP exports the filesystem over loopback NFS or SMB, which needs "
	    "a server in the guest (nfs-kernel-server, samba) that benchboot does not run: "
	    "--set %s= runs the job without it (an empty value of a list, `%s: [nfsv4, ]`, "
	    "is a run without it)",
	    key, s, key, key);
}

/* A word LKP takes; the refusal comes with the document (bb_check_storage_doc), after the
 * command line's --set fs2= could take it away. */
int bb_check_fs(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (fs_kind(s))
		return 0;
	if (!strcmp(s, "f2fs") || !strcmp(s, "ocfs2") || !strcmp(s, "udf"))
		return jfail(w, m,
		             "%s: '%s': its mkfs is not pinned by benchboot (ext2, ext3, ext4, xfs "
		             "and btrfs are)",
		             key, s);
	if (is_export(s))
		return refuse_export(w, key, s, m);
	static const char *const known[] = {"ext2", "ext3", "ext4", "xfs", "btrfs", NULL};
	const char *near = job_nearest_in(s, known);
	return jfail(w, m, "%s: '%s' is not ext2, ext3, ext4, xfs or btrfs%s%s%s", key, s,
	             near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
}

/* A machine's partitions a disk takes: /dev/NAME words. */
static int check_partitions(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	for (const char *p = s + strspn(s, " \t"); *p; p += strspn(p, " \t")) {
		size_t len = strcspn(p, " \t");
		if (len <= 5 || strncmp(p, "/dev/", 5) || !job_plain_name(p + 5, len - 5, 64))
			return jfail(
			    w, m,
			    "%s: '%.*s' is not a device as the kernel names it (/dev/sdb, "
			    "/dev/nvme1n1): the image runs no udev, so /dev/disk/by-* links and "
			    "globs are not there (LKP's host files may use them; name the "
			    "device, and the init still refuses the results disk whatever "
			    "its name)",
			    key, (int)len, p);
		p += len;
	}
	return 0;
}

int bb_check_fs2(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (is_export(s))
		return 0;
	return jfail(w, m, "%s: '%s' is not one of LKP's exports (nfsv3, nfsv4, cifs, smbv2, ...)",
	             key, s);
}

int bb_check_mkfs(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	for (const char *c = s; *c; c++)
		if (*c < ' ' || *c == 0x7f || strchr("'\"\\$`;&|<>", *c))
			return jfail(
			    w, m,
			    "%s: '%s': options are plain words for mkfs, without quotes or "
			    "shell characters",
			    key, s);
	return 0;
}

int bb_check_mount_option(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	for (const char *c = s; *c; c++)
		if (*c <= ' ' || *c == 0x7f)
			return jfail(w, m, "%s: '%s': mount options are comma-separated, no blanks",
			             key, s);
	return 0;
}

int bb_check_storage_doc(struct walker *w, const struct bb_jdoc *d)
{
	const struct bb_jparam *fs = bb_jdoc_get(d, "fs");
	const struct bb_jparam *disk = bb_jdoc_get(d, "disk");
	int some_fs = 0;
	for (size_t i = 0; fs && i < fs->n; i++)
		some_fs |= !fs->v[i].unset;
	if (some_fs && !disk)
		return jfail(w, job_ymark(fs->mark),
		             "fs: a filesystem is made on the job's disk, and the job has none: "
		             "add `disk: 1BRD_2G` (one brd ramdisk of 2 GiB; docs/jobs.md, \"Disks "
		             "and filesystems\")");
	const struct bb_jparam *fs2 = bb_jdoc_get(d, "fs2");
	for (size_t i = 0; fs2 && i < fs2->n; i++)
		if (!fs2->v[i].unset)
			return refuse_export(w, "fs2", fs2->v[i].s, job_ymark(fs2->v[i].mark));
	/* the partitions a disk of their kind takes */
	static const struct {
		enum bb_disk_kind kind;
		const char *key;
	} parts[] = {{BB_DISK_SSD, "ssd_partitions"}, {BB_DISK_HDD, "hdd_partitions"}};
	for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
		const struct bb_jparam *p = bb_jdoc_get(d, parts[k].key);
		int taken = 0;
		for (size_t i = 0; p && disk && i < disk->n && !taken; i++) {
			struct bb_disk dd;
			char why[256];
			taken = !disk->v[i].unset &&
			        !disk_parse(disk->v[i].s, &dd, why, sizeof why) &&
			        dd.kind == parts[k].kind;
		}
		int rc;
		if (taken && p->n && !p->v[0].unset &&
		    (rc = check_partitions(w, parts[k].key, p->v[0].s, job_ymark(p->v[0].mark))))
			return rc;
	}
	static const char *const needs_fs[] = {"mkfs", "mount_option", NULL};
	for (size_t i = 0; needs_fs[i]; i++) {
		const struct bb_jparam *p = bb_jdoc_get(d, needs_fs[i]);
		if (p && !some_fs)
			return jfail(w, job_ymark(p->mark), "%s: the job makes no filesystem (fs:)",
			             needs_fs[i]);
	}
	return 0;
}
