/* A job's kernels in the git order of a kernel tree; see trend.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/kernel/gitsrc.h"
#include "host/store/trend.h"

int bb_trend_tree_commit(const char *tree, const struct bb_store_kernel *k, char sha[41])
{
	char why[512];
	if (*k->commit && !bb_git_resolve(tree, k->commit, sha, why, sizeof why))
		return 0;
	/* a name git would read as an option is no commit */
	if (*k->name && *k->name != '-' && !bb_git_resolve(tree, k->name, sha, why, sizeof why))
		return 0;
	return -EINVAL;
}

/* The position of sha in the walk, or its length when it is not there. */
static size_t position(const struct bb_strv *walk, const char *sha)
{
	size_t i = 0;
	while (i < walk->n && strcmp(walk->v[i], sha))
		i++;
	return i;
}

int bb_trend_tree_order(struct bb_store *st, const char *job, const char *tree,
                        struct bb_strv *order, struct bb_strv *skipped, char *err, size_t errlen)
{
	struct bb_store_kernel *k;
	struct bb_strv shas = {0}, walk = {0};
	size_t n, *at = NULL;
	char(*sha)[41] = NULL;
	int rc = bb_store_job_kernels(st, job, &k, &n, err, errlen);
	if (rc)
		return rc;
	if (!bb_git_is_repo(tree)) {
		rc = bb_errbuf_fail(err, errlen, -EINVAL,
		                    "--tree %s is not a git repository: give the kernel tree the "
		                    "kernels were built from",
		                    tree);
		goto out;
	}
	if (!(sha = calloc(n + 1, sizeof *sha)) || !(at = calloc(n + 1, sizeof *at))) {
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n && !rc; i++)
		if (bb_trend_tree_commit(tree, &k[i], sha[i]))
			rc = bb_strv_add(skipped, k[i].label) ? -ENOMEM : 0;
		else
			rc = bb_strv_add(&shas, sha[i]) ? -ENOMEM : 0;
	if (!rc && !shas.n)
		rc =
		    bb_errbuf_fail(err, errlen, -EINVAL,
		                   "--tree %s: no kernel of the job '%s' is a commit there (by its "
		                   "name or its recorded commit)",
		                   tree, job);
	if (!rc)
		rc = bb_git_topo_order(tree, &shas, &walk, err, errlen);
	for (size_t i = 0; i < n && !rc; i++)
		at[i] = *sha[i] ? position(&walk, sha[i]) : (size_t)-1;
	/* by position in the walk (a stable selection: kernels of one commit as they came) */
	for (size_t done = 0; !rc && done < shas.n; done++) {
		size_t best = n;
		for (size_t i = 0; i < n; i++)
			if (at[i] != (size_t)-1 && (best == n || at[i] < at[best]))
				best = i;
		rc = bb_strv_add(order, k[best].label) ? -ENOMEM : 0;
		at[best] = (size_t)-1;
	}
out:
	if (rc == -ENOMEM)
		bb_errbuf_fail(err, errlen, rc, "out of memory");
	bb_store_kernels_free(k, n);
	bb_strv_free(&shas);
	bb_strv_free(&walk);
	free(sha);
	free(at);
	return rc;
}
