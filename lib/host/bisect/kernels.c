/* The --kernels file of `benchboot bisect`; see kernels.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/bisect/kernels.h"
#include "host/errbuf.h"
#include "host/fileio.h"

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-"

/* The next word of *p (up to a blank), NUL-terminated in place; NULL at the end or at a
 * comment. */
static char *next_word(char **p)
{
	char *s = *p + strspn(*p, " \t\r");
	if (!*s || *s == '#')
		return NULL;
	char *e = s + strcspn(s, " \t\r");
	if (*e)
		*e++ = 0;
	*p = e;
	return s;
}

/* The rest of the line, comment and surrounding blanks dropped. */
static char *rest(char *p)
{
	p += strspn(p, " \t\r");
	for (char *h = strchr(p, '#'); h; h = strchr(h + 1, '#'))
		if (h == p || h[-1] == ' ' || h[-1] == '\t') {
			*h = 0;
			break;
		}
	size_t l = strlen(p);
	while (l && strchr(" \t\r", p[l - 1]))
		p[--l] = 0;
	return p;
}

static int one_line(char *line, unsigned no, const char *path, struct bb_bisect_cands *out,
                    size_t *cap, char *err, size_t errlen)
{
	char *p = line, *name = next_word(&p);
	if (!name)
		return 0;
	char *vmlinuz = next_word(&p);
	if (!vmlinuz)
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "%s:%u: '%s' has no VMLINUZ (a line: NAME VMLINUZ [MODULES_DIR|-] "
		    "[EXTRA KERNEL COMMAND LINE...])",
		    path, no, name);
	if (strlen(name) >= BB_BISECT_NAME_MAX || name[strspn(name, NAME_CHARS)])
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "%s:%u: name '%.200s': at most %d letters, digits and . _ + -", path, no, name,
		    BB_BISECT_NAME_MAX - 1);
	for (size_t i = 0; i < out->n; i++)
		if (!strcmp(out->v[i].name, name))
			return bb_errbuf_fail(
			    err, errlen, -EINVAL,
			    "%s:%u: name '%s' is taken by line %u: every candidate "
			    "needs its own",
			    path, no, name, out->v[i].line);
	char *mods = next_word(&p), *extra = rest(p);
	if (out->n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 16;
		struct bb_bisect_cand *v = realloc(out->v, ncap * sizeof(*v));
		if (!v)
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		out->v = v;
		*cap = ncap;
	}
	struct bb_bisect_cand *c = &out->v[out->n];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->line = no;
	c->vmlinuz = strdup(vmlinuz);
	c->modules = mods && strcmp(mods, "-") ? strdup(mods) : NULL;
	c->append = strdup(extra);
	out->n++;
	if (!c->vmlinuz || !c->append || (mods && strcmp(mods, "-") && !c->modules))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

int bb_bisect_cands_parse(const char *text, size_t len, const char *path, size_t max,
                          struct bb_bisect_cands *out, char *err, size_t errlen)
{
	size_t cap = 0;
	unsigned no = 0;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	for (size_t off = 0; off < len && !rc;) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t l = nl ? (size_t)(nl - text) - off : len - off;
		char *line = strndup(text + off, l);
		no++;
		if (!line)
			rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		else if (strlen(line) != l)
			rc = bb_errbuf_fail(err, errlen, -EINVAL,
			                    "%s:%u: a NUL byte: not a text file", path, no);
		else
			rc = one_line(line, no, path, out, &cap, err, errlen);
		free(line);
		off += l + 1;
	}
	if (!rc && out->n < 2)
		rc =
		    bb_errbuf_fail(err, errlen, -EINVAL,
		                   "%s: %zu candidate%s: a bisection needs the good end (the first "
		                   "line) and the bad end (the last)",
		                   path, out->n, out->n == 1 ? "" : "s");
	if (!rc && out->n > max)
		rc = bb_errbuf_fail(err, errlen, -EINVAL, "%s: %zu candidates, at most %zu", path,
		                    out->n, max);
	if (rc)
		bb_bisect_cands_free(out);
	return rc;
}

int bb_bisect_cands_read(const char *path, size_t max, struct bb_bisect_cands *out, char *err,
                         size_t errlen)
{
	unsigned char *text;
	size_t len;
	struct stat st;
	memset(out, 0, sizeof(*out));
	int rc = bb_fileio_read_all(path, &text, &len);
	if (rc)
		return bb_errbuf_fail(err, errlen, rc, "unable to read %s: %s", path,
		                      strerror(-rc));
	rc = bb_bisect_cands_parse((const char *)text, len, path, max, out, err, errlen);
	free(text);
	for (size_t i = 0; !rc && i < out->n; i++) {
		const struct bb_bisect_cand *c = &out->v[i];
		if (stat(c->vmlinuz, &st))
			rc = bb_errbuf_fail(err, errlen, -EINVAL, "%s:%u: VMLINUZ %s: %s", path,
			                    c->line, c->vmlinuz, strerror(errno));
		else if (!S_ISREG(st.st_mode))
			rc = bb_errbuf_fail(err, errlen, -EINVAL, "%s:%u: VMLINUZ %s: not a file",
			                    path, c->line, c->vmlinuz);
		else if (c->modules && stat(c->modules, &st))
			rc = bb_errbuf_fail(err, errlen, -EINVAL, "%s:%u: MODULES_DIR %s: %s", path,
			                    c->line, c->modules, strerror(errno));
		else if (c->modules && !S_ISDIR(st.st_mode))
			rc = bb_errbuf_fail(err, errlen, -EINVAL,
			                    "%s:%u: MODULES_DIR %s: not a folder", path, c->line,
			                    c->modules);
	}
	if (rc)
		bb_bisect_cands_free(out);
	return rc;
}

void bb_bisect_cands_free(struct bb_bisect_cands *c)
{
	for (size_t i = 0; c->v && i < c->n; i++) {
		free(c->v[i].vmlinuz);
		free(c->v[i].modules);
		free(c->v[i].append);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
