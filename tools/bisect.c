/*
 * usage: benchboot bisect JOB (--kernels FILE | --tree DIR --good C1 --bad C2 [--config FILE])
 *                         [--stat NAME] [--min-change P%] [--max-boots N]
 *                         [--first-look N] [--alpha A] [--accel auto|kvm|tcg] [-o DIR]
 *                         [--images DIR] [--resume] [--set KEY=VALUE]... [--cpus N] [--mem MB]
 *
 * Which of an ordered list of prebuilt kernels brings a performance change: the ends first
 * (good against bad), then each candidate against fresh boots of the good end, at fixed looks
 * with an error bound (host/bisect/decide.h), then the culprit against its parent. Every boot
 * goes through `run`'s machinery one at a time (host/bisect/boots.h) and into DIR/boots.jsonl.
 * With --tree, the candidates are the first-parent commits of C1..C2, each built when the
 * bisection first boots it (host/kernel/kbuild.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/bisect/boots.h"
#include "host/bisect/kernels.h"
#include "host/bisect/report.h"
#include "host/job/jobwarnings.h"
#include "host/bisect/treecands.h"
#include "host/bisect/verifytable.h"
#include "host/run/progress.h"
#include "strv.h"
#include "bisect_opts.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot bisect JOB --kernels FILE [OPTIONS]\n"
    "       benchboot bisect JOB --tree DIR --good C1 --bad C2 [--config FILE] [OPTIONS]\n"
    "\n"
    "Find which of an ordered list of prebuilt kernels, or which commit of a kernel tree,\n"
    "brings a performance change of the job's primary stat, with an error bound. FILE lists\n"
    "the candidates oldest first, one a line: NAME VMLINUZ [MODULES_DIR|-] [EXTRA KERNEL\n"
    "COMMAND LINE...] ('#' comments and blank lines skipped); the first line is the good\n"
    "end, the last the bad end. With --tree, the candidates are C1 and the first-parent\n"
    "commits of C1..C2 (a merge stands for its branch), at most 64, each built as\n"
    "`benchboot kernel DIR --commit C --job JOB` builds it, when first booted (a commit that\n"
    "does not build is untestable, its log kept). First the\n"
    "ends, good against bad, until the interval of the %change excludes 0 by more than\n"
    "--min-change (else: no reproducible change; D is the change found); then the candidate\n"
    "nearest the middle against fresh boots of the good end, booted in turn: new when the\n"
    "whole interval lies beyond D/2, old when short of it, else more boots at the next look;\n"
    "then the culprit against its parent: the share of D it explains. A candidate whose boots\n"
    "(or build) fail twice is skipped; still unclear at --max-boots: the range left. Each\n"
    "candidate's images are built once, at its first boot; every boot is collected into DIR\n"
    "(run.json, console/) and logged in DIR/boots.jsonl. Ctrl-C stops the VM; --resume goes on.\n"
    "\n"
    "  --kernels FILE        the candidates\n"
    "  --tree DIR            or: a kernel tree (a git work tree) whose commits are built\n"
    "  --good C1, --bad C2   with --tree: the good end (older) and the bad end\n"
    "  --config FILE         with --tree: the base configuration (default: make defconfig)\n"
    "  --stat NAME           the stat followed (default netperf Throughput, stress-ng\n"
    "                        ops_per_sec: as compare and run --until choose it)\n"
    "  --min-change P%       the least change the ends must show (default 1%)\n"
    "  --max-boots N         boots a side in one comparison, at most (default 20)\n"
    "  --first-look N        boots a side at the first look (default 3, at least 2); the\n"
    "                        looks grow by 8/5 (3, 5, 8, 13, 20)\n"
    "  --alpha A             the total error bound (default 0.05)\n"
    "  --accel auto|kvm|tcg  as run (default auto)\n"
    "  -o, --output DIR      results folder (default results/NAME-bisect, NAME the job's)\n"
    "  --images DIR          where images are built (default images)\n"
    "  --resume              continue the bisection of DIR: its boots.jsonl is replayed\n"
    "                        first, then only what is missing is booted\n"
    "  --db SPEC, --no-store the results store the boots are added to at the end (default\n"
    "                        $BENCHBOOT_DB, else ~/.local/share/benchboot/results.db), or\n"
    "                        none\n" VERB_SET_HELP
    "  --cpus N, --mem MB    the VM (default 2 CPUs, 1024 MB; under TCG, fewer CPUs when 2\n"
    "                        would crowd the host, said)\n"
    "  --parallel 2          boot the two sides of each comparison side by side, each VM\n"
    "                        on its own host CPUs (as run --parallel; one at a time when\n"
    "                        the host has no room): about half the wall time, and the\n"
    "                        interval pairs the boots that ran together\n"
    "\n"
    "Output: a line per step (the candidate, boots per side, the interval, the verdict, what\n"
    "is left), then the result: the culprit and its parent (or no reproducible change, or the\n"
    "range left and why), the change D, the verification, the error bound spent, the boots\n"
    "and the wall time; with a culprit, its 0-day table against its parent (compare's).\n"
    "\n"
    "exit: 0 a culprit (or a range of untestable candidates) found, 1 no reproducible change,\n"
    "undecided, the bad end untestable, or interrupted (Ctrl-C: --resume continues), 100 bad\n"
    "usage, job or kernels file, 111 system failure (QEMU, build, disk).\n";

enum {
	OPT_KERNELS = 256,
	OPT_RESUME,
	OPT_TREE,
	OPT_GOOD,
	OPT_BAD,
	OPT_CONFIG,
	OPT_DB,
	OPT_NO_STORE
};
static const struct option options[] = {
    {"kernels", required_argument, NULL, OPT_KERNELS},
    {"tree", required_argument, NULL, OPT_TREE},
    {"good", required_argument, NULL, OPT_GOOD},
    {"bad", required_argument, NULL, OPT_BAD},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"output", required_argument, NULL, 'o'},
    {"resume", no_argument, NULL, OPT_RESUME},
    {"db", required_argument, NULL, OPT_DB},
    {"no-store", no_argument, NULL, OPT_NO_STORE},
    BISECT_OPTIONS,
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"bisect", usage_text, ":o:h", options};

struct args {
	struct bb_bisect_boots_opts bo;
	struct bisect_opts c;
	const char *kernels;
	const char *tree, *good, *bad, *config;
	const char *db; /* the results store the boots go to (NULL: the default) */
	int no_store;
	char outdir[4096];
};

