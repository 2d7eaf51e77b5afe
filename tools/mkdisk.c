/*
 * usage: benchboot mkdisk PATH [--size N] [--force]
 *
 * Make a results disk: an ext4 filesystem (mke2fs) labelled BENCHBOOT, then the marker file with
 * a random disk id, written with libext2fs. PATH is an image file (created, no root needed) or a
 * block device (only with --force, and never while it or a partition of it is in use).
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/results/mkdisk.h"
#include "results/resdisk.h"
#include "host/size.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot mkdisk PATH [--size N] [--force]\n"
    "\n"
    "Make a benchboot results disk at PATH: ext4 with the label " RESDISK_LABEL " and a marker\n"
    "file holding a random disk id. The init writes results only to such a disk; `benchboot\n"
    "collect` reads them back. PATH is an image file (created; no root needed) or a block\n"
    "device.\n"
    "\n"
    "options:\n"
    "  --size N    size of an image file, with K, M or G (default 256M)\n"
    "  --force     overwrite an existing non-empty file; required for a block device, which\n"
    "              is still refused while it or one of its partitions is mounted, a swap or\n"
    "              held by another device\n"
    "\n"
    "exit: 0 made, 100 wrong usage or refused, 111 system failure.\n";

enum { OPT_SIZE = 256, OPT_FORCE };
static const struct option options[] = {
    {"size", required_argument, NULL, OPT_SIZE},
    {"force", no_argument, NULL, OPT_FORCE},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"mkdisk", usage_text, ":h", options};

static int mkdisk_main(int argc, char **argv)
{
	const char *path;
	unsigned long long size = BB_MKDISK_DEFAULT_SIZE;
	int force = 0, size_given = 0, opt;
	struct stat st;
	char id[RESDISK_ID_LEN + 1], why[1024];
	int r;

	while ((opt = verb_getopt(&cmd, argc, argv)) != -1) {
		switch (opt) {
		case VERB_HELP:
			return EXIT_OK;
		case VERB_BAD:
			return EXIT_USAGE;
		case OPT_FORCE:
			force = 1;
			break;
		case OPT_SIZE:
			if (bb_size_parse(optarg, &size) || size < (1ULL << 20) ||
			    size > (1ULL << 44))
				return verb_usage_error(
				    cmd.name, "bad size '%s' (e.g. 64M, 2G; at least 1M)", optarg);
			size_given = 1;
			break;
		}
	}
	if (optind + 1 != argc)
		return optind == argc ? verb_usage_error(cmd.name, "which PATH?")
		                      : verb_usage_error(cmd.name, "unexpected argument '%s'",
		                                         argv[optind + 1]);
	path = argv[optind];

	if (!stat(path, &st) && S_ISBLK(st.st_mode) && size_given)
		fprintf(stderr, "benchboot mkdisk: %s is a block device: --size ignored\n", path);
	struct bb_mkdisk o = {.size = size, .force = force};
	if ((r = bb_mkdisk(path, &o, id, why, sizeof(why)))) {
		fprintf(stderr, "benchboot mkdisk: fatal: %s%s\n", why,
		        r == -EEXIST      ? " (--force overwrites it)"
		        : r == -ENOTEMPTY ? ": add --force if that is what you want"
		                          : "");
		return verb_exit_status(r);
	}
	printf("%s: results disk %s\n", path, id);
	return EXIT_OK;
}

BENCHBOOT_VERB(mkdisk, "make a results disk (an image file or a block device)", mkdisk_main);
