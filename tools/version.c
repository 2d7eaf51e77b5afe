/*
 * usage: benchboot version
 *
 * Print benchboot's version and the pinned inputs it was built for (config/inputs.lock).
 */
#include <stdio.h>
#include <string.h>

#include "verb.h"

static int version_main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: benchboot version\n\nPrint the version of benchboot.\n");
		return EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr, "benchboot version: unexpected argument '%s'\n", argv[1]);
		return EXIT_USAGE;
	}
	printf("benchboot %s\n", BENCHBOOT_VERSION);
	return EXIT_OK;
}

BENCHBOOT_VERB(version, "print the version", version_main);
