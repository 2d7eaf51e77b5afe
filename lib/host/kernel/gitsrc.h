/*
 * Commits of a kernel tree for benchboot's builds: resolving a name, the range a bisection
 * walks, and a checkout into benchboot's own shared clone of the tree (`git clone --shared`:
 * the user's repository and work tree are never touched, and any commit of it is there at
 * once). Host only; git is run as a tool.
 */
#ifndef BENCHBOOT_HOST_KERNEL_GITSRC_H
#define BENCHBOOT_HOST_KERNEL_GITSRC_H

#include <stddef.h>

#include "strv.h"

/* 1 when tree is the top of a git work tree, else 0. */
int bb_git_is_tree(const char *tree);
/* 1 when tree is a git repository (the top of a work tree, or a bare one), else 0. */
int bb_git_is_repo(const char *tree);
/* rev (a name, a tag, a short hash) as a full commit hash. 0, or -EINVAL with err. */
int bb_git_resolve(const char *tree, const char *rev, char sha[41], char *err, size_t errlen);
/* 1 when the tree has changes against HEAD (tracked files), 0 when clean, -errno. */
int bb_git_dirty(const char *tree);
/*
 * The candidates of good..bad, oldest first: good, then the first-parent commits after it up
 * to bad (a merge stands for its branch). good must be an ancestor of bad. 0, -EINVAL with err.
 */
int bb_git_range(const char *tree, const char *good, const char *bad, struct bb_strv *shas,
                 char *err, size_t errlen);
/*
 * The commits from the merge base of shas (full hashes) up to each of them, in topological
 * order, oldest first (git rev-list --topo-order --reverse), appended to out. 0 or -errno with
 * err.
 */
int bb_git_topo_order(const char *tree, const struct bb_strv *shas, struct bb_strv *out, char *err,
                      size_t errlen);
/* Commit sha checked out, clean, in srcdir (a shared clone of tree, made on first use). 0 or
 * -errno with err. */
int bb_git_checkout(const char *tree, const char *sha, const char *srcdir, char *err,
                    size_t errlen);

#endif
