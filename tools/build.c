/*
 * usage: benchboot build [options] [--set KEY=VALUE]... JOB.yaml   (an image per boot group)
 *        benchboot build --name NAME [-o OUTDIR] [--sysroot DIR] [--kernel VMLINUZ]
 *                        [--modules-dir DIR] [--module NAME]... [--binary PATH[:DEST]]...
 *                        [--file SRC:DEST]... [--init PATH | --no-init] [--plan FILE]
 *                        [--busybox] [--cmdline STR] [--compress gzip|zstd|none] [--level N]
 *                        [--early-cpio FILE] [--rootfs DIR]
 *
 * Build a reproducible boot image OUTDIR/NAME/{vmlinuz, initrd.img, manifest, cmdline} from
 * explicit inputs. The work is done by bb_image_build (lib/host/image/image.c); this file only
 * parses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/boot/bootdisk.h"
#include "host/boot/bootmedia.h"
#include "host/image/image.h"
#include "host/job/jobimage.h"
#include "host/job/jobwarnings.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot build --name NAME [options]\n"
    "       benchboot build [options] JOB.yaml\n"
    "\n"
    "With a job file: the images the job needs, one per boot group (OUTDIR/JOB, or\n"
    "OUTDIR/JOB.bootN when the job has several), each with its plan and only the programs\n"
    "and modules its runs use; --name sets the prefix; other options apply to every "
    "image.\n" VERB_SET_HELP "\n"
    "Build a reproducible boot image: OUTDIR/NAME/{vmlinuz, initrd.img, manifest, cmdline}.\n"
    "Binaries, libraries, busybox and modules come from the sysroot, never from the host's\n"
    "/lib or /usr. Same inputs give the same bytes; SOURCE_DATE_EPOCH sets the mtime of\n"
    "every entry (default 0).\n"
    "\n"
    "  --name NAME            image name (letters, digits, ._+-)\n"
    "  -o, --output DIR       output directory (default images; --outdir: the old name)\n"
    "  --sysroot DIR          default $SYSROOT, else CACHE/sysroot/LOCKID of config/inputs.lock\n"
    "  --kernel VMLINUZ       default the sysroot's boot/vmlinuz-*\n"
    "  --modules-dir DIR      a lib/modules/VERSION directory (default the sysroot's)\n"
    "  --module NAME          load NAME at boot: it and its dependencies and softdeps go in\n"
    "                         the image, in load order in /etc/benchboot/modules.order\n"
    "  --binary PATH[:DEST]   a binary from the sysroot (or, if not there, from the host, e.g.\n"
    "                         build/netperf/netperf -> /usr/bin/netperf) with its libraries\n"
    "  --file SRC:DEST        a host file or directory at DEST\n"
    "  --init PATH            becomes /init (default build/init if present)\n"
    "  --no-init              no default /init\n"
    "  --plan FILE            becomes /etc/benchboot/plan\n"
    "  --busybox              the sysroot's bin/busybox with its applet links\n"
    "  --cmdline STR          kernel command line written to OUTDIR/NAME/cmdline\n"
    "                         (default \"" IMAGE_DEFAULT_CMDLINE "\")\n"
    "  --compress KIND        gzip (default), zstd or none\n"
    "  --level N              compression level (default gzip 6, zstd 19)\n"
    "  --early-cpio FILE      an uncompressed cpio (microcode) put before the initramfs\n"
    "  --rootfs DIR           the files every image carries (default rootfs/ of benchboot)\n"
    "  --uki                  also OUTDIR/NAME/benchboot.efi: a UEFI unified kernel image\n"
    "  --disk                 also OUTDIR/NAME/disk.img: a USB stick image (ESP with the UKI,\n"
    "                         results partition); implies --uki; adds the virtio and USB\n"
    "                         storage modules\n"
    "  --pxe                  also OUTDIR/NAME/pxe/: a TFTP/HTTP tree for iPXE and PXELINUX\n"
    "                         (docs/boot-anywhere.md)\n"
    "\n"
    "exit: 0 built, 100 bad usage or input (missing library, unknown module, paths\n"
    "escaping the image or colliding), 111 system failure.\n";

enum {
	OPT_NAME = 256,
	OPT_SYSROOT,
	OPT_KERNEL,
	OPT_MODULES_DIR,
	OPT_MODULE,
	OPT_BINARY,
	OPT_FILE,
	OPT_INIT,
	OPT_NO_INIT,
	OPT_PLAN,
	OPT_BUSYBOX,
	OPT_CMDLINE,
	OPT_COMPRESS,
	OPT_LEVEL,
	OPT_EARLY,
	OPT_ROOTFS,
	OPT_UKI,
	OPT_DISK,
	OPT_PXE,
	OPT_SET,
};

static const struct option options[] = {
    {"name", required_argument, NULL, OPT_NAME},
    {"output", required_argument, NULL, 'o'},
    {"outdir", required_argument, NULL, 'o'},
    {"sysroot", required_argument, NULL, OPT_SYSROOT},
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"modules-dir", required_argument, NULL, OPT_MODULES_DIR},
    {"module", required_argument, NULL, OPT_MODULE},
    {"binary", required_argument, NULL, OPT_BINARY},
    {"file", required_argument, NULL, OPT_FILE},
    {"init", required_argument, NULL, OPT_INIT},
    {"no-init", no_argument, NULL, OPT_NO_INIT},
    {"plan", required_argument, NULL, OPT_PLAN},
    {"busybox", no_argument, NULL, OPT_BUSYBOX},
    {"cmdline", required_argument, NULL, OPT_CMDLINE},
    {"compress", required_argument, NULL, OPT_COMPRESS},
    {"level", required_argument, NULL, OPT_LEVEL},
    {"early-cpio", required_argument, NULL, OPT_EARLY},
    {"rootfs", required_argument, NULL, OPT_ROOTFS},
    {"uki", no_argument, NULL, OPT_UKI},
    {"disk", no_argument, NULL, OPT_DISK},
    {"pxe", no_argument, NULL, OPT_PXE},
    {"set", required_argument, NULL, OPT_SET},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"build", usage_text, ":o:h", options};

/* SRC[:DEST] split at the first ':' (the argument string is modified). */
static struct image_pair split_pair(char *arg)
{
	struct image_pair p = {arg, NULL};
	char *colon = strchr(arg, ':');
	if (colon) {
		*colon = 0;
		p.dest = colon + 1;
	}
	return p;
}

