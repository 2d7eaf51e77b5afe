/* Commits of a kernel tree; see gitsrc.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "host/bytebuf.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/kernel/gitsrc.h"
#include "host/runtool.h"

/* argv (git -C DIR ...) run: 0 with its stdout in out (NUL-terminated, trailing newline cut)
 * when it exits 0; 1 when it exits non-zero; -errno when it cannot run. */
static int git_argv(char *const *argv, struct bytebuf *out, char *err, size_t errlen)
{
	struct bytebuf tmp = {0};
	struct bb_tool t = {.argv = argv, .out = BB_TOOL_CAPTURE, .captured = out ? out : &tmp};
	int status, rc = bb_tool_run(&t, &status, err, errlen);
	if (!rc && bb_bytebuf_append(t.captured, "", 1))
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if (!rc) {
		char *s = (char *)t.captured->p;
		size_t len = strlen(s);
		while (len && s[len - 1] == '\n')
			s[--len] = 0;
		rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
	}
	bb_bytebuf_free(&tmp);
	return rc;
}

/* git -C dir ARGS... (at most 20), as git_argv. */
static int git(const char *dir, struct bytebuf *out, char *err, size_t errlen, ...)
{
	char *argv[24] = {"git", "-C", (char *)dir};
	size_t n = 3;
	va_list ap;
	va_start(ap, errlen);
	for (char *a; n < 23 && (a = va_arg(ap, char *));)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	return git_argv(argv, out, err, errlen);
}

/* The lines of text (NUL-terminated) appended to out. 0 or -ENOMEM with err. */
static int add_lines(const char *text, struct bb_strv *out, char *err, size_t errlen)
{
	for (const char *l = text; l && *l;) {
		size_t n = strcspn(l, "\n");
		if (n && bb_strv_addn(out, l, n))
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		l += n;
		l += *l == '\n';
	}
	return 0;
}

int bb_git_is_tree(const char *tree)
{
	struct bytebuf out = {0};
	char err[256];
	int rc = git(tree, &out, err, sizeof(err), "rev-parse", "--show-prefix", NULL);
	int yes = !rc && out.p && !*(char *)out.p;
	bb_bytebuf_free(&out);
	return yes;
}

int bb_git_is_repo(const char *tree)
{
	struct bytebuf out = {0};
	char err[256];
	int rc = git(tree, &out, err, sizeof(err), "rev-parse", "--is-bare-repository", NULL);
	int yes = !rc && out.p && (!strcmp((char *)out.p, "true") || bb_git_is_tree(tree));
	bb_bytebuf_free(&out);
	return yes;
}

int bb_git_resolve(const char *tree, const char *rev, char sha[41], char *err, size_t errlen)
{
	struct bytebuf out = {0};
	char spec[512];
	snprintf(spec, sizeof(spec), "%s^{commit}", rev);
	int rc = git(tree, &out, err, errlen, "rev-parse", "--verify", "--quiet", spec, NULL);
	if (rc > 0 || (!rc && strlen((char *)out.p) != 40))
		rc = bb_errbuf_fail(err, errlen, -EINVAL, "%s: no commit '%s' in this git tree",
		                    tree, rev);
	if (!rc)
		memcpy(sha, out.p, 41);
	bb_bytebuf_free(&out);
	return rc;
}

int bb_git_dirty(const char *tree)
{
	char err[256];
	int rc = git(tree, NULL, err, sizeof(err), "diff-index", "--quiet", "HEAD", "--", NULL);
	return rc;
}

