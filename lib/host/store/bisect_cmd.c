/* The bisection to run over a change point's range; see trend.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/cmdline.h"
#include "host/errbuf.h"
#include "host/image/image.h"
#include "host/store/trend.h"
#include "host/strbuf.h"

/* s as one shell word: as it is when it needs no quoting, else in single quotes. */
static void shell_word(struct strbuf *b, const char *s)
{
	if (*s &&
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-") ==
	        strlen(s)) {
		bb_strbuf_printf(b, "%s", s);
		return;
	}
	bb_strbuf_printf(b, "'");
	for (const char *p = s; *p; p++)
		bb_strbuf_printf(b, *p == '\'' ? "'\\''" : "%c", *p);
	bb_strbuf_printf(b, "'");
}

/* The user's words of a kernel's command line: what follows the image's own line
 * (IMAGE_DEFAULT_CMDLINE, which every image built for a kernels file begins with), without the
 * per-boot words (host/cmdline.h); a line that does not begin with the image's own is the
 * user's whole. */
static char *extra_cmdline(const char *cmdline)
{
	size_t l = strlen(IMAGE_DEFAULT_CMDLINE);
	if (!strncmp(cmdline, IMAGE_DEFAULT_CMDLINE, l) && (!cmdline[l] || cmdline[l] == ' '))
		cmdline += l;
	return bb_cmdline_without(cmdline, BB_CMDLINE_PER_BOOT);
}

static const struct bb_store_kernel *kernel_of(const struct bb_store_kernel *k, size_t n,
                                               long long id)
{
	for (size_t i = 0; i < n; i++)
		if (k[i].id == id)
			return &k[i];
	return NULL;
}

/* A line of a kernels file (bisect --kernels): NAME VMLINUZ - EXTRA_CMDLINE. */
static void kernels_line(struct strbuf *b, const char *label, const struct bb_store_kernel *k)
{
	char *extra = k ? extra_cmdline(k->cmdline) : NULL;
	bb_strbuf_printf(b, "%s %s -%s%s\n", label, k && *k->vmlinuz ? k->vmlinuz : "VMLINUZ",
	                 extra && *extra ? " " : "", extra ? extra : "");
	b->oom |= k && !extra;
	free(extra);
}

int bb_trend_bisect(struct bb_store *st, const struct bb_trend_query *q,
                    const struct bb_trend_series *s, const struct bb_trend_change *cp,
                    const char *kernels_file, struct bb_trend_bisect *out, char *err, size_t errlen)
{
	struct bb_store_kernel *k;
	size_t n;
	char job[4096];
	struct strbuf cmd = {0}, lines = {0};
	memset(out, 0, sizeof *out);
	int rc = bb_store_job_kernels(st, q->job, &k, &n, err, errlen);
	if (rc || (rc = bb_store_job_file(st, q->job, job, sizeof job, err, errlen)))
		goto out;
	const struct bb_store_kernel *before = kernel_of(k, n, s->p[cp->at - 1].kernel_id),
	                             *after = kernel_of(k, n, s->p[cp->at].kernel_id);
	char good[41] = "", bad[41] = "";
	if (q->tree && (!before || bb_trend_tree_commit(q->tree, before, good) || !after ||
	                bb_trend_tree_commit(q->tree, after, bad)))
		*good = *bad = 0;
	bb_strbuf_printf(&cmd, "benchboot bisect ");
	shell_word(&cmd, *job ? job : q->job);
	if (q->tree && *good && *bad) {
		bb_strbuf_printf(&cmd, " --tree ");
		shell_word(&cmd, q->tree);
		bb_strbuf_printf(&cmd, " --good %.12s --bad %.12s", good, bad);
	} else {
		bb_strbuf_printf(&cmd, " --kernels ");
		shell_word(&cmd, kernels_file ? kernels_file : "KERNELS");
		bb_strbuf_printf(&lines,
		                 "# %s, then the kernels built between them, oldest first\n",
		                 BB_TREND_BEFORE(s, cp));
		kernels_line(&lines, BB_TREND_BEFORE(s, cp), before);
		kernels_line(&lines, BB_TREND_AFTER(s, cp), after);
		out->vmlinuz_missing = !before || !after || !*before->vmlinuz || !*after->vmlinuz;
	}
	bb_strbuf_printf(&cmd, " --stat ");
	shell_word(&cmd, s->stat);
	out->job_file_missing = !*job;
	if (cmd.oom || lines.oom)
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	else {
		out->command = cmd.s;
		out->kernels = lines.s;
		cmd.s = lines.s = NULL;
	}
out:
	free(cmd.s);
	free(lines.s);
	bb_store_kernels_free(k, n);
	return rc;
}

void bb_trend_bisect_free(struct bb_trend_bisect *b)
{
	free(b->command);
	free(b->kernels);
	memset(b, 0, sizeof *b);
}
