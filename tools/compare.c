/*
 * usage: benchboot compare [OPTIONS] A B
 *        benchboot compare [OPTIONS] DIR --by KEY
 *        benchboot compare [OPTIONS] DIR --a KEY=VALUE... --b KEY=VALUE...
 *
 * Compare two sets of results (collected result folders, or one folder split by a parameter
 * or an environment field) the 0-day way: environment differences first, then per matched run
 * the mean and relative stddev of every stat on each side, the %change with its 95% interval
 * (the boot as the unit), LKP's change rule. Exit 0: no significant change, 1: significant
 * changes, 100: bad usage/input. docs/compare.md explains the statistics.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare/compare.h"
#include "host/compare/flamegraph.h"
#include "host/compare/render.h"
#include "host/compare/strset.h"
#include "host/report/cmp_html.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot compare [OPTIONS] A B\n"
    "       benchboot compare [OPTIONS] DIR --by KEY\n"
    "       benchboot compare [OPTIONS] DIR --a KEY=VALUE... --b KEY=VALUE...\n"
    "\n"
    "Compare two sets of benchmark results. A and B are result folders (what `benchboot\n"
    "collect -o DIR` writes, or one boot folder in it). With one folder, --by KEY splits it\n"
    "by the two values of KEY, and --a/--b select each side by KEY=VALUE. KEY is a run\n"
    "parameter (test, nr_threads, sysctl.net.sctp.prsctp_enable or just prsctp_enable), a\n"
    "boot parameter (cgroup), an environment field (kernel.release, cgroup.mode; also\n"
    "`kernel`) or `boot`.\n"
    "\n"
    "Runs are matched by their parameters, the compared axis left out. The environment\n"
    "fields that differ between A and B come first, then one 0-day table per matched run\n"
    "(the test's stats, then the monitors' in LKP's order):\n"
    "mean and relative stddev (\u00b1 N%, when over 2%) of each side, %change and its 95%\n"
    "confidence interval, and two marks kept apart:\n"
    "  I  benchboot's: the interval excludes 0. The boot is the unit: with >= 2 boots a\n"
    "     side the interval [lo, hi] comes from per-boot means (paired when both sides ran\n"
    "     in the same boots). With 1 boot a side boot-to-boot variance is unknown: the\n"
    "     interval (lo, hi) covers the iterations of one boot only and gives no mark.\n"
    "  L  LKP's rule: a side with >= 3 samples; one side's min and median above the\n"
    "     other's median and max; medians over 1% apart for a test program's stats\n"
    "     (netperf.*, stress-ng.*), 5% for the others.\n"
    "The kernel's reports (oops, BUG, WARNING, panic, lockup, RCU stall, hung task) are\n"
    "LKP's dmesg.* failure stats, shown as LKP shows them (fail:runs: the boots of a side\n"
    "that showed one : the side's boots); one is changed when one side never showed it.\n"
    "Boots without run results (a panic before any result) stay on their side by their\n"
    "labels: counted, and how they ended said in the notes.\n"
    "See docs/compare.md.\n"
    "\n"
    "options:\n"
    "  --by KEY          split one folder by the two values of KEY\n"
    "  --a KEY=VALUE     select side A (repeatable; with two folders: filter A)\n"
    "  --b KEY=VALUE     select side B (repeatable; with two folders: filter B)\n"
    "  --axis KEY        leave KEY out when matching runs of A and B (repeatable)\n"
    "  --all             show every stat, not only the changes\n"
    "  --more            also the monitor stats LKP hides unless asked (interrupts,\n"
    "                    softirqs, slabinfo)\n"
    "  --json            print the comparison as JSON\n"
    "  --svg FILE        write the per-iteration values of the changed stats as SVG\n"
    "  --flamegraph FILE write a differential flame graph (SVG) of both sides' perf-profile\n"
    "                    call stacks: width the share of B's samples, colour the change from\n"
    "                    A (red more, blue less)\n"
    "  --html FILE       write the comparison as one self-contained HTML page: the\n"
    "                    environment differences, the 0-day tables, the flame graph where\n"
    "                    both sides have perf-profile call stacks (as `benchboot report`)\n"
    "\n"
    "exit: 0 no significant change, 1 significant changes (a stat marked, or a kernel\n"
    "report that one side never showed), 100 wrong usage or bad input (data missing: a\n"
    "run with ok iterations and no stats, a boot without env.json), 111 system failure.\n";

#define MAX_AXIS 16

enum {
	OPT_BY = 256,
	OPT_A,
	OPT_B,
	OPT_AXIS,
	OPT_ALL,
	OPT_JSON,
	OPT_SVG,
	OPT_MORE,
	OPT_FLAME,
	OPT_HTML
};
static const struct option options[] = {
    {"by", required_argument, NULL, OPT_BY},
    {"a", required_argument, NULL, OPT_A},
    {"b", required_argument, NULL, OPT_B},
    {"axis", required_argument, NULL, OPT_AXIS},
    {"all", no_argument, NULL, OPT_ALL},
    {"json", no_argument, NULL, OPT_JSON},
    {"svg", required_argument, NULL, OPT_SVG},
    {"more", no_argument, NULL, OPT_MORE},
    {"flamegraph", required_argument, NULL, OPT_FLAME},
    {"html", required_argument, NULL, OPT_HTML},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"compare", usage_text, ":h", options};

/* KEY=VALUE into kvs: 0, -EINVAL (no KEY=), -ENOMEM. */
static int add_cond(struct bb_kvs *kvs, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return -EINVAL;
	char *key = strndup(arg, eq - arg);
	int r = key ? bb_kvs_set(kvs, key, eq + 1) : -ENOMEM;
	free(key);
	return r;
}

