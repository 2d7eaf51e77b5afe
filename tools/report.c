/*
 * usage: benchboot report JOB [--run RUNID] [--stat NAME] [--db SPEC] [-o FILE] ...
 *
 * A job's trends across the kernels of the store as one self-contained HTML page
 * (docs/verbs/report.md): trend's series and change points drawn, and at each change point
 * the comparison of the two kernels around it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/report/report.h"
#include "host/store/store.h"
#include "trend_opts.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot report JOB [--run RUNID] [--stat NAME] [--db SPEC] [--max-p P]\n"
    "                       [--min-kernels N] [--order FILE | --tree DIR] [-o FILE.html]\n"
    "\n"
    "The trends of the job JOB across the kernels of the store (what `benchboot trend JOB`\n"
    "finds, with the same options) as one HTML file that needs nothing else: no network, no\n"
    "outside script, style or font. Per run and stat a plot drawn by benchboot (SVG): the\n"
    "kernels on the x axis in trend's order, each boot a point, the kernels' means joined,\n"
    "each change point a dashed line between the two kernels around it. At each change\n"
    "point: the %change with compare's 95% interval, the bisection to run, and the two\n"
    "kernels' boots compared as `benchboot compare` compares two folders (read from the\n"
    "folders the store records): the environment differences, the 0-day table, and the\n"
    "differential flame graph where both have perf-profile call stacks.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE write the page to FILE (default JOB.html, the job's name with\n"
    "                    '/' as '_')\n" TREND_OPTIONS_USAGE "\n"
    "exit: 0 no change point, 1 change points found (as trend), 100 wrong usage or no such\n"
    "job in the store, 111 system failure (the page not written).\n";

static const struct option options[] = {
    TREND_OPTIONS,
    {"output", required_argument, NULL, 'o'},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"report", usage_text, ":ho:", options};

/* JOB.html, a '/' in the job's name as '_'. */
static char *default_output(const char *job)
{
	char *out;
	if (asprintf(&out, "%s.html", job) < 0)
		return NULL;
	for (char *c = out; *c; c++)
		if (*c == '/')
			*c = '_';
	return out;
}

/* -o FILE (trend_own_fn). */
static int own_option(int opt, const char *v, void *ctx)
{
	*(const char **)ctx = v;
	return 0;
}

static int report_main(int argc, char **argv)
{
	struct trend_args a;
	struct bb_store *st;
	const char *output = NULL;
	char *def = NULL, err[4096] = "";
	int rc = trend_args_parse(&cmd, argc, argv, &a, own_option, &output);
	if (!rc && !output && !(output = def = default_output(a.q.job))) {
		fprintf(stderr, "benchboot report: fatal: out of memory\n");
		rc = EXIT_SYSTEM;
	}
	if (!rc)
		rc = trend_store_open(cmd.name, &a, &st);
	if (rc) {
		trend_args_free(&a);
		free(def);
		return rc < 0 ? EXIT_OK : rc;
	}
	rc = bb_report_write(output, st, &a.q, err, sizeof err);
	bb_store_close(st);
	if (rc < 0)
		fprintf(stderr, "benchboot report: %s%s\n",
		        verb_exit_status(rc) == EXIT_SYSTEM ? "fatal: " : "", err);
	else
		printf("%s: %s\n", output, rc ? "change points found" : "no change point");
	trend_args_free(&a);
	free(def);
	return rc < 0 ? verb_exit_status(rc) : rc ? EXIT_CHANGED : EXIT_OK;
}

BENCHBOOT_VERB(report, "a job's trends across kernels as one HTML page (plots, change points)",
               report_main);