static volatile sig_atomic_t interrupted;

static int take_option(struct args *a, int opt, const char *v)
{
	switch (opt) {
	case OPT_KERNELS:
		a->kernels = v;
		return 0;
	case OPT_TREE:
		a->tree = v;
		return 0;
	case OPT_GOOD:
		a->good = v;
		return 0;
	case OPT_BAD:
		a->bad = v;
		return 0;
	case OPT_CONFIG:
		a->config = v;
		return 0;
	case 'o':
		a->bo.outdir = v;
		return 0;
	case OPT_RESUME:
		a->bo.resume = 1;
		return 0;
	case OPT_DB:
		a->db = v;
		return 0;
	case OPT_NO_STORE:
		a->no_store = 1;
		return 0;
	}
	return bisect_option(cmd.name, &a->c, opt, v);
}

/* The command line into a: 0, EXIT_USAGE (said), or -1 for --help (printed). */
static int parse_args(int argc, char **argv, struct args *a)
{
	int opt, rc;
	while ((opt = verb_getopt(&cmd, argc, argv)) != -1) {
		if (opt == VERB_HELP)
			return -1;
		if (opt == VERB_BAD)
			return EXIT_USAGE;
		if ((rc = take_option(a, opt, optarg)))
			return rc;
	}
	if (optind < argc)
		a->bo.job = argv[optind++];
	if (optind < argc)
		return verb_usage_error(cmd.name, "unexpected argument '%s'", argv[optind]);
	if (!a->bo.job)
		return verb_usage_error(cmd.name, "which job? benchboot bisect JOB --kernels FILE");
	if (!a->kernels == !a->tree)
		return verb_usage_error(cmd.name,
		                        "the candidates: --kernels FILE (prebuilt kernels, "
		                        "oldest first) or --tree DIR --good C1 --bad C2");
	if (a->tree && (!a->good || !a->bad))
		return verb_usage_error(cmd.name, "--tree DIR needs --good C1 and --bad C2");
	if (!a->tree && (a->good || a->bad || a->config))
		return verb_usage_error(cmd.name, "--good, --bad and --config go with --tree DIR");
	if ((rc = bisect_options_check(cmd.name, &a->c)))
		return rc;
	a->bo.stat = a->c.stat;
	a->bo.images = a->c.images;
	a->bo.accel = a->c.accel;
	a->bo.cpus = a->c.cpus;
	a->bo.mem_mb = a->c.mem_mb;
	a->bo.parallel = a->c.parallel;
	a->bo.sets = a->c.sets.n ? &a->c.sets : NULL;
	if (!a->bo.outdir) {
		verb_job_outdir(a->bo.job, "-bisect", a->outdir, sizeof(a->outdir));
		a->bo.outdir = a->outdir;
	}
	return 0;
}

struct ctx {
	struct verb_term term; /* first: the boots' say and status get a ctx * as theirs */
	const char *names[BB_RUN_MAX_KERNELS];
	size_t nsteps;
	double change;
};

static void on_step(void *c, const struct bb_bisect_step *s)
{
	struct ctx *x = c;
	char line[2048];
	if (s->rule == BB_RULE_ENDS)
		x->change = s->iv.change;
	bb_bisect_step_text(s, ++x->nsteps, x->change, x->names, line, sizeof(line));
	verb_term_say(&x->term, BB_RUN_OUT, line);
}