/* --uki, --disk, --pxe: the boot media of a built image (lib/host/boot/bootmedia.c). */
static int build_media(const struct image_result *res, const char *name,
                       const struct image_spec *spec, unsigned media)
{
	char sysroot[4096], err[4096] = "";
	struct bootmedia_spec m = {
	    .dir = res->dir, .name = name, .id = res->id, .sysroot = spec->sysroot, .what = media};
	int rc = spec->have_mtime ? (m.mtime = spec->mtime, 0)
	                          : bb_image_epoch(&m.mtime, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "benchboot build: %s\n", err);
		return verb_exit_status(rc);
	}
	if (!m.sysroot &&
	    (rc = bb_image_default_sysroot(sysroot, sizeof(sysroot), err, sizeof(err)))) {
		fprintf(stderr, "benchboot build: fatal: unable to find the sysroot: %s\n", err);
		return verb_exit_status(rc);
	}
	m.sysroot = m.sysroot ? m.sysroot : sysroot;
	rc = bb_bootmedia_make(&m, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "benchboot build: fatal: unable to make the boot media of %s: %s\n",
		        name, err);
		return verb_exit_status(rc);
	}
	if (media & (BOOTMEDIA_UKI | BOOTMEDIA_DISK))
		printf("%s/benchboot.efi: UEFI unified kernel image\n", res->dir);
	if (media & BOOTMEDIA_DISK)
		printf("%s/disk.img: disk image (ESP + results partition)\n", res->dir);
	if (media & BOOTMEDIA_PXE)
		printf("%s/pxe/: network boot tree (boot.ipxe, pxelinux.cfg/default)\n", res->dir);
	return EXIT_OK;
}

