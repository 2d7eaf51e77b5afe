/*
 * usage: benchboot build --name NAME [-o OUTDIR] [--sysroot DIR] [--kernel VMLINUZ]
 *                        [--modules-dir DIR] [--module NAME]... [--binary PATH[:DEST]]...
 *                        [--file SRC:DEST]... [--init PATH | --no-init] [--plan FILE]
 *                        [--busybox] [--cmdline STR] [--compress gzip|zstd|none] [--level N]
 *                        [--early-cpio FILE] [--rootfs DIR]
 *
 * Build a reproducible boot image OUTDIR/NAME/{vmlinuz, initrd.img, manifest, cmdline} from
 * explicit inputs. The work is done by image_build (lib/host/image.c); this file only parses.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/image.h"
#include "verb.h"

static const char usage_text[] =
	"usage: benchboot build --name NAME [options]\n"
	"\n"
	"Build a reproducible boot image: OUTDIR/NAME/{vmlinuz, initrd.img, manifest, cmdline}.\n"
	"Binaries, libraries, busybox and modules come from the sysroot, never from the host's\n"
	"/lib or /usr. Same inputs give the same bytes; SOURCE_DATE_EPOCH sets the mtime of\n"
	"every entry (default 0).\n"
	"\n"
	"  --name NAME            image name (letters, digits, ._+-)\n"
	"  -o, --outdir DIR       output directory (default images)\n"
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
	"\n"
	"Exit codes: 0 built, 100 bad usage or input (missing library, unknown module, paths\n"
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
};

static const struct option options[] = {
	{"name", required_argument, NULL, OPT_NAME},
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
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

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

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "benchboot build: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n'benchboot build --help' lists the options\n");
	return EXIT_USAGE;
}

static int build_main(int argc, char **argv)
{
	struct image_spec spec = {0};
	struct image_pair *binaries = calloc((size_t)argc, sizeof(*binaries));
	struct image_pair *files = calloc((size_t)argc, sizeof(*files));
	const char **modules = calloc((size_t)argc, sizeof(*modules));
	int opt, rc = EXIT_OK;

	if (!binaries || !files || !modules) {
		fprintf(stderr, "benchboot build: fatal: unable to allocate memory\n");
		return EXIT_SYSTEM;
	}
	spec.binaries = binaries;
	spec.files = files;
	spec.modules = modules;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_NAME: spec.name = optarg; break;
		case 'o': spec.outdir = optarg; break;
		case OPT_SYSROOT: spec.sysroot = optarg; break;
		case OPT_KERNEL: spec.kernel = optarg; break;
		case OPT_MODULES_DIR: spec.modules_dir = optarg; break;
		case OPT_MODULE: modules[spec.nmodules++] = optarg; break;
		case OPT_BINARY: binaries[spec.nbinaries++] = split_pair(optarg); break;
		case OPT_FILE:
			files[spec.nfiles] = split_pair(optarg);
			if (!files[spec.nfiles].dest || !*files[spec.nfiles].dest) {
				rc = usage_error("--file %s: expected SRC:DEST", optarg);
				goto out;
			}
			spec.nfiles++;
			break;
		case OPT_INIT: spec.init = optarg; break;
		case OPT_NO_INIT: spec.init = ""; break;
		case OPT_PLAN: spec.plan = optarg; break;
		case OPT_BUSYBOX: spec.busybox = 1; break;
		case OPT_CMDLINE: spec.cmdline = optarg; break;
		case OPT_COMPRESS:
			if (compress_parse(optarg, &spec.compress)) {
				rc = usage_error("--compress %s: expected gzip, zstd or none", optarg);
				goto out;
			}
			break;
		case OPT_LEVEL: {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 22) {
				rc = usage_error("--level %s: expected a number 1..22", optarg);
				goto out;
			}
			spec.level = (int)v;
			break;
		}
		case OPT_EARLY: spec.early_cpio = optarg; break;
		case OPT_ROOTFS: spec.rootfs = optarg; break;
		case 'h':
			fputs(usage_text, stdout);
			goto out;
		case ':':
			rc = usage_error("option %s needs an argument", argv[optind - 1]);
			goto out;
		default:
			rc = usage_error("unknown option %s", argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		rc = usage_error("unexpected argument '%s' (inputs are given with options)",
				 argv[optind]);
		goto out;
	}
	if (!spec.name) {
		rc = usage_error("%s", "--name NAME is required");
		goto out;
	}

	struct image_result res;
	char err[4096] = "";
	rc = image_build(&spec, &res, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "benchboot build: fatal: unable to build image %s: %s\n", spec.name,
			err);
		goto out;
	}
	printf("%s: image id %s\n", res.dir, res.id);
	printf("%s/initrd.img: %zu bytes (%s, cpio %zu bytes), %zu entries, %zu modules\n",
	       res.dir, res.initrd_size, compress_name(spec.compress), res.cpio_size, res.nentries,
	       res.nmodules);
out:
	free(binaries);
	free(files);
	free(modules);
	return rc;
}

BENCHBOOT_VERB(build, "build a reproducible boot image (kernel + initramfs)", build_main);
