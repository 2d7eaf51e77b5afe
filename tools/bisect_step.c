/*
 * usage: benchboot bisect-step JOB --init --state DIR --good [NAME=]VMLINUZ --bad [NAME=]VMLINUZ
 *                              [OPTIONS]
 *        benchboot bisect-step --state DIR --kernel [NAME=]VMLINUZ [--modules DIR] [--append TEXT]
 *        benchboot bisect-step JOB --init --state DIR --tree TREE --good C1 --bad C2 [--config F]
 *        benchboot bisect-step --state DIR --tree TREE
 *
 * One step of a bisection that git drives (`git bisect run`): --init compares the ends once
 * and records the change D in DIR/state.json; each later call compares one kernel against
 * fresh boots of the good end, judged against D/2 as `benchboot bisect` judges its steps
 * (host/bisect/decide.h), and answers with git's exit codes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/bisect/boots.h"
#include "host/bisect/report.h"
#include "host/bisect/stepstate.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/job/jobwarnings.h"
#include "host/kernel/gitsrc.h"
#include "host/kernel/jobneeds.h"
#include "host/kernel/kbuild.h"
#include "strv.h"
#include "bisect_opts.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot bisect-step JOB --init --state DIR --good [NAME=]VMLINUZ\n"
    "                             --bad [NAME=]VMLINUZ [OPTIONS]\n"
    "       benchboot bisect-step --state DIR --kernel [NAME=]VMLINUZ [--modules DIR]\n"
    "                             [--append TEXT]\n"
    "       benchboot bisect-step JOB --init --state DIR --tree TREE --good C1 --bad C2\n"
    "                             [--config FILE] [OPTIONS]\n"
    "       benchboot bisect-step --state DIR --tree TREE\n"
    "\n"
    "One step of a performance bisection that git drives. --init boots the ends, good against\n"
    "bad in turn, until the interval of the primary stat's %change excludes 0 by more than\n"
    "--min-change, and records that change, D, with the job and the options in\n"
    "DIR/state.json. Then, for git bisect run: each call boots the kernel given against fresh\n"
    "boots of the good end, in turn, at fixed looks: old when the whole interval lies short of\n"
    "D/2, new when it lies beyond (or holds part of D), else more boots, as benchboot bisect\n"
    "decides its steps. Each step's boots go into DIR/step-N-NAME/ (boots.jsonl, run.json,\n"
    "console/); the images of the good end are rebuilt the same each time. With --tree,\n"
    "benchboot builds the kernels itself (as `benchboot kernel TREE --commit C --job JOB`,\n"
    "in its own clone of TREE, cached): --init builds the commits --good and --bad, each\n"
    "step the commit TREE's HEAD is at (the one git bisect checked out); a step whose commit\n"
    "does not build is a skip (125).\n"
    "\n"
    "    benchboot bisect-step job.yaml --init --state st --good v6.1=old/vmlinuz \\\n"
    "        --bad v6.2=new/vmlinuz --candidates $(git rev-list --count GOOD..BAD)\n"
    "    git bisect start BAD GOOD\n"
    "    git bisect run sh -c 'make -j8 bzImage || exit 125; \\\n"
    "        benchboot bisect-step --state st --kernel $(git rev-parse --short "
    "HEAD)=arch/x86/boot/bzImage'\n"
    "or, with benchboot building each commit:\n"
    "    benchboot bisect-step job.yaml --init --state st --tree . --good v6.1 --bad v6.2\n"
    "    git bisect start v6.2 v6.1\n"
    "    git bisect run benchboot bisect-step --state st --tree .\n"
    "\n"
    "  --init                compare the ends and record D (with JOB, --good and --bad)\n"
    "  --state DIR           where the state and the boots are kept (required)\n"
    "  --good, --bad [NAME=]VMLINUZ  the ends (--init)\n"
    "  --kernel [NAME=]VMLINUZ       the kernel of this step (NAME labels its boots)\n"
    "  --modules DIR         the lib/modules/VERSION of the kernel before it\n"
    "  --append TEXT         more kernel command line for the kernel before it\n"
    "  --tree TREE           build the kernels from this git tree: --good and --bad are\n"
    "                        commits (--init); a step builds TREE's HEAD\n"
    "  --config FILE         with --tree (--init): the base configuration of every build\n"
    "                        (default: make defconfig)\n"
    "  --candidates N        commits in the range, for the error budget (default 1024)\n"
    "  --stat NAME, --min-change P%, --max-boots N, --first-look N, --alpha A,\n"
    "  --accel auto|kvm|tcg, --images DIR, --set KEY=VALUE, --cpus N, --mem MB,\n"
    "  --parallel 2\n"
    "                        as benchboot bisect (--init only: every step keeps them)\n"
    "\n"
    "exit of --init: 0 D recorded (a change beyond --min-change), 1 no reproducible change\n"
    "(or an end untestable, or Ctrl-C), 100 bad usage or input, 111 system failure.\n"
    "exit of a step, as git bisect run reads it: 0 old, 1 new, 125 skip (the kernel's boots\n"
    "or build failed twice), 128 abort: still undecided at --max-boots (never a guess), the\n"
    "good end failing, Ctrl-C, bad usage, no state, QEMU or the system failing. No other\n"
    "code, and no child's exit status, is ever returned.\n";

#define EXIT_GIT_SKIP 125
#define EXIT_GIT_ABORT 128

enum {
	OPT_INIT = 256,
	OPT_STATE,
	OPT_GOOD,
	OPT_BAD,
	OPT_KERNEL,
	OPT_MODULES,
	OPT_APPEND,
	OPT_CANDIDATES,
	OPT_TREE,
	OPT_CONFIG
};
static const struct option options[] = {
    {"init", no_argument, NULL, OPT_INIT},
    {"state", required_argument, NULL, OPT_STATE},
    {"good", required_argument, NULL, OPT_GOOD},
    {"bad", required_argument, NULL, OPT_BAD},
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"modules", required_argument, NULL, OPT_MODULES},
    {"append", required_argument, NULL, OPT_APPEND},
    {"candidates", required_argument, NULL, OPT_CANDIDATES},
    {"tree", required_argument, NULL, OPT_TREE},
    {"config", required_argument, NULL, OPT_CONFIG},
    BISECT_OPTIONS,
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"bisect-step", usage_text, ":h", options};

enum { GOOD, BAD, KERNEL };

struct args {
	int init, init_only; /* init_only: an option that only --init takes was given */
	const char *job, *state;
	struct bb_bisect_cand k[3]; /* --good, --bad, --kernel (vmlinuz NULL: not given) */
	int last;                   /* the kernel --modules and --append go with, or -1 */
	const char *tree, *config;  /* --tree: the kernels are built from commits */
	const char *commit[2];      /* --tree --init: --good, --bad as given */
	struct bb_kbuild_result built[3];
	struct bisect_opts c;
};