/* benchboot build [options] JOB.yaml: one image per boot group (lib/host/job/jobimage.c). */
static int build_job(const char *job, const struct bb_strv *sets, const struct image_spec *base,
                     unsigned media)
{
	struct image_result *res;
	size_t n;
	char err[4096] = "";
	/* the job's warnings (keys LKP would drop, stressors this stress-ng lacks) first */
	bb_job_file_warnings("build", job, sets);
	int rc = bb_jobimage_build(job, sets, base, &res, &n, err, sizeof(err));
	for (size_t i = 0; i < n; i++)
		printf("%s: image id %s, %zu bytes, %zu entries, %zu modules\n", res[i].dir,
		       res[i].id, res[i].initrd_size, res[i].nentries, res[i].nmodules);
	if (rc) {
		fprintf(stderr, "benchboot build: %s%s\n",
		        rc == -EINVAL ? "" : "fatal: unable to build the images of a job: ", err);
		rc = verb_exit_status(rc);
	}
	for (size_t i = 0; !rc && media && i < n; i++) {
		const char *slash = strrchr(res[i].dir, '/');
		rc = build_media(&res[i], slash ? slash + 1 : res[i].dir, base, media);
	}
	if (!rc && (media & BOOTMEDIA_PXE) && n > 1) {
		/* One tree for all boot groups: OUTDIR/JOB.pxe next to OUTDIR/JOB.bootN. */
		const char **dirs = calloc(n, sizeof(*dirs));
		char out[4200];
		snprintf(out, sizeof(out), "%.*s.pxe", (int)(strrchr(res[0].dir, '.') - res[0].dir),
		         res[0].dir);
		for (size_t i = 0; dirs && i < n; i++)
			dirs[i] = res[i].dir;
		rc = dirs ? bb_bootmedia_pxe_groups(dirs, n, out, strrchr(out, '/') + 1, err,
		                                    sizeof(err))
		          : bb_errbuf_fail(err, sizeof(err), -ENOMEM, "out of memory");
		if (rc) {
			fprintf(stderr, "benchboot build: fatal: unable to write %s: %s\n", out,
			        err);
			rc = verb_exit_status(rc);
		} else
			printf("%s/: network boot tree of all %zu boot groups (boot.ipxe menu)\n",
			       out, n);
		free(dirs);
	}
	free(res);
	return rc;
}

/* What the command line asked for: the image's inputs, the media, the job's --set. */
struct build_args {
	struct image_spec spec;
	struct image_pair *binaries, *files;
	const char **modules;
	unsigned media;
	struct bb_strv sets;
};

/* One option into A: -1 when taken, else the exit code (a usage error, or 0 after --help). */
static int take_option(struct build_args *a, int opt)
{
	struct image_spec *spec = &a->spec;
	switch (opt) {
	case OPT_NAME:
		spec->name = optarg;
		break;
	case 'o':
		spec->outdir = optarg;
		break;
	case OPT_SYSROOT:
		spec->sysroot = optarg;
		break;
	case OPT_KERNEL:
		spec->kernel = optarg;
		break;
	case OPT_MODULES_DIR:
		spec->modules_dir = optarg;
		break;
	case OPT_MODULE:
		a->modules[spec->nmodules++] = optarg;
		break;
	case OPT_BINARY:
		a->binaries[spec->nbinaries++] = split_pair(optarg);
		break;
	case OPT_FILE:
		a->files[spec->nfiles] = split_pair(optarg);
		if (!a->files[spec->nfiles].dest || !*a->files[spec->nfiles].dest)
			return verb_usage_error(cmd.name, "--file %s: expected SRC:DEST", optarg);
		spec->nfiles++;
		break;
	case OPT_INIT:
		spec->init = optarg;
		break;
	case OPT_NO_INIT:
		spec->init = "";
		break;
	case OPT_PLAN:
		spec->plan = optarg;
		break;
	case OPT_BUSYBOX:
		spec->busybox = 1;
		break;
	case OPT_CMDLINE:
		spec->cmdline = optarg;
		break;
	case OPT_COMPRESS:
		if (bb_compress_parse(optarg, &spec->compress))
			return verb_usage_error(
			    cmd.name, "--compress %s: expected gzip, zstd or none", optarg);
		break;
	case OPT_LEVEL: {
		char *end;
		long v = strtol(optarg, &end, 10);
		if (*end || v < 1 || v > 22)
			return verb_usage_error(cmd.name, "--level %s: expected a number 1..22",
			                        optarg);
		spec->level = (int)v;
		break;
	}
	case OPT_EARLY:
		spec->early_cpio = optarg;
		break;
	case OPT_ROOTFS:
		spec->rootfs = optarg;
		break;
	case OPT_UKI:
		a->media |= BOOTMEDIA_UKI;
		break;
	case OPT_DISK:
		a->media |= BOOTMEDIA_DISK;
		break;
	case OPT_PXE:
		a->media |= BOOTMEDIA_PXE;
		break;
	case OPT_SET: {
		int rc = verb_add_set(cmd.name, &a->sets, optarg);
		if (rc)
			return rc;
		break;
	}
	case VERB_HELP:
		return EXIT_OK;
	case VERB_BAD:
		return EXIT_USAGE;
	}
	return -1;
}