/* The exit code of a finished bisection. */
static int outcome_status(const struct bb_bisect_result *res)
{
	return res->outcome == BB_B_CULPRIT || res->outcome == BB_B_RANGE ? EXIT_OK : EXIT_CHANGED;
}

static int bisect_main(int argc, char **argv)
{
	struct args a;
	struct ctx x = {.term = {.verb = "bisect", .tty = isatty(1)}};
	struct bb_bisect_cands cands;
	struct bb_bisect_boots *boots = NULL;
	struct bb_bisect_result res;
	char err[4096], text[8192];
	memset(&a, 0, sizeof(a));
	memset(&res, 0, sizeof(res));
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	struct bb_bisect_tree tree = {.tree = a.tree,
	                              .config = a.config,
	                              .job = a.bo.job,
	                              .sets = a.bo.sets,
	                              .say = verb_term_say,
	                              .ctx = &x.term};
	int r = a.tree
	            ? bb_bisect_tree_open(&tree, a.good, a.bad, BB_RUN_MAX_KERNELS, &cands, err,
	                                  sizeof(err))
	            : bb_bisect_cands_read(a.kernels, BB_RUN_MAX_KERNELS, &cands, err, sizeof(err));
	if (r) {
		fprintf(stderr, "benchboot bisect: fatal: %s\n", err);
		bb_bisect_tree_close(&tree);
		bb_bisect_cands_free(&cands);
		bb_strv_free(&a.c.sets);
		return verb_exit_status(r);
	}
	if (a.tree) {
		a.bo.prepare = bb_bisect_tree_prepare;
		a.bo.prepare_ctx = &tree;
	}
	for (size_t i = 0; i < cands.n; i++)
		x.names[i] = cands.v[i].name;
	a.bo.cands = cands.v;
	a.bo.ncand = cands.n;
	a.bo.interrupt = &interrupted;
	a.bo.say = verb_term_say;
	a.bo.status = x.term.tty ? verb_term_status : NULL;
	a.bo.ctx = &x.term;
	a.c.d.ncand = cands.n;
	a.c.d.on_step = on_step;
	a.c.d.ctx = &x;
	verb_catch_interrupt(&interrupted);
	bb_job_file_warnings(cmd.name, a.bo.job, a.bo.sets);
	double start = bb_now();
	r = bb_bisect_boots_open(&a.bo, &boots, err, sizeof(err));
	if (!r) {
		struct bb_bisect_source src = bb_bisect_boots_source(boots);
		printf("bisecting %zu candidates, %s (good) .. %s (bad), in %s\n", cands.n,
		       x.names[0], x.names[cands.n - 1], a.bo.outdir);
		r = bb_bisect(&a.c.d, &src, &res, err, sizeof(err));
	}
	verb_term_clear(&x.term);
	struct bb_bisect_boots_count c = {0};
	if (boots)
		bb_bisect_boots_count(boots, &c);
	if (r == -EINTR) {
		printf(
		    "\ninterrupted: every VM running was stopped; %zu boots are in %s/boots.jsonl: "
		    "benchboot bisect ... -o %s --resume continues\n",
		    c.booted + c.replayed, a.bo.outdir, a.bo.outdir);
		rc = EXIT_CHANGED;
	} else if (r) {
		fflush(stdout);
		fprintf(stderr, "benchboot bisect: fatal: %s\n", err);
		rc = verb_exit_status(r);
	} else {
		bb_bisect_result_text(&res, x.names, cands.n, *c.stat ? c.stat : "the primary stat",
		                      a.c.d.alpha ? a.c.d.alpha : 0.05, bb_now() - start,
		                      c.replayed, text, sizeof(text));
		printf("\n%sresults: %s (boots.jsonl: every boot; run.json, console/)\n", text,
		       a.bo.outdir);
		if (res.outcome == BB_B_CULPRIT) {
			printf(
			    "the 0-day table of the culprit against its parent: benchboot compare "
			    "%s --a kernel=%s --b kernel=%s\n",
			    a.bo.outdir, x.names[res.lo], x.names[res.hi]);
			fflush(stdout);
			if (bb_bisect_verify_table(stdout, a.bo.outdir, x.names[res.lo],
			                           x.names[res.hi], err, sizeof(err)))
				fprintf(stderr, "benchboot bisect: warning: the 0-day table: %s\n",
				        err);
		}
		rc = outcome_status(&res);
	}
	if (!a.no_store && c.booted)
		verb_store_add(cmd.name, a.db, a.bo.outdir);
	bb_bisect_result_free(&res);
	bb_bisect_boots_close(boots);
	bb_bisect_tree_close(&tree);
	bb_bisect_cands_free(&cands);
	bb_strv_free(&a.c.sets);
	return rc;
}

BENCHBOOT_VERB(bisect, "which kernel of a list, or commit of a tree, brings a performance change",
               bisect_main);
