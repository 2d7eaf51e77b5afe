/*
 * LAVA job definitions for a benchboot job (`benchboot lava JOB.yaml`): one per boot group and
 * flavour, in the YAML the LAVA server's strict schema accepts.
 *
 *  - qemu: device_type qemu, deploy to tmpfs (kernel with `-append "CMDLINE"`, ramdisk), boot
 *    method qemu with media tmpfs; context arch amd64, no_kvm (LAVA adds -enable-kvm whenever
 *    /sys/class/misc/kvm exists), machine, memory and extra_options -smp N.
 *  - lab: a real machine: deploy to tftp (kernel and ramdisk as built), boot method
 *    ipxe with the ramdisk commands; the image's command line goes in context
 *    extra_kernel_args, appended by the device type's template.
 *
 * A two-host job (its cluster has a server host and a client host) gets a LAVA multinode job
 * instead: protocols lava-multinode with the roles server and client (one device each), the
 * deploy, boot and test actions once per role, each role's command line ending in
 * benchboot.role=ROLE; the qemu flavour's devices share a test network (a QEMU multicast
 * socket netdev on 127.0.0.1, both on one worker) with a virtio NIC of the cluster's MAC each.
 *
 * Both carry `metadata:` benchboot.job, benchboot.image, benchboot.boot_group and (when the
 * kernel is named) benchboot.kernel, which `collect --lava` reads back from the server.
 *
 * Both end with a test action whose monitor reads the init's console (docs/console.md): start
 * `BENCHBOOT results-start`, end `BENCHBOOT boot-end`, and the pattern with the named groups
 * test_case_id, result, units and measurement, so LAVA records every measured stat as a test
 * case with its measurement and every iteration as pass or fail. The monitor ends on boot-end,
 * the init's last line, not on results-end: env.json, the last sync and `done` reach the
 * console (BENCHBOOT-FILE lines) after results-end, and LAVA stops the machine once the
 * monitor has seen its end, so `collect --lava` would find the boot incomplete.
 */
#ifndef BENCHBOOT_LAVA_H
#define BENCHBOOT_LAVA_H

#include <stddef.h>

#include "host/job/cluster.h"

#define LAVA_START "BENCHBOOT results-start"
#define LAVA_END "BENCHBOOT boot-end"
#define LAVA_PATTERN                                                                               \
	"<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=(?P<test_case_id>\\S+) RESULT=(?P<result>pass|fail)"   \
	"( UNITS=(?P<units>\\S+) MEASUREMENT=(?P<measurement>\\S+))?>"

enum lava_flavour { LAVA_QEMU, LAVA_LAB };

struct lava_boot {
	const char *job;        /* benchboot job name */
	const char *image;      /* image name (images/IMAGE) */
	size_t group, ngroups;  /* boot group */
	const char *params;     /* the group's boot-level parameters, for the job name */
	const char *kernel_url; /* where LAVA downloads vmlinuz and initrd.img from */
	const char *ramdisk_url;
	const char *kernel_sha256; /* LAVA checks the downloads when given (NULL: not built yet) */
	const char *ramdisk_sha256;
	const char *cmdline;
	const char *ramdisk_compression; /* "gz", "zstd" or NULL (uncompressed) */
	unsigned test_minutes;           /* the test action's timeout */
	/* qemu flavour */
	unsigned cpus, memory_mb;
	/* lab flavour */
	const char *device_type; /* NULL: "x86" */
	const char *kernel;      /* the kernel's label (kernel=NAME), NULL when not named */
	/* a two-host job: a multinode job of roles server and client (NULL: one machine) */
	const struct bb_cluster *cluster;
	unsigned mcast_port; /* qemu flavour: its test network's multicast port */
};

/*
 * The job definition (malloc'd YAML text in *out). 0, -EINVAL (a command line LAVA cannot
 * carry: a double quote or a newline) or -ENOMEM.
 */
int bb_lava_job(enum lava_flavour flavour, const struct lava_boot *b, char **out);

struct lava_opts {
	const char *images;      /* the image directory (NULL: "images") */
	const char *outdir;      /* where definitions go (NULL: each image's own directory) */
	const char *url;         /* lab flavour: base URL of the image directory (NULL: file://) */
	const char *name;        /* image name prefix, as given to build --name (NULL: the job's) */
	const char *device_type; /* lab flavour (NULL: "x86") */
	unsigned flavours;       /* bits 1 << LAVA_QEMU, 1 << LAVA_LAB */
	unsigned cpus, memory_mb;
	/*
	 * Kernels by label, as `benchboot run --kernel NAME=...` builds them: the images of
	 * kernel NAME are PREFIX.NAME (PREFIX.NAME.bootN); none: the images are PREFIX.
	 */
	const char *const *kernels;
	size_t nkernels;
};

/* One written definition: its file, its text, what it boots (flavour, group, kernel). */
struct lava_written {
	const char *path, *text;
	enum lava_flavour flavour;
	const struct lava_boot *boot;
	size_t kernel; /* index into opts->kernels (0 when there are none) */
};

/*
 * Write the definitions of every boot group (and kernel) of a job file: IMAGE/lava-qemu.yaml
 * and IMAGE/lava-lab.yaml (or OUTDIR/IMAGE.lava-FLAVOUR.yaml), groups first, then kernels. The
 * command line is the image's (IMAGES/IMAGE/cmdline) when it is built, else the one
 * `benchboot build JOB` would give it. written() is told each one; a nonzero return from it
 * stops and is returned. Returns 0, -EINVAL (bad job or options; err says why) or another
 * -errno (errbuf.h).
 */
int bb_lava_write_jobs(const char *jobpath, const struct lava_opts *opts,
                       int (*written)(const struct lava_written *w, void *ctx), void *ctx,
                       char *err, size_t errlen);

#endif
