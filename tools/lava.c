/*
 * usage: benchboot lava JOB.yaml [--images DIR] [-o DIR] [--flavour qemu|lab|both]
 *                               [--url URL] [--device-type TYPE] [--name PREFIX]
 *                               [--cpus N] [--memory MB]
 *
 * LAVA job definitions for the images of a job: one per boot group and flavour (lib/host/boot/lava.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/boot/lava.h"
#include "verb.h"

static const char usage_text[] =
	"usage: benchboot lava JOB.yaml [options]\n"
	"\n"
	"Write LAVA job definitions for the images `benchboot build JOB.yaml` makes: one per boot\n"
	"group and flavour, IMAGES/IMAGE/lava-qemu.yaml and lava-lab.yaml. Each ends with a test\n"
	"action whose monitor turns the init's LAVA_SIGNAL_TESTCASE lines into LAVA test cases\n"
	"(every measured stat with its measurement and units, every iteration pass or fail).\n"
	"\n"
	"  qemu flavour  deploy to tmpfs, boot method qemu (device type qemu, arch amd64,\n"
	"                no_kvm: true, -smp and memory as given): runs on any LAVA worker\n"
	"  lab flavour   deploy to tftp, boot method ipxe (device type x86 unless --device-type):\n"
	"                a real machine; the image's command line goes in extra_kernel_args\n"
	"\n"
	"  --images DIR        where the images are (default images)\n"
	"  -o DIR              write DIR/IMAGE.lava-FLAVOUR.yaml instead\n"
	"  --flavour F         qemu, lab or both (default both)\n"
	"  --url URL           lab flavour: the image directory as the lab serves it, e.g.\n"
	"                      http://server/benchboot/images (default file:// of --images)\n"
	"  --device-type TYPE  lab flavour device type (default x86)\n"
	"  --name PREFIX       the image name prefix given to build --name (default the job's)\n"
	"  --cpus N            qemu flavour: -smp N (default 2)\n"
	"  --memory MB         qemu flavour: memory (default 1024)\n"
	"\n"
	"Exit codes: 0 written, 100 bad job or usage, 111 system failure.\n";

static const struct option options[] = {
	{"images", required_argument, NULL, 'i'},
	{"outdir", required_argument, NULL, 'o'},
	{"flavour", required_argument, NULL, 'f'},
	{"url", required_argument, NULL, 'u'},
	{"device-type", required_argument, NULL, 'd'},
	{"name", required_argument, NULL, 'n'},
	{"cpus", required_argument, NULL, 'c'},
	{"memory", required_argument, NULL, 'm'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "benchboot lava: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n'benchboot lava --help' lists the options\n");
	return EXIT_USAGE;
}

static int number(const char *s, unsigned min, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *end || v < min || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static void print_path(const char *path, void *ctx)
{
	printf("%s\n", path);
}

static int lava_main(int argc, char **argv)
{
	struct lava_opts o = {.flavours = 1u << LAVA_QEMU | 1u << LAVA_LAB};
	char err[4096] = "";
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
		switch (opt) {
		case 'i': o.images = optarg; break;
		case 'o': o.outdir = optarg; break;
		case 'u': o.url = optarg; break;
		case 'd': o.device_type = optarg; break;
		case 'n': o.name = optarg; break;
		case 'f':
			if (!strcmp(optarg, "qemu"))
				o.flavours = 1u << LAVA_QEMU;
			else if (!strcmp(optarg, "lab"))
				o.flavours = 1u << LAVA_LAB;
			else if (!strcmp(optarg, "both"))
				o.flavours = 1u << LAVA_QEMU | 1u << LAVA_LAB;
			else
				return usage_error("--flavour %s: expected qemu, lab or both", optarg);
			break;
		case 'c':
			if (number(optarg, 1, 1024, &o.cpus))
				return usage_error("--cpus %s: expected 1..1024", optarg);
			break;
		case 'm':
			if (number(optarg, 64, 1u << 22, &o.memory_mb))
				return usage_error("--memory %s: expected megabytes, 64 or more", optarg);
			break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		case ':': return usage_error("option %s needs an argument", argv[optind - 1]);
		default: return usage_error("unknown option %s", argv[optind - 1]);
		}
	}
	if (optind + 1 != argc)
		return usage_error("%s", optind < argc ? "one job file, please" : "which job file?");
	int rc = lava_write_jobs(argv[optind], &o, print_path, NULL, err, sizeof(err));
	if (rc)
		fprintf(stderr, "benchboot lava: %s%s\n", rc == EXIT_USAGE ? "" : "fatal: ", err);
	return rc;
}

BENCHBOOT_VERB(lava, "write LAVA job definitions (QEMU and lab) for a job's images", lava_main);
