/* A `benchboot` verb: one per file in tools/, registered with BENCHBOOT_VERB. */
#ifndef BENCHBOOT_VERB_H
#define BENCHBOOT_VERB_H

#include <errno.h>

#define BENCHBOOT_VERSION "0.1"

/* Exit codes every verb keeps to (scripts rely on them). */
enum {
	EXIT_OK = 0,
	EXIT_CHANGED = 1, /* a comparison found significant changes, a check found problems */
	EXIT_USAGE = 100, /* wrong usage or bad input (job file, arguments) */
	EXIT_SYSTEM = 111, /* system failure: I/O, a missing tool, a failed boot */
};

/*
 * The one place where a library outcome becomes an exit code. The library (lib/, lib/host/)
 * returns 0 or -errno with a message (host/errbuf.h): -EINVAL means the input is wrong (a job,
 * an argument, a named file), any other -errno a failure of the system.
 */
static inline int exit_status(int r)
{
	return r == 0 ? EXIT_OK : r == -EINVAL ? EXIT_USAGE : EXIT_SYSTEM;
}

struct bb_verb {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv); /* argv[0] is the verb name */
};

#define BENCHBOOT_VERB(vname, vsummary, vmain)                                                     \
	static const struct bb_verb bb_verb_##vname                                                \
		__attribute__((used, section("bb_verbs"), aligned(sizeof(void *)))) = {            \
			.name = #vname, .summary = vsummary, .main = vmain}

#endif
