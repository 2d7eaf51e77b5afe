/*
 * Disks and filesystems, as LKP's setups make them (params/disk, programs/disk/setup,
 * programs/fs/setup, lib/fs_ext.sh): `disk: NBRD[_SIZE]` is a boot's (brd ramdisks, the module
 * loaded with rd_nr and rd_size at boot), and so are `NSSD[_SIZE]` and `NHDD[_SIZE]` (disks the
 * VM host attaches: NVMe, and SCSI disks that rotate, sparse files of the run), `fs:` a run's (made
 * with LKP's mkfs options on every scratch device before each iteration, mounted at /fs/NAME with
 * LKP's mount options and the job's `mount_option:`). docs/jobs.md, "Disks and filesystems".
 */
#ifndef BENCHBOOT_HOST_JOB_STORAGE_H
#define BENCHBOOT_HOST_JOB_STORAGE_H

#include <stddef.h>
#include <yaml.h>

#include "strv.h"

#include "host/strbuf.h"

struct bb_suite_run;
struct bb_jdoc;
struct walker;

/* LKP's disk value, as params/disk reads it. */
enum bb_disk_kind { BB_DISK_BRD, BB_DISK_SSD, BB_DISK_HDD };
struct bb_disk {
	enum bb_disk_kind kind;
	int count;
	unsigned long long bytes; /* each: a ramdisk (LKP's default 1G) or a VM's disk (8G) */
	char description[32];     /* LKP's disk_description: 1brd, 1ssd, 2hdd */
};

/* The guest memory a boot's disk takes (its ramdisks, when written full), in bytes; 0 for a
 * boot without ramdisks. */
unsigned long long bb_disk_memory(const struct bb_kvs *boot_params);

/* The boot's disk as plan keys (modules.params.brd or disk.vm, disk.devices,
 * disk.description): appended to o. Nothing for a boot without a disk. The devices of NSSD
 * and NHDD are the machine's when the boot has ssd_partitions or hdd_partitions (LKP's host
 * file keys: a lab machine's disks): the first N of them, as LKP's programs/disk/setup takes
 * them (fewer when fewer are named); else the VM's (disk.vm). */
void bb_disk_plan(const struct bb_kvs *boot_params, struct strbuf *o);

/* The guest's name of the i-th disk of a kind benchboot makes ("/dev/ram0", "/dev/nvme1n1",
 * "/dev/sdb"). */
void bb_disk_device(enum bb_disk_kind kind, int i, char *buf, size_t len);
/* The kind of the disks a plan's disk.vm attaches ("nvme", "hdd"): 0, or -1 for no such. */
int bb_disk_vm_kind(const char *vm, enum bb_disk_kind *kind);

/* The kernel modules a boot's disk loads (brd) into modules. 0 or -ENOMEM. */
int bb_disk_boot_modules(const struct bb_kvs *boot_params, struct bb_strv *modules);

/* A run's filesystem (fs, mkfs, mount_option) into sr: its mkfs command, mount options, module
 * and programs. 0 (nothing for a run without fs), -EINVAL with err, -ENOMEM. */
int bb_fs_run(const struct bb_kvs *p, struct bb_suite_run *sr, char *err, size_t errlen);

/* The source of an mkfs program in the sysroot: 0 with *src, or -1. */
int bb_fs_file_source(const char *image_path, const char **src);

/* Key checks of the job reader (keys.c): disk, fs, fs2. */
int bb_check_disk(struct walker *w, const char *key, const char *s, yaml_mark_t m);
int bb_check_fs(struct walker *w, const char *key, const char *s, yaml_mark_t m);
int bb_check_fs2(struct walker *w, const char *key, const char *s, yaml_mark_t m);
/* mkfs: the options that replace LKP's defaults, blank-separated words; mount_option: mount's
 * -o, comma-separated. */
int bb_check_mkfs(struct walker *w, const char *key, const char *s, yaml_mark_t m);
int bb_check_mount_option(struct walker *w, const char *key, const char *s, yaml_mark_t m);
/* The keys of one document together: fs needs a disk; the partitions (ssd_partitions,
 * hdd_partitions) a disk of their kind takes are /dev/NAME words (the keys are recorded
 * whatever they say when no disk takes them: 0-day's attachments carry their host's). 0 or
 * jfail's -EINVAL. */
int bb_check_storage_doc(struct walker *w, const struct bb_jdoc *d);

#endif