/* The command line. */
struct args {
	const char *paths[2], *by, *svg, *flamegraph, *html, *axis[MAX_AXIS];
	size_t naxis, npaths;
	int all, json, more;
	struct bb_kvs ca, cb;
};

/* The command line into a: 0, EXIT_USAGE (said), or -1 for --help (printed). */
static int parse_args(int argc, char **argv, struct args *a)
{
	int opt, r;
	while ((opt = verb_getopt(&cmd, argc, argv)) != -1) {
		switch (opt) {
		case VERB_HELP:
			return -1;
		case VERB_BAD:
			return EXIT_USAGE;
		case OPT_ALL:
			a->all = 1;
			break;
		case OPT_JSON:
			a->json = 1;
			break;
		case OPT_SVG:
			a->svg = optarg;
			break;
		case OPT_MORE:
			a->more = 1;
			break;
		case OPT_FLAME:
			a->flamegraph = optarg;
			break;
		case OPT_HTML:
			a->html = optarg;
			break;
		case OPT_BY:
			a->by = optarg;
			break;
		case OPT_AXIS:
			if (a->naxis == MAX_AXIS)
				return verb_usage_error(cmd.name, "too many --axis (at most 16)");
			a->axis[a->naxis++] = optarg;
			break;
		case OPT_A:
		case OPT_B:
			if ((r = add_cond(opt == OPT_A ? &a->ca : &a->cb, optarg)) == -EINVAL)
				return verb_usage_error(cmd.name, "%s: KEY=VALUE expected", optarg);
			if (r)
				return verb_exit_status(r);
			break;
		}
	}
	for (; optind < argc; optind++) {
		if (a->npaths == 2)
			return verb_usage_error(cmd.name, "unexpected argument '%s'", argv[optind]);
		a->paths[a->npaths++] = argv[optind];
	}
	if (a->npaths == 0)
		return verb_usage_error(cmd.name,
		                        "which results? A and B, or DIR with --by or --a/--b");
	if (a->npaths == 2 && a->by)
		return verb_usage_error(cmd.name,
		                        "--by splits one folder; with two folders use --axis");
	if (a->npaths == 1 && !a->by && !(a->ca.n && a->cb.n))
		return verb_usage_error(
		    cmd.name,
		    "with one folder (%s), say how to split it: --by KEY, or --a "
		    "KEY=VALUE --b KEY=VALUE",
		    a->paths[0]);
	if (a->npaths == 1 && a->by && (a->ca.n || a->cb.n))
		return verb_usage_error(cmd.name, "--by and --a/--b: choose one");
	return 0;
}