static volatile sig_atomic_t interrupted;

static int kernel_opt(struct args *a, int which, const char *v)
{
	const char *path;
	verb_kernel_arg(v, a->k[which].name, sizeof(a->k[which].name), &path);
	a->k[which].vmlinuz = (char *)path;
	a->last = which;
	return 0;
}

static int take_option(struct args *a, int opt, const char *v)
{
	double x = 0;
	int rc;
	a->init_only |=
	    opt == OPT_CANDIDATES || opt == OPT_GOOD || opt == OPT_BAD || opt == OPT_CONFIG;
	switch (opt) {
	case OPT_TREE:
		a->tree = v;
		return 0;
	case OPT_CONFIG:
		a->config = v;
		return 0;
	case OPT_INIT:
		a->init = 1;
		return 0;
	case OPT_STATE:
		a->state = v;
		return 0;
	case OPT_GOOD:
		a->commit[0] = v;
		return kernel_opt(a, GOOD, v);
	case OPT_BAD:
		a->commit[1] = v;
		return kernel_opt(a, BAD, v);
	case OPT_KERNEL:
		return kernel_opt(a, KERNEL, v);
	case OPT_MODULES:
	case OPT_APPEND:
		if (a->last < 0)
			return verb_usage_error(cmd.name,
			                        "--%s %s belongs after a --good, --bad or --kernel",
			                        opt == OPT_MODULES ? "modules" : "append", v);
		*(opt == OPT_MODULES ? &a->k[a->last].modules : &a->k[a->last].append) = (char *)v;
		return 0;
	case OPT_CANDIDATES:
		rc = verb_number(cmd.name, "--candidates", v, 2, 1e9, "2 or more", NULL, &x);
		a->c.d.ncand = (size_t)x;
		return rc;
	}
	return bisect_option(cmd.name, &a->c, opt, v);
}