int bb_git_range(const char *tree, const char *good, const char *bad, struct bb_strv *shas,
                 char *err, size_t errlen)
{
	char g[41], b[41], range[100];
	int rc;
	if ((rc = bb_git_resolve(tree, good, g, err, errlen)) ||
	    (rc = bb_git_resolve(tree, bad, b, err, errlen)))
		return rc;
	rc = git(tree, NULL, err, errlen, "merge-base", "--is-ancestor", g, b, NULL);
	if (rc > 0)
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "%s: --good %s is not an ancestor of --bad %s: the good end is "
		    "the older commit",
		    tree, good, bad);
	if (rc)
		return rc;
	struct bytebuf out = {0};
	snprintf(range, sizeof(range), "%s..%s", g, b);
	rc = git(tree, &out, err, errlen, "rev-list", "--reverse", "--first-parent", range, NULL);
	if (rc > 0)
		rc =
		    bb_errbuf_fail(err, errlen, -EINVAL, "%s: git rev-list %s failed", tree, range);
	if (!rc && bb_strv_add(shas, g))
		rc = -ENOMEM;
	if (!rc)
		rc = add_lines((char *)out.p, shas, err, errlen);
	bb_bytebuf_free(&out);
	return rc;
}

int bb_git_topo_order(const char *tree, const struct bb_strv *shas, struct bb_strv *out, char *err,
                      size_t errlen)
{
	char **argv = calloc(shas->n + 8, sizeof *argv), base[64] = "";
	struct bytebuf got = {0};
	size_t n = 0;
	int rc = 0;
	if (!argv)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	argv[n++] = "git";
	argv[n++] = "-C";
	argv[n++] = (char *)tree;
	argv[n++] = "merge-base";
	argv[n++] = "--octopus";
	for (size_t i = 0; i < shas->n; i++)
		argv[n++] = shas->v[i];
	/* the commits' merge base: the walk stops there (none: their whole histories) */
	if (shas->n > 1 && !git_argv(argv, &got, err, errlen) && strlen((char *)got.p) == 40) {
		snprintf(base, sizeof base, "^%s", (char *)got.p);
		rc = add_lines(base + 1, out, err, errlen);
	}
	bb_bytebuf_free(&got);
	n = 3;
	argv[n++] = "rev-list";
	argv[n++] = "--topo-order";
	argv[n++] = "--reverse";
	for (size_t i = 0; i < shas->n; i++)
		argv[n++] = shas->v[i];
	if (*base)
		argv[n++] = base;
	argv[n] = NULL;
	if (!rc && (rc = git_argv(argv, &got, err, errlen)) > 0)
		rc = bb_errbuf_fail(err, errlen, -EINVAL, "%s: git rev-list --topo-order failed",
		                    tree);
	if (!rc)
		rc = add_lines((char *)got.p, out, err, errlen);
	bb_bytebuf_free(&got);
	free(argv);
	return rc;
}

int bb_git_checkout(const char *tree, const char *sha, const char *srcdir, char *err, size_t errlen)
{
	char gitdir[4200];
	struct stat st;
	int rc;
	snprintf(gitdir, sizeof(gitdir), "%s/.git", srcdir);
	if (stat(gitdir, &st)) {
		char tmp[4200];
		snprintf(tmp, sizeof(tmp), "%s.tmp", srcdir);
		char *rm[] = {"rm", "-rf", tmp, NULL};
		struct bb_tool t = {.argv = rm, .out = BB_TOOL_TO_NULL};
		int status;
		bb_tool_run(&t, &status, err, errlen);
		char *slash = strrchr(tmp, '/');
		if (slash) {
			*slash = 0;
			bb_fileio_mkdirs(tmp);
			*slash = '/';
		}
		rc = git(".", NULL, err, errlen, "clone", "--quiet", "--shared", "--no-checkout",
		         tree, tmp, NULL);
		if (rc > 0)
			return bb_errbuf_fail(err, errlen, -EIO, "git clone --shared %s %s failed",
			                      tree, tmp);
		if (rc)
			return rc;
		if (rename(tmp, srcdir))
			return bb_errbuf_fail(err, errlen, -errno, "rename %s: %s", tmp,
			                      strerror(errno));
	}
	rc = git(srcdir, NULL, err, errlen, "-c", "advice.detachedHead=false", "checkout",
	         "--quiet", "--force", "--detach", sha, NULL);
	if (!rc)
		rc = git(srcdir, NULL, err, errlen, "clean", "-fdxq", NULL);
	if (rc > 0)
		return bb_errbuf_fail(err, errlen, -EIO,
		                      "checking out %s in %s failed (is it a commit of %s?)", sha,
		                      srcdir, tree);
	return rc;
}