/* A disk image's init must see the disk it booted from (virtio, USB sticks), and a USB
 * stick's partitions appear a while after its driver is loaded: the init waits for them. */
static void disk_needs(struct build_args *a)
{
	static const char *const disk_modules[] = BOOTDISK_MODULES;
	static char disk_cmdline[4096];
	if (!(a->media & BOOTMEDIA_DISK))
		return;
	for (size_t i = 0; i < sizeof(disk_modules) / sizeof(*disk_modules); i++)
		a->modules[a->spec.nmodules++] = disk_modules[i];
	const char *base = a->spec.cmdline ? a->spec.cmdline : IMAGE_DEFAULT_CMDLINE;
	if (!strstr(base, "benchboot.results.wait=")) {
		snprintf(disk_cmdline, sizeof(disk_cmdline), "%s %s", base, BOOTDISK_RESULTS_WAIT);
		a->spec.cmdline = disk_cmdline;
	}
}

/* One image from explicit inputs (--name), and its media. */
static int build_one(const struct build_args *a)
{
	struct image_result res;
	char err[4096] = "";
	int rc = bb_image_build(&a->spec, &res, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "benchboot build: fatal: unable to build image %s: %s\n",
		        a->spec.name, err);
		return verb_exit_status(rc);
	}
	printf("%s: image id %s\n", res.dir, res.id);
	printf("%s/initrd.img: %zu bytes (%s, cpio %zu bytes), %zu entries, %zu modules\n", res.dir,
	       res.initrd_size, bb_compress_name(a->spec.compress), res.cpio_size, res.nentries,
	       res.nmodules);
	return a->media ? build_media(&res, a->spec.name, &a->spec, a->media) : EXIT_OK;
}

static int build_main(int argc, char **argv)
{
	struct build_args a = {
	    .binaries = calloc((size_t)argc, sizeof(*a.binaries)),
	    .files = calloc((size_t)argc, sizeof(*a.files)),
	    .modules = calloc((size_t)argc + 8, sizeof(*a.modules)),
	};
	int opt, rc = -1;

	if (!a.binaries || !a.files || !a.modules) {
		fprintf(stderr, "benchboot build: fatal: unable to allocate memory\n");
		rc = EXIT_SYSTEM;
		goto out;
	}
	a.spec.binaries = a.binaries;
	a.spec.files = a.files;
	a.spec.modules = a.modules;
	while (rc < 0 && (opt = verb_getopt(&cmd, argc, argv)) != -1)
		rc = take_option(&a, opt);
	if (rc >= 0)
		goto out;
	disk_needs(&a);
	if (optind + 1 == argc && bb_jobimage_is_job(argv[optind]))
		rc = build_job(argv[optind], &a.sets, &a.spec, a.media);
	else if (a.sets.n)
		rc = verb_usage_error(cmd.name, "--set %s: overrides a job's key; give a JOB.yaml",
		                      a.sets.v[0]);
	else if (optind < argc)
		rc = verb_usage_error(cmd.name,
		                      "unexpected argument '%s' (inputs are given with options)",
		                      argv[optind]);
	else if (!a.spec.name)
		rc = verb_usage_error(cmd.name, "--name NAME is required");
	else
		rc = build_one(&a);
out:
	bb_strv_free(&a.sets);
	free(a.binaries);
	free(a.files);
	free(a.modules);
	return rc;
}

BENCHBOOT_VERB(build, "build a reproducible boot image (kernel + initramfs)", build_main);
