/*
 * usage: benchboot version
 *
 * Print benchboot's version and the pinned inputs it was built for (config/inputs.lock).
 */
#include <stdio.h>

#include "verb.h"

static const char usage_text[] = "usage: benchboot version\n\nPrint the version of benchboot.\n";

static const struct option options[] = {VERB_HELP_OPTION, {NULL, 0, NULL, 0}};
static const struct verb_cmd cmd = {"version", usage_text, ":h", options};

static int version_main(int argc, char **argv)
{
	int opt;
	while ((opt = verb_getopt(&cmd, argc, argv)) != -1)
		return opt == VERB_HELP ? EXIT_OK : EXIT_USAGE;
	if (optind < argc)
		return verb_usage_error(cmd.name, "unexpected argument '%s'", argv[optind]);
	printf("benchboot %s\n", BENCHBOOT_VERSION);
	return EXIT_OK;
}

BENCHBOOT_VERB(version, "print the version", version_main);