/* The comparison on stdout (text or JSON) and as SVG; its exit code. */
static int report(const struct bb_comparison *cmp, const struct args *a)
{
	if (a->json)
		bb_comparison_json(stdout, cmp, a->all);
	else
		bb_comparison_print(stdout, cmp, a->all);
	if (fflush(stdout)) {
		int e = errno ? errno : EIO;
		fprintf(stderr, "benchboot compare: fatal: unable to write output: %s\n",
		        strerror(e));
		return verb_exit_status(-e);
	}
	if (a->svg) {
		FILE *f = fopen(a->svg, "w");
		int w = f ? bb_comparison_svg(f, cmp, a->all) : -errno;
		if (f && fclose(f) && !w)
			w = -errno;
		if (w) {
			fprintf(stderr, "benchboot compare: %sunable to write %s: %s\n",
			        verb_exit_status(w) == EXIT_SYSTEM ? "fatal: " : "", a->svg,
			        strerror(-w));
			return verb_exit_status(w);
		}
	}
	if (cmp->nmissing) {
		fprintf(stderr,
		        "benchboot compare: %zu thing%s missing (listed under \"missing\"): the "
		        "comparison is incomplete\n",
		        cmp->nmissing, cmp->nmissing == 1 ? "" : "s");
		return EXIT_USAGE;
	}
	return cmp->nsignificant || cmp->nfails_changed ? EXIT_CHANGED : EXIT_OK;
}

static int compare_main(int argc, char **argv)
{
	struct args a = {0};
	struct bb_results res[2];
	struct bb_side side[2];
	struct bb_comparison cmp;
	size_t nres = 0, missing = 0;
	int have_cmp = 0, r, rc = parse_args(argc, argv, &a);
	char err[2048];
	const struct bb_kvs *const conds[2] = {&a.ca, &a.cb};
	memset(side, 0, sizeof(side));
	if (rc)
		goto out;
	for (; nres < a.npaths; nres++)
		if ((r = bb_results_load(a.paths[nres], &res[nres], err, sizeof(err)))) {
			fprintf(stderr, "benchboot compare: %sunable to read results: %s\n",
			        verb_exit_status(r) == EXIT_SYSTEM ? "fatal: " : "", err);
			goto out_fail;
		}
	if ((a.by && (r = bb_split_by(&res[0], a.by, &a.ca, &a.cb, &missing, err, sizeof(err)))) ||
	    (r = bb_sides_select(res, a.paths, a.npaths, conds, side, a.axis, &a.naxis, MAX_AXIS,
	                         err, sizeof(err)))) {
		fprintf(stderr, "benchboot compare: fatal: %s\n", err);
		goto out_fail;
	}
	if (missing)
		fprintf(stderr, "benchboot compare: %zu run%s without '%s' left out\n", missing,
		        missing == 1 ? "" : "s", a.by);
	if ((r = bb_compare_more(&side[0], &side[1], a.axis, a.naxis, a.more, &cmp, err,
	                         sizeof(err)))) {
		fprintf(stderr, "benchboot compare: fatal: %s\n", err);
		goto out_fail;
	}
	have_cmp = 1;
	/* the flame graph first: a refusal (no call stacks, different events) is said before the
	 * table and fails the command */
	if (a.flamegraph &&
	    (r = bb_flamegraph_sides(&side[0], &side[1], a.flamegraph, err, sizeof(err)))) {
		fprintf(stderr, "benchboot compare: fatal: --flamegraph: %s\n", err);
		goto out_fail;
	}
	if (a.html &&
	    (r = bb_compare_page(a.html, &cmp, &side[0], &side[1], a.all, err, sizeof(err)))) {
		fprintf(stderr, "benchboot compare: fatal: --html: %s\n", err);
		goto out_fail;
	}
	rc = report(&cmp, &a);
	goto out;
out_fail:
	rc = verb_exit_status(r);
out:
	if (have_cmp)
		bb_comparison_free(&cmp);
	for (int s = 0; s < 2; s++)
		bb_side_free(&side[s]);
	for (size_t p = 0; p < nres; p++)
		bb_results_free(&res[p]);
	bb_kvs_free(&a.ca);
	bb_kvs_free(&a.cb);
	return rc < 0 ? EXIT_OK : rc;
}

BENCHBOOT_VERB(compare, "compare two sets of results (0-day style table)", compare_main);