/* The command line into a: 0, EXIT_USAGE (said), or -1 for --help (printed). */
static int parse_args(int argc, char **argv, struct args *a)
{
	int opt, rc;
	a->last = -1;
	while ((opt = verb_getopt(&cmd, argc, argv)) != -1) {
		if (opt == VERB_HELP)
			return -1;
		if (opt == VERB_BAD)
			return EXIT_USAGE;
		if ((rc = take_option(a, opt, optarg)))
			return rc;
	}
	if (optind < argc)
		a->job = argv[optind++];
	if (optind < argc)
		return verb_usage_error(cmd.name, "unexpected argument '%s'", argv[optind]);
	if (!a->state)
		return verb_usage_error(cmd.name, "--state DIR: where the bisection is kept");
	if (a->init && (!a->job || !a->k[GOOD].vmlinuz || !a->k[BAD].vmlinuz))
		return verb_usage_error(cmd.name, "--init needs JOB, --good and --bad");
	if (a->init && a->k[KERNEL].vmlinuz)
		return verb_usage_error(cmd.name,
		                        "--init compares the ends: --kernel is for a step");
	if (a->tree && (a->k[KERNEL].vmlinuz || a->last == KERNEL))
		return verb_usage_error(cmd.name,
		                        "--tree builds the step's kernel: no --kernel with it");
	if (a->tree && a->last >= 0 && (a->k[a->last].modules || a->k[a->last].append))
		return verb_usage_error(cmd.name,
		                        "--tree builds the kernels: no --modules or --append");
	if (a->config && !a->tree)
		return verb_usage_error(cmd.name, "--config goes with --tree");
	if (!a->init && !a->k[KERNEL].vmlinuz && !a->tree)
		return verb_usage_error(cmd.name,
		                        "a step needs --kernel or --tree (or --init to begin)");
	if (!a->init && (a->job || a->init_only || a->c.given))
		return verb_usage_error(cmd.name,
		                        "a step takes --kernel (--modules, --append) only: the "
		                        "job and the options are those of --init");
	if ((rc = bisect_options_check(cmd.name, &a->c)))
		return rc;
	if (a->init && !strcmp(a->k[GOOD].name, a->k[BAD].name))
		return verb_usage_error(cmd.name,
		                        "--good and --bad are both called '%s': name them "
		                        "(--good OLD=PATH --bad NEW=PATH)",
		                        a->k[GOOD].name);
	return 0;
}

static void say_build(void *ctx, const char *line)
{
	fprintf(stderr, "benchboot bisect-step: %s\n", line);
}

/* path made absolute against the current folder (git bisect run calls from elsewhere). */
static void absolute(const char *path, char *out, size_t len)
{
	char cwd[4096];
	if (*path == '/' || !getcwd(cwd, sizeof(cwd)))
		snprintf(out, len, "%s", path);
	else
		snprintf(out, len, "%.2000s/%.2000s", cwd, path);
}

