/* The candidates of a bisection over a kernel tree's commits; see treecands.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/bisect/treecands.h"
#include "host/errbuf.h"
#include "host/kernel/gitsrc.h"
#include "host/kernel/jobneeds.h"

int bb_bisect_tree_open(struct bb_bisect_tree *t, const char *good, const char *bad, size_t max,
                        struct bb_bisect_cands *cands, char *err, size_t errlen)
{
	memset(cands, 0, sizeof(*cands));
	if (!bb_git_is_repo(t->tree))
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "--tree %s: not a git repository (a kernel tree whose commits "
		    "are built)",
		    t->tree);
	int rc = bb_git_range(t->tree, good, bad, &t->shas, err, errlen);
	if (rc)
		return rc;
	if (t->shas.n < 2)
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "%s..%s holds no commit: nothing to bisect", good, bad);
	if (t->shas.n > max)
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "%s..%s holds %zu first-parent commits, at most %zu candidates: "
		    "narrow the range (or let git drive: git bisect run with benchboot "
		    "bisect-step --tree)",
		    good, bad, t->shas.n - 1, max - 1);
	struct bb_strv warnings = {0};
	rc =
	    bb_kconfig_job_fragment(t->job, t->sets, t->tree, &t->fragment, &warnings, err, errlen);
	for (size_t i = 0; !rc && t->say && i < warnings.n; i++)
		t->say(t->ctx, BB_RUN_WARN, warnings.v[i]);
	bb_strv_free(&warnings);
	if (rc)
		return rc;
	if (!(t->built = calloc(t->shas.n, sizeof(*t->built))) ||
	    !(cands->v = calloc(t->shas.n, sizeof(*cands->v))))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	cands->n = t->shas.n;
	for (size_t i = 0; i < cands->n; i++) {
		snprintf(cands->v[i].name, sizeof(cands->v[i].name), "%.12s", t->shas.v[i]);
		if (!(cands->v[i].append = strdup("")))
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	return 0;
}

static void say_build(void *ctx, const char *line)
{
	const struct bb_bisect_tree *t = ctx;
	if (t->say)
		t->say(t->ctx, BB_RUN_NOTE, line);
}

int bb_bisect_tree_prepare(void *ctx, size_t cand, const char **vmlinuz, const char **modules,
                           char *err, size_t errlen)
{
	struct bb_bisect_tree *t = ctx;
	struct bb_kbuild_result *r = &t->built[cand];
	struct bb_kbuild_opts o = {.tree = t->tree,
	                           .commit = t->shas.v[cand],
	                           .base_config = t->config,
	                           .fragment = t->fragment,
	                           .say = say_build,
	                           .ctx = t};
	bb_kbuild_result_free(r);
	int rc = bb_kernel_build(&o, r, err, errlen);
	if (rc)
		return rc;
	for (size_t i = 0; i < r->config_missing.n && t->say; i++) {
		char line[1200];
		bb_kbuild_missing_warning(r, i, line, sizeof(line));
		t->say(t->ctx, BB_RUN_WARN, line);
	}
	*vmlinuz = r->vmlinuz;
	*modules = r->modules;
	return 0;
}

void bb_bisect_tree_close(struct bb_bisect_tree *t)
{
	for (size_t i = 0; t->built && i < t->shas.n; i++)
		bb_kbuild_result_free(&t->built[i]);
	free(t->built);
	free(t->fragment);
	bb_strv_free(&t->shas);
	t->built = NULL;
	t->fragment = NULL;
}
