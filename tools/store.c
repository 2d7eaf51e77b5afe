/*
 * usage: benchboot store add DIR... | list | rebuild   [--db sqlite:PATH | postgresql://...]
 *
 * The results store: an index of collected boots across kernels (docs/history.md).
 */
#include <stdio.h>
#include <string.h>

#include "host/store/store.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot store add DIR... [--db SPEC]\n"
    "       benchboot store list [--db SPEC]\n"
    "       benchboot store rebuild [--db SPEC]\n"
    "\n"
    "The results store: an index of every collected boot (its kernel, job, environment, runs\n"
    "with their parameters and every iteration's stats), so that a stream of kernels can be\n"
    "followed without opening each results folder. SQLite (one file, no server, no root), or\n"
    "PostgreSQL for a lab's shared store. The results folders stay the source of truth.\n"
    "\n"
    "  add DIR...   add the boots of results folders (what `benchboot run` or `collect -o`\n"
    "               wrote, or one boot folder) or LKP result trees (result roots with\n"
    "               job.yaml and stats.json); a boot the store has already (its boot id) is\n"
    "               left as it is, so adding twice changes nothing\n"
    "  list         what the store holds: folders, boots, runs, values; its kernels (name,\n"
    "               release, boots; commit, vmlinuz sha256 and path when known) and\n"
    "               jobs (boots, runs)\n"
    "  rebuild      make the index again from the folders it records (a folder that is gone\n"
    "               is said and left out)\n"
    "\n"
    "options:\n"
    "  --db SPEC    the store: sqlite:PATH or PATH, or postgresql://... (postgres://...,\n"
    "               libpq's URL) (default $BENCHBOOT_DB, else\n"
    "               $XDG_DATA_HOME/benchboot/results.db, ~/.local/share/benchboot/results.db)\n"
    "\n"
    "exit: 0 done, 100 wrong usage, a folder that is not results, a store written by a newer\n"
    "benchboot or a file that is not a store, 111 system failure (a PostgreSQL server that\n"
    "cannot be reached).\n";

enum { OPT_DB = 256 };
static const struct option options[] = {
    {"db", required_argument, NULL, OPT_DB},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"store", usage_text, ":h", options};

static int fatal(int rc, const char *err)
{
	fprintf(stderr, "benchboot store: %s\n", err);
	return verb_exit_status(rc);
}

static int list(struct bb_store *st)
{
	struct bb_store_summary s;
	char err[4096];
	int rc = bb_store_summary(st, &s, err, sizeof err);
	if (rc)
		return fatal(rc, err);
	printf("store %s: %zu folder%s, %zu boot%s, %zu run%s, %zu value%s\n", bb_store_file(st),
	       s.folders, s.folders == 1 ? "" : "s", s.boots, s.boots == 1 ? "" : "s", s.runs,
	       s.runs == 1 ? "" : "s", s.values, s.values == 1 ? "" : "s");
	if (s.nkernels)
		printf("\nkernels (name, release, boots, command line), in the order they came:\n");
	for (size_t i = 0; i < s.nkernels; i++) {
		printf("  %-16s %-20s %4zu  %s\n",
		       *s.kernels[i].name ? s.kernels[i].name : "(unnamed)", s.kernels[i].release,
		       s.kernels[i].boots, s.kernels[i].cmdline);
		if (*s.kernels[i].commit || *s.kernels[i].vmlinuz)
			printf("    commit %.12s  sha256 %.12s  %s\n",
			       *s.kernels[i].commit ? s.kernels[i].commit : "-",
			       *s.kernels[i].sha256 ? s.kernels[i].sha256 : "-",
			       *s.kernels[i].vmlinuz ? s.kernels[i].vmlinuz
			                             : "(no vmlinuz recorded)");
	}
	if (s.njobs)
		printf("\njobs (name, boots, runs):\n");
	for (size_t i = 0; i < s.njobs; i++)
		printf("  %-28s %6zu %6zu\n", *s.jobs[i].name ? s.jobs[i].name : "(unnamed)",
		       s.jobs[i].boots, s.jobs[i].runs);
	bb_store_summary_free(&s);
	return EXIT_OK;
}

static void said(const char *what, const struct bb_store_added *a)
{
	printf("%s: %zu new boot%s (%zu run%s, %zu value%s), %zu the store had already\n", what,
	       a->boots_new, a->boots_new == 1 ? "" : "s", a->runs, a->runs == 1 ? "" : "s",
	       a->values, a->values == 1 ? "" : "s", a->boots_known);
}

static int store_main(int argc, char **argv)
{
	const char *db = NULL;
	int opt;
	while ((opt = verb_getopt(&cmd, argc, argv)) != -1) {
		switch (opt) {
		case VERB_HELP:
			return EXIT_OK;
		case VERB_BAD:
			return EXIT_USAGE;
		case OPT_DB:
			db = optarg;
			break;
		}
	}
	if (optind >= argc)
		return verb_usage_error(cmd.name, "what? add DIR..., list or rebuild");
	const char *what = argv[optind++];
	int add = !strcmp(what, "add");
	if (!add && strcmp(what, "list") && strcmp(what, "rebuild"))
		return verb_usage_error(cmd.name, "'%s' is not add, list or rebuild", what);
	if (add && optind >= argc)
		return verb_usage_error(cmd.name, "add which results folders?");
	if (!add && optind < argc)
		return verb_usage_error(cmd.name, "unexpected argument '%s'", argv[optind]);
	struct bb_store *st;
	char err[4096];
	int rc = bb_store_open(db, &st, err, sizeof err);
	if (rc)
		return fatal(rc, err);
	int status = EXIT_OK;
	if (!strcmp(what, "list"))
		status = list(st);
	for (int i = optind; add && i < argc && status == EXIT_OK; i++) {
		struct bb_store_added a;
		if ((rc = bb_store_add(st, argv[i], &a, err, sizeof err)))
			status = fatal(rc, err);
		else
			said(argv[i], &a);
	}
	if (!strcmp(what, "rebuild")) {
		struct bb_store_added a;
		char missing[4096];
		if ((rc = bb_store_rebuild(st, &a, missing, sizeof missing, err, sizeof err)))
			status = fatal(rc, err);
		else {
			said(bb_store_file(st), &a);
			if (*missing)
				printf("folders that are gone, left out: %s\n", missing);
		}
	}
	bb_store_close(st);
	return status;
}

BENCHBOOT_VERB(store, "index collected results across kernels (add, list, rebuild)", store_main);
