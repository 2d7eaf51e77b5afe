/*
 * usage: benchboot collect DISK -o DIR
 *        benchboot collect --console LOG -o DIR
 *
 * Copy the boots of a results disk (an image file or a block device, read with libext2fs: no
 * mount, no root) or of a serial console log into DIR/NNNN-BOOTID/, each boot once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/results/collect.h"
#include "resdisk.h"
#include "size.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot collect DISK -o DIR\n"
    "       benchboot collect --console LOG -o DIR\n"
    "\n"
    "Copy the results of every boot on a results disk (an image file or a block device; read\n"
    "with libext2fs, read-only: no mount, no root) into DIR/NNNN-BOOTID/. With --console, read\n"
    "them from a serial console log instead (the BENCHBOOT-FILE lines the init prints when\n"
    "there is no results disk, or when asked to; LOG may be '-' for stdin).\n"
    "\n"
    "Boots collected complete before are skipped, so collect can run again after every boot.\n"
    "A boot without its `done` file was interrupted: it is collected and marked incomplete\n"
    "(DIR/NNNN-BOOTID/.collect says status=incomplete; the runs with a results.json finished).\n"
    "Complete boots are checked against the sha256 manifest in `done`. Names that could\n"
    "escape DIR (.., absolute paths, symbolic links, device files) are refused.\n"
    "\n"
    "options:\n"
    "  -o DIR                 where to put the boots (created if needed)\n"
    "  --console LOG          read a console log instead of a disk\n"
    "  --max-file-size N      refuse larger files (default 1G; K, M, G suffixes)\n"
    "\n"
    "exit: 0 collected (or nothing new), 1 collected with problems (refused names, damaged\n"
    "files: the messages say which), 100 wrong usage or not a results disk, 111 system failure.\n";

static void print_msg(void *ctx, const char *line)
{
	printf("%s\n", line);
}

static int parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v;
	if (bb_size_parse(s, &v) || !v)
		return -1;
	*out = v;
	return 0;
}

static int collect_main(int argc, char **argv)
{
	const char *src = NULL, *out = NULL;
	int console = 0;
	unsigned long long max = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--console") && i + 1 < argc && !src) {
			console = 1;
			src = argv[++i];
		} else if (!strcmp(argv[i], "--max-file-size") && i + 1 < argc) {
			if (parse_size(argv[++i], &max)) {
				fprintf(stderr, "benchboot collect: bad size '%s'\n", argv[i]);
				return EXIT_USAGE;
			}
		} else if ((argv[i][0] == '-' && strcmp(argv[i], "-")) || src) {
			fprintf(stderr, "benchboot collect: unexpected argument '%s'\n%s", argv[i],
			        usage_text);
			return EXIT_USAGE;
		} else {
			src = argv[i];
		}
	}
	if (!src || !out) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	struct collect_opts o = {.outdir = out, .max_file_size = max, .msg = print_msg};
	struct collect_stats st = {0};
	char part[4200];
	unsigned partno = 0;
	if (!console && collect_find_gpt_results(src, part, sizeof(part), &partno) == 1) {
		printf("%s: GPT disk: collecting its results partition %u\n", src, partno);
		src = part;
	}
	int r = console ? collect_console(src, &o, &st) : collect_disk(src, &o, &st);
	if (r == -EMEDIUMTYPE) {
		fprintf(stderr, "benchboot collect: fatal: unable to collect %s: %s\n", src,
		        console ? "no BENCHBOOT-FILE lines in the log"
		                : "not a benchboot results disk (no ext2/3/4 filesystem with the "
		                  "benchboot marker and boots folder)");
		return EXIT_USAGE;
	}
	if (r) {
		fprintf(stderr, "benchboot collect: fatal: unable to collect %s into %s: %s\n", src,
		        out, resdisk_strerror(r));
		if (st.boots_collected)
			fprintf(stderr, "benchboot collect: %u boots were collected before that\n",
			        st.boots_collected);
		return EXIT_SYSTEM;
	}
	printf("%u boots collected (%u incomplete), %u already there; %u files, %llu bytes; "
	       "%u problems\n",
	       st.boots_collected, st.boots_incomplete, st.boots_skipped, st.files, st.bytes,
	       st.problems);
	return st.problems ? EXIT_CHANGED : EXIT_OK;
}

BENCHBOOT_VERB(collect, "copy results from a results disk or a console log", collect_main);
