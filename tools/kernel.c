/*
 * usage: benchboot kernel DIR [--commit C] [--config FILE] [--job JOB [--set KEY=VALUE]...]
 *                         [-j N]
 *
 * Build bzImage and modules from the kernel tree DIR, out of tree, with the configuration a
 * job needs (host/kernel/kbuild.h), and print the line that names the build in a kernels file
 * of `benchboot bisect --kernels`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/kernel/jobneeds.h"
#include "host/kernel/kbuild.h"
#include "strv.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot kernel DIR [--commit C] [--config FILE] [--job JOB [--set KEY=VALUE]...]\n"
    "                        [-j N]\n"
    "\n"
    "Build a kernel (bzImage and modules) from the kernel tree DIR, out of tree: the base\n"
    "configuration (--config FILE, else make defconfig) with benchboot's fragment appended\n"
    "(what every boot needs, and what the job needs: its cgroup controllers, cpufreq governor,\n"
    "NIC, monitors and modules; `benchboot check JOB --kconfig --tree DIR` prints it), then\n"
    "make olddefconfig. With --commit, that commit of DIR's git repository is built in\n"
    "benchboot's own clone of it (DIR is never touched); without, DIR as it is. Builds are kept\n"
    "in CACHE/kernels/builds, by commit and configuration digest: building the same commit\n"
    "again is immediate; a changed work tree is built anew (incrementally) every time.\n"
    "Fragment lines the final .config lacks (a dependency off) are warnings.\n"
    "\n"
    "  --commit C       a commit (hash, tag, branch) of DIR's repository\n"
    "  --config FILE    the base configuration (default: make defconfig)\n"
    "  --job JOB        the job whose needs go into the fragment (default: benchboot's only)\n"
    "  --set KEY=VALUE  overrides of the job, as check and run take them\n"
    "  -j N             make's jobs (default: the online CPUs)\n"
    "\n"
    "Output: progress and the log's path on stderr; on stdout one line,\n"
    "    NAME VMLINUZ MODULES\n"
    "(NAME the commit's first 12 hex digits, or 'tree'), as a line of a kernels file for\n"
    "benchboot bisect --kernels, and usable as run --kernel NAME=VMLINUZ --modules MODULES.\n"
    "\n"
    "exit: 0 built (or found built), 1 the build failed (its log is kept and named), 100 bad\n"
    "usage or input (no kernel tree, no such commit, a bad job), 111 system failure.\n";

enum { OPT_COMMIT = 256, OPT_CONFIG, OPT_JOB, OPT_SET };
static const struct option options[] = {
    {"commit", required_argument, NULL, OPT_COMMIT},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"job", required_argument, NULL, OPT_JOB},
    {"set", required_argument, NULL, OPT_SET},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"kernel", usage_text, ":j:h", options};

static void say(void *ctx, const char *line)
{
	fprintf(stderr, "benchboot kernel: %s\n", line);
}

static int kernel_main(int argc, char **argv)
{
	struct bb_kbuild_opts o = {.say = say};
	struct bb_kbuild_result r;
	struct bb_strv sets = {0}, warnings = {0};
	const char *job = NULL;
	char *fragment = NULL, err[4096];
	double jobs = 0;
	int opt, rc = EXIT_OK;
	memset(&r, 0, sizeof(r));
	while ((opt = verb_getopt(&cmd, argc, argv)) != -1) {
		switch (opt) {
		case VERB_HELP:
			goto out;
		case VERB_BAD:
			rc = EXIT_USAGE;
			goto out;
		case OPT_COMMIT:
			o.commit = optarg;
			break;
		case OPT_CONFIG:
			o.base_config = optarg;
			break;
		case OPT_JOB:
			job = optarg;
			break;
		case OPT_SET:
			if ((rc = verb_add_set(cmd.name, &sets, optarg)))
				goto out;
			break;
		case 'j':
			if ((rc = verb_number(cmd.name, "-j", optarg, 1, 1024, "1 to 1024", NULL,
			                      &jobs)))
				goto out;
			o.jobs = (int)jobs;
			break;
		}
	}
	if (optind < argc)
		o.tree = argv[optind++];
	if (optind < argc) {
		rc = verb_usage_error(cmd.name, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!o.tree) {
		rc = verb_usage_error(cmd.name, "which kernel tree? benchboot kernel DIR");
		goto out;
	}
	if (sets.n && !job) {
		rc = verb_usage_error(cmd.name, "--set changes a job: give --job JOB");
		goto out;
	}
	int r0 = bb_kconfig_job_fragment(job, sets.n ? &sets : NULL, o.tree, &fragment, &warnings,
	                                 err, sizeof(err));
	if (r0) {
		fprintf(stderr, "benchboot kernel: fatal: %s\n", err);
		rc = verb_exit_status(r0);
		goto out;
	}
	for (size_t i = 0; i < warnings.n; i++)
		fprintf(stderr, "benchboot kernel: warning: %s\n", warnings.v[i]);
	o.fragment = fragment;
	r0 = bb_kernel_build(&o, &r, err, sizeof(err));
	for (size_t i = 0; i < r.config_missing.n; i++) {
		char line[1200];
		bb_kbuild_missing_warning(&r, i, line, sizeof(line));
		fprintf(stderr, "benchboot kernel: warning: %s\n", line);
	}
	if (r0 == 1) {
		fprintf(stderr, "benchboot kernel: %s\n", err);
		rc = EXIT_CHANGED;
	} else if (r0) {
		fprintf(stderr, "benchboot kernel: fatal: %s\n", err);
		rc = verb_exit_status(r0);
	} else {
		if (!r.cached)
			fprintf(stderr, "benchboot kernel: built %s (%s) in %.0f s: %s\n", r.name,
			        r.release, r.seconds, r.dir);
		printf("%s %s %s\n", r.name, r.vmlinuz, r.modules);
	}
out:
	free(fragment);
	bb_kbuild_result_free(&r);
	bb_strv_free(&sets);
	bb_strv_free(&warnings);
	return rc;
}

BENCHBOOT_VERB(kernel, "build a kernel from a tree with what a job needs", kernel_main);