/* A kernel (and its modules) that exists: 0, or -EINVAL with err. */
static int check_kernel(const struct bb_bisect_cand *k, char *err, size_t errlen)
{
	struct stat st;
	const char *why = stat(k->vmlinuz, &st)  ? strerror(errno)
	                  : !S_ISREG(st.st_mode) ? "not a file"
	                                         : NULL;
	if (why)
		return bb_errbuf_fail(err, errlen, -EINVAL, "kernel %s: %s", k->vmlinuz, why);
	why = !k->modules             ? NULL
	      : stat(k->modules, &st) ? strerror(errno)
	      : !S_ISDIR(st.st_mode)  ? "not a folder"
	                              : NULL;
	if (why)
		return bb_errbuf_fail(err, errlen, -EINVAL, "modules %s: %s", k->modules, why);
	return 0;
}

/* commit of tree built with the job's fragment into *r, k pointing at it: 0, 1 it does not
 * build (said), -errno (said). */
static int build_commit(const char *tree, const char *commit, const char *config, const char *job,
                        const struct bb_strv *sets, struct bb_kbuild_result *r,
                        struct bb_bisect_cand *k)
{
	char *fragment = NULL, err[4096];
	struct bb_strv warnings = {0};
	int rc = bb_kconfig_job_fragment(job, sets, tree, &fragment, &warnings, err, sizeof(err));
	for (size_t i = 0; !rc && i < warnings.n; i++)
		fprintf(stderr, "benchboot bisect-step: warning: %s\n", warnings.v[i]);
	bb_strv_free(&warnings);
	if (!rc) {
		struct bb_kbuild_opts o = {.tree = tree,
		                           .commit = commit,
		                           .base_config = config && *config ? config : NULL,
		                           .fragment = fragment,
		                           .say = say_build};
		rc = bb_kernel_build(&o, r, err, sizeof(err));
	}
	free(fragment);
	if (rc) {
		fprintf(stderr, "benchboot bisect-step: %s%s\n", rc > 0 ? "" : "fatal: ", err);
		return rc;
	}
	for (size_t i = 0; i < r->config_missing.n; i++) {
		bb_kbuild_missing_warning(r, i, err, sizeof(err));
		fprintf(stderr, "benchboot bisect-step: warning: %s\n", err);
	}
	snprintf(k->name, sizeof(k->name), "%s", r->name);
	k->vmlinuz = r->vmlinuz;
	k->modules = r->modules;
	k->append = "";
	return 0;
}

/* One comparison: cands[1] against fresh boots of cands[0] in outdir, by rule. */
static int compare(const struct bb_bisect_opts *d, struct bb_bisect_boots_opts *bo,
                   enum bb_bisect_rule rule, double change, struct bb_bisect_step *st, char *stat,
                   size_t statlen, char *err, size_t errlen)
{
	struct bb_bisect_boots *b;
	struct bb_bisect_boots_count c;
	size_t boots, failed;
	int r = bb_bisect_boots_open(bo, &b, err, errlen);
	if (r)
		return r;
	struct bb_bisect_source src = bb_bisect_boots_source(b);
	r = bb_bisect_compare(d, &src, rule, change, 0, 1, st, &boots, &failed, err, errlen);
	bb_bisect_boots_count(b, &c);
	snprintf(stat, statlen, "%s", c.stat);
	bb_bisect_boots_close(b);
	return r;
}

/* The error bound spent after done comparisons of a bisection planned as d. */
static void say_bound(const struct bb_bisect_opts *d, size_t done)
{
	struct bb_bisect_plan p;
	bb_bisect_plan(d, &p);
	printf("error bound: %.4g spent of alpha %.4g (%zu comparison%s; %zu planned for %zu "
	       "candidates; each look's interval at %.3f%% confidence)\n",
	       done * p.alpha_cmp, d->alpha ? d->alpha : 0.05, done, done == 1 ? "" : "s",
	       p.planned, d->ncand, 100 * (1 - p.alpha_look));
}

