/* What every verb shares: the exit code of a library outcome, usage errors, the option loop. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "strv.h"

#include "verb.h"

/* The errnos that mean "bad input" (exit 100); docs/architecture.md lists them too. */
static const int bad_input[] = {
	EINVAL,       /* a malformed job, argument or file */
	ENOENT,       /* a file or folder the user named does not exist */
	ENOTDIR,      /* a file where a folder was wanted */
	EISDIR,       /* a folder where a file was wanted */
	EACCES,       /* a named file that cannot be read or written; a LAVA token refused */
	ENAMETOOLONG, /* a path too long */
	EMEDIUMTYPE,  /* not a results disk; a console log without results */
	EEXIST,       /* a file the verb does not overwrite without --force */
	ENOTEMPTY,    /* a non-empty file or device the verb does not overwrite without --force */
	EBUSY,        /* a device in use (mounted, a swap, held by another device) */
};

int exit_status(int r)
{
	if (!r)
		return EXIT_OK;
	for (size_t i = 0; i < sizeof(bad_input) / sizeof(*bad_input); i++)
		if (r == -bad_input[i])
			return EXIT_USAGE;
	return EXIT_SYSTEM;
}

int usage_error(const char *verb, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "benchboot %s: ", verb);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n'benchboot %s --help' explains the usage\n", verb);
	return EXIT_USAGE;
}

int verb_getopt(const struct verb_cmd *c, int argc, char **argv)
{
	static const struct verb_cmd *current;
	if (current != c) { /* a new command line: getopt starts over */
		current = c;
		optind = 0;
	}
	opterr = 0;
	int opt = getopt_long(argc, argv, c->shortopts, c->longopts, NULL);
	if (opt == 'h') {
		fputs(c->usage, stdout);
		return VERB_HELP;
	}
	if (opt == ':')
		return usage_error(c->name, "option %s needs an argument", argv[optind - 1]),
		       VERB_BAD;
	if (opt == '?')
		return usage_error(c->name, "unknown option %s", argv[optind - 1]), VERB_BAD;
	return opt;
}

int verb_add_set(const char *verb, struct bb_strv *sets, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return usage_error(verb, "--set %s: expected KEY=VALUE (e.g. --set runtime=10s)", arg);
	if (bb_strv_add(sets, arg)) {
		fprintf(stderr, "benchboot %s: fatal: out of memory\n", verb);
		return EXIT_SYSTEM;
	}
	return 0;
}
