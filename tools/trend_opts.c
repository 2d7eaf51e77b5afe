/* The options trend and report share; see trend_opts.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trend_opts.h"
#include "verb.h"

static void args_init(struct trend_args *a)
{
	memset(a, 0, sizeof *a);
	a->q.max_p = 0.0001;
	a->q.min_kernels = 2;
}

static int option(const char *verb, struct trend_args *a, int opt, const char *v)
{
	char *end;
	switch (opt) {
	case TREND_OPT_RUN:
		a->q.run = v;
		break;
	case TREND_OPT_STAT:
		a->q.stat = v;
		break;
	case TREND_OPT_DB:
		a->db = v;
		break;
	case TREND_OPT_MAXP:
		a->q.max_p = strtod(v, &end);
		if (*end || !(a->q.max_p > 0 && a->q.max_p < 1))
			return verb_usage_error(verb, "--max-p '%s': a number between 0 and 1", v);
		break;
	case TREND_OPT_MINK:
		a->q.min_kernels = strtoul(v, &end, 10);
		if (*end || a->q.min_kernels < 1 || a->q.min_kernels > 1000)
			return verb_usage_error(verb, "--min-kernels '%s': 1 to 1000", v);
		break;
	case TREND_OPT_ORDER:
		a->order_file = v;
		break;
	case TREND_OPT_TREE:
		a->q.tree = v;
		break;
	}
	return 0;
}

static int finish(const char *verb, struct trend_args *a, int argc, char **argv)
{
	if (optind + 1 != argc)
		return optind == argc
		           ? verb_usage_error(verb, "which JOB? (`store list` names them)")
		           : verb_usage_error(verb, "unexpected argument '%s'", argv[optind + 1]);
	a->q.job = argv[optind];
	if (a->order_file && a->q.tree)
		return verb_usage_error(verb, "--order or --tree: one order of the kernels");
	if (!a->order_file)
		return 0;
	char err[4096];
	int rc = bb_trend_order_read(a->order_file, &a->order, err, sizeof err);
	if (rc == -EINVAL)
		return verb_usage_error(verb, "%s", err);
	if (rc) {
		fprintf(stderr, "benchboot %s: %s\n", verb, err);
		return verb_exit_status(rc);
	}
	a->q.order = &a->order;
	return 0;
}

int trend_args_parse(const struct verb_cmd *cmd, int argc, char **argv, struct trend_args *a,
                     trend_own_fn *own, void *ctx)
{
	int opt, rc = 0;
	args_init(a);
	while (!rc && (opt = verb_getopt(cmd, argc, argv)) != -1) {
		if (opt == VERB_HELP)
			return -1;
		if (opt == VERB_BAD)
			return EXIT_USAGE;
		rc = opt >= TREND_OPT_RUN && opt <= TREND_OPT_TREE
		         ? option(cmd->name, a, opt, optarg)
		         : own(opt, optarg, ctx);
	}
	return rc ? rc : finish(cmd->name, a, argc, argv);
}

/* The kernels in --tree's order (those that are no commit of it said, one line). */
static int tree_order(const char *verb, struct trend_args *a, struct bb_store *st, char *err,
                      size_t errlen)
{
	struct bb_strv skipped = {0};
	int rc = bb_trend_tree_order(st, a->q.job, a->q.tree, &a->order, &skipped, err, errlen);
	if (!rc && skipped.n) {
		fprintf(stderr, "benchboot %s: no commit of %s, left out:", verb, a->q.tree);
		for (size_t i = 0; i < skipped.n; i++)
			fprintf(stderr, " %s", skipped.v[i]);
		fputc('\n', stderr);
	}
	if (!rc)
		a->q.order = &a->order;
	bb_strv_free(&skipped);
	return rc;
}

int trend_store_open(const char *verb, struct trend_args *a, struct bb_store **st)
{
	char err[4096];
	int rc = bb_store_open(a->db, st, err, sizeof err);
	if (!rc && a->q.tree && (rc = tree_order(verb, a, *st, err, sizeof err))) {
		bb_store_close(*st);
		*st = NULL;
	}
	if (rc)
		fprintf(stderr, "benchboot %s: %s\n", verb, err);
	return rc ? verb_exit_status(rc) : 0;
}

void trend_args_free(struct trend_args *a)
{
	bb_strv_free(&a->order);
}