static int init_main(struct args *a, struct bb_bisect_boots_opts *bo, struct verb_term *t)
{
	struct bb_step_state s;
	struct bb_bisect_step st;
	char err[4096], dir[4200], line[2048], statname[256];
	struct stat sb;
	int r;
	memset(&s, 0, sizeof(s));
	snprintf(dir, sizeof(dir), "%s/state.json", a->state);
	if (!stat(dir, &sb)) {
		fprintf(stderr,
		        "benchboot bisect-step: fatal: %s exists: a bisection is kept "
		        "there (another --state DIR begins anew)\n",
		        dir);
		return EXIT_USAGE;
	}
	for (int i = GOOD; a->tree && i <= BAD; i++)
		if ((r = build_commit(a->tree, a->commit[i], a->config, a->job, &a->c.sets,
		                      &a->built[i], &a->k[i])))
			return r > 0 ? EXIT_CHANGED : verb_exit_status(r);
	if (a->tree && !strcmp(a->k[GOOD].name, a->k[BAD].name)) {
		fprintf(stderr,
		        "benchboot bisect-step: fatal: --good %s and --bad %s are one commit\n",
		        a->commit[0], a->commit[1]);
		return EXIT_USAGE;
	}
	for (int i = GOOD; i <= BAD; i++)
		if ((r = check_kernel(&a->k[i], err, sizeof(err)))) {
			fprintf(stderr, "benchboot bisect-step: fatal: --%s: %s\n",
			        i == GOOD ? "good" : "bad", err);
			return EXIT_USAGE;
		}
	if (bb_fileio_mkdirs(a->state)) {
		fprintf(stderr, "benchboot bisect-step: fatal: unable to create %s: %s\n", a->state,
		        strerror(errno));
		return verb_exit_status(-errno);
	}
	snprintf(dir, sizeof(dir), "%s/ends", a->state);
	bo->outdir = dir;
	bo->cands = a->k;
	bo->ncand = 2;
	bb_job_file_warnings(cmd.name, a->job, &a->c.sets);
	r = compare(&a->c.d, bo, BB_RULE_ENDS, 0, &st, statname, sizeof(statname), err,
	            sizeof(err));
	verb_term_clear(t);
	if (r) {
		fprintf(stderr, "benchboot bisect-step: %s: %s\n",
		        r == -EINTR ? "stopped" : "fatal", err);
		return r == -EINTR ? EXIT_CHANGED : verb_exit_status(r);
	}
	st.lo = 0;
	st.hi = 1;
	const char *names[] = {a->k[GOOD].name, a->k[BAD].name};
	bb_bisect_step_text(&st, 1, st.iv.change, names, line, sizeof(line));
	puts(line);
	say_bound(&a->c.d, 1);
	if (st.verdict != BB_V_CHANGED) {
		printf("no reproducible change between %s and %s%s: nothing to bisect\n", names[0],
		       names[1],
		       st.verdict == BB_V_UNTESTABLE ? " (the bad end cannot be tested)" : "");
		return EXIT_CHANGED;
	}
	absolute(a->job, s.job, sizeof(s.job));
	for (size_t i = 0; i < a->c.sets.n; i++)
		if (bb_strv_add(&s.sets, a->c.sets.v[i]))
			return EXIT_SYSTEM;
	snprintf(s.good_name, sizeof(s.good_name), "%s", a->k[GOOD].name);
	absolute(a->k[GOOD].vmlinuz, s.good_vmlinuz, sizeof(s.good_vmlinuz));
	if (a->k[GOOD].modules)
		absolute(a->k[GOOD].modules, s.good_modules, sizeof(s.good_modules));
	snprintf(s.good_append, sizeof(s.good_append), "%s",
	         a->k[GOOD].append ? a->k[GOOD].append : "");
	snprintf(s.bad_name, sizeof(s.bad_name), "%.127s", a->k[BAD].name);
	if (a->config)
		absolute(a->config, s.config, sizeof(s.config));
	snprintf(s.stat, sizeof(s.stat), "%s", statname);
	absolute(a->c.images ? a->c.images : "images", s.images, sizeof(s.images));
	snprintf(s.accel, sizeof(s.accel), "%s",
	         a->c.accel == BB_ACCEL_KVM   ? "kvm"
	         : a->c.accel == BB_ACCEL_TCG ? "tcg"
	                                      : "auto");
	s.change = st.iv.change;
	s.lo = st.iv.lo;
	s.hi = st.iv.hi;
	s.alpha = a->c.d.alpha;
	s.min_change = a->c.d.min_change;
	s.max_boots = a->c.d.max_boots;
	s.first_look = a->c.d.first_look;
	s.cpus = a->c.cpus;
	s.mem_mb = a->c.mem_mb;
	s.parallel = a->c.parallel;
	s.ncand = a->c.d.ncand;
	s.done = 1;
	r = bb_step_state_write(a->state, &s, err, sizeof(err));
	bb_step_state_free(&s);
	if (r) {
		fprintf(stderr, "benchboot bisect-step: fatal: %s\n", err);
		return verb_exit_status(r);
	}
	printf("D = %+.2f%% of %s recorded in %s/state.json; now: git bisect run benchboot "
	       "bisect-step --state %s %s\n",
	       st.iv.change, statname, a->state, a->state,
	       a->tree ? "--tree TREE" : "--kernel [NAME=]VMLINUZ");
	return EXIT_OK;
}

