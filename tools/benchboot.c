/*
 * benchboot: reproducible boot images for kernel benchmarks.
 *
 * usage: benchboot VERB [ARGS...]      benchboot help [VERB]      benchboot --version
 *
 * Each verb lives in its own file in tools/ and registers itself with BENCHBOOT_VERB.
 */
#include <stdio.h>
#include <string.h>

#include "host/editdist.h"
#include "verb.h"

extern const struct bb_verb __start_bb_verbs[], __stop_bb_verbs[];

static void usage(FILE *f)
{
	fprintf(
	    f, "usage: benchboot VERB [ARGS...]\n\n"
	       "Build reproducible kernel-benchmark boot images, run them, collect and compare.\n\n"
	       "verbs:\n");
	for (const struct bb_verb *v = __start_bb_verbs; v < __stop_bb_verbs; v++)
		fprintf(f, "  %-12s %s\n", v->name, v->summary);
	fprintf(f, "\n'benchboot VERB --help' describes one verb. Exit codes: 0 ok, 1 changes or "
	           "problems found,\n100 wrong usage or bad input, 111 system failure.\n");
}

static const struct bb_verb *find_verb(const char *name)
{
	for (const struct bb_verb *v = __start_bb_verbs; v < __stop_bb_verbs; v++)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("benchboot %s\n", BENCHBOOT_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc < 3) {
			usage(stdout);
			return EXIT_OK;
		}
		const struct bb_verb *v = find_verb(argv[2]);
		if (!v) {
			fprintf(stderr, "benchboot: unknown verb '%s'\n", argv[2]);
			return EXIT_USAGE;
		}
		char *hargv[] = {argv[2], "--help", NULL};
		return v->main(2, hargv);
	}
	const struct bb_verb *v = find_verb(argv[1]);
	if (!v) {
		const struct bb_verb *near = NULL;
		unsigned best = 3; /* at most 2 edits away */
		for (const struct bb_verb *c = __start_bb_verbs; c < __stop_bb_verbs; c++)
			if (bb_edit_distance(argv[1], c->name) < best)
				best = bb_edit_distance(argv[1], c->name), near = c;
		fprintf(stderr,
		        "benchboot: unknown verb '%s'%s%s%s; 'benchboot --help' lists them\n",
		        argv[1], near ? " (did you mean '" : "", near ? near->name : "",
		        near ? "'?)" : "");
		return EXIT_USAGE;
	}
	return v->main(argc - 1, argv + 1);
}