/* A step: git's codes only (0 old, 1 new, 125 skip, 128 abort). */
static int step_main(struct args *a, struct bb_bisect_boots_opts *bo, struct verb_term *t)
{
	struct bb_step_state s;
	struct bb_bisect_step st;
	char err[4096], dir[4400], line[2048], statname[256];
	int r = bb_step_state_read(a->state, &s, err, sizeof(err));
	if (r) {
		fprintf(stderr, "benchboot bisect-step: fatal: %s\n", err);
		return EXIT_GIT_ABORT;
	}
	if (a->tree) {
		char head[41];
		r = bb_git_resolve(a->tree, "HEAD", head, err, sizeof(err));
		if (r)
			fprintf(stderr, "benchboot bisect-step: fatal: --tree: %s\n", err);
		else
			r = build_commit(a->tree, head, s.config, s.job, &s.sets, &a->built[KERNEL],
			                 &a->k[KERNEL]);
		if (r) {
			if (r > 0)
				printf("%.12s: does not build: skip (exit %d)\n", head,
				       EXIT_GIT_SKIP);
			bb_step_state_free(&s);
			return r > 0 ? EXIT_GIT_SKIP : EXIT_GIT_ABORT;
		}
	}
	struct bb_bisect_cand k[2] = {{.vmlinuz = s.good_vmlinuz,
	                               .modules = *s.good_modules ? s.good_modules : NULL,
	                               .append = s.good_append},
	                              a->k[KERNEL]};
	snprintf(k[0].name, sizeof(k[0].name), "%s", s.good_name);
	if (!strcmp(k[1].name, k[0].name))
		snprintf(k[1].name, sizeof(k[1].name), "%.100s-tested", s.good_name);
	if ((r = check_kernel(&k[1], err, sizeof(err)))) {
		fprintf(stderr, "benchboot bisect-step: fatal: --kernel: %s\n", err);
		bb_step_state_free(&s);
		return EXIT_GIT_ABORT;
	}
	struct bb_bisect_opts d = {.ncand = s.ncand,
	                           .alpha = s.alpha,
	                           .min_change = s.min_change,
	                           .max_boots = s.max_boots,
	                           .first_look = s.first_look};
	snprintf(dir, sizeof(dir), "%s/step-%zu-%s", a->state, s.done, k[1].name);
	bo->job = s.job;
	bo->sets = &s.sets;
	bo->stat = s.stat;
	bo->images = s.images;
	bo->accel = !strcmp(s.accel, "kvm")   ? BB_ACCEL_KVM
	            : !strcmp(s.accel, "tcg") ? BB_ACCEL_TCG
	                                      : BB_ACCEL_AUTO;
	bo->cpus = s.cpus;
	bo->mem_mb = s.mem_mb;
	bo->parallel = s.parallel;
	bo->outdir = dir;
	bo->cands = k;
	bo->ncand = 2;
	r = compare(&d, bo, BB_RULE_STEP, s.change, &st, statname, sizeof(statname), err,
	            sizeof(err));
	verb_term_clear(t);
	if (!r || r == -EIO) {
		s.done++; /* the comparison spent its share of alpha, decided or not */
		char werr[1024];
		if (bb_step_state_write(a->state, &s, werr, sizeof(werr)))
			fprintf(stderr, "benchboot bisect-step: %s\n", werr);
	}
	int rc = EXIT_GIT_ABORT;
	if (r) {
		fprintf(stderr, "benchboot bisect-step: %s: %s: git bisect run stops here\n",
		        r == -EINTR ? "stopped" : "fatal", err);
	} else {
		st.lo = 0;
		st.hi = 1;
		const char *names[] = {k[0].name, k[1].name};
		bb_bisect_step_text(&st, s.done - 1, s.change, names, line, sizeof(line));
		puts(line);
		say_bound(&d, s.done);
		rc = st.verdict == BB_V_OLD                              ? EXIT_OK
		     : st.verdict == BB_V_NEW || st.verdict == BB_V_PART ? EXIT_CHANGED
		     : st.verdict == BB_V_UNTESTABLE                     ? EXIT_GIT_SKIP
		                                                         : EXIT_GIT_ABORT;
		printf("%s: %s (exit %d)%s\n", k[1].name, bb_bisect_verdict_name(st.verdict), rc,
		       rc == EXIT_GIT_ABORT ? ": undecided at --max-boots boots a side; git bisect "
		                              "run stops here rather than guess (git bisect log "
		                              "shows the range left)"
		                            : "");
	}
	bb_step_state_free(&s);
	return rc;
}

static int bisect_step_main(int argc, char **argv)
{
	struct args a;
	struct verb_term term = {.verb = "bisect-step", .tty = isatty(1)};
	struct bb_bisect_boots_opts bo;
	memset(&a, 0, sizeof(a));
	memset(&bo, 0, sizeof(bo));
	a.c.d.ncand = 1024;
	int rc = parse_args(argc, argv, &a);
	if (rc) {
		bb_strv_free(&a.c.sets);
		/* a step's usage error must not read as "new" (1) to git bisect run */
		return rc < 0 ? EXIT_OK : a.init ? rc : EXIT_GIT_ABORT;
	}
	for (int i = GOOD; i <= KERNEL; i++)
		if (!a.k[i].append)
			a.k[i].append = "";
	bo.job = a.job;
	bo.sets = &a.c.sets;
	bo.stat = a.c.stat;
	bo.images = a.c.images;
	bo.accel = a.c.accel;
	bo.cpus = a.c.cpus;
	bo.mem_mb = a.c.mem_mb;
	bo.parallel = a.c.parallel;
	bo.resume = 1; /* an interrupted --init or step goes on from its boots.jsonl */
	bo.interrupt = &interrupted;
	bo.say = verb_term_say;
	bo.status = term.tty ? verb_term_status : NULL;
	bo.ctx = &term;
	verb_catch_interrupt(&interrupted);
	rc = a.init ? init_main(&a, &bo, &term) : step_main(&a, &bo, &term);
	for (int i = GOOD; i <= KERNEL; i++)
		bb_kbuild_result_free(&a.built[i]);
	bb_strv_free(&a.c.sets);
	return rc;
}

BENCHBOOT_VERB_NAMED(bisect_step, "bisect-step",
                     "one step of a bisection git drives (git bisect run)", bisect_step_main);
