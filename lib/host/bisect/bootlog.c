/* A bisection's log of its boots, DIR/boots.jsonl; see bootlog.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/bisect/bootlog.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/json.h"

int bb_bootlog_append(const char *path, const struct bb_bootlog_entry *e, char *err, size_t errlen)
{
	FILE *f = fopen(path, "a");
	if (!f)
		return bb_errbuf_fail(err, errlen, -errno, "unable to open %s: %s", path,
		                      strerror(errno));
	fputs("{\"candidate\": ", f);
	bb_jout_quote(f, e->name);
	fprintf(f, ", \"index\": %zu, \"boot\": %u, \"outcome\": ", e->index, e->boot);
	bb_jout_quote(f, e->outcome);
	fputs(", \"stat\": ", f);
	bb_jout_quote(f, e->stat);
	fputs(", \"values\": [", f);
	for (size_t i = 0; i < e->n; i++)
		fprintf(f, "%s%.17g", i ? ", " : "", e->vals[i]);
	fputs("], \"folder\": ", f);
	bb_jout_quote(f, e->folder);
	fputs(", \"detail\": ", f);
	bb_jout_quote(f, e->detail);
	fputs("}\n", f);
	int rc = fflush(f) || fsync(fileno(f)) ? -errno : 0;
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc)
		return bb_errbuf_fail(err, errlen, rc, "unable to write %s: %s", path,
		                      strerror(-rc));
	return 0;
}

static void text_of(const struct jn *o, const char *key, char *out, size_t len)
{
	const struct jn *v = bb_jn_get(o, key);
	snprintf(out, len, "%s", v && v->type == JN_STR ? v->str : "");
}

/* One line into e: 0, or a message in why. */
static int entry(const char *line, size_t len, struct bb_bootlog_entry *e, char *why, size_t whylen)
{
	struct jn *o = bb_jn_parse(line, len, why, whylen);
	const struct jn *name, *index, *boot, *vals;
	int rc = 0;
	if (!o)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	name = bb_jn_get(o, "candidate");
	index = bb_jn_get(o, "index");
	boot = bb_jn_get(o, "boot");
	vals = bb_jn_get(o, "values");
	if (o->type != JN_OBJ || !name || name->type != JN_STR || !index || index->type != JN_NUM ||
	    index->num < 0 || !boot || boot->type != JN_NUM || !vals || vals->type != JN_ARR ||
	    vals->n > BB_BISECT_MAX_VALUES) {
		snprintf(why, whylen,
		         "not a boot: candidate, index, boot and values (at most %d) are needed",
		         BB_BISECT_MAX_VALUES);
		rc = -EINVAL;
		goto out;
	}
	snprintf(e->name, sizeof(e->name), "%s", name->str);
	e->index = (size_t)index->num;
	e->boot = (unsigned)boot->num;
	text_of(o, "outcome", e->outcome, sizeof(e->outcome));
	text_of(o, "stat", e->stat, sizeof(e->stat));
	text_of(o, "folder", e->folder, sizeof(e->folder));
	text_of(o, "detail", e->detail, sizeof(e->detail));
	e->ok = !strcmp(e->outcome, "ok");
	for (size_t i = 0; i < vals->n && !rc; i++) {
		if (vals->items[i]->type != JN_NUM) {
			snprintf(why, whylen, "values: item %zu is not a number", i + 1);
			rc = -EINVAL;
		}
		e->vals[e->n++] = vals->items[i]->num;
	}
	if (!rc && e->ok && !e->n) {
		snprintf(why, whylen, "outcome ok without values");
		rc = -EINVAL;
	}
out:
	bb_jn_free(o);
	return rc;
}

int bb_bootlog_read(const char *path, struct bb_bootlog_entry **out, size_t *n, char *note,
                    size_t notelen, char *err, size_t errlen)
{
	unsigned char *text;
	size_t len, cap = 0;
	int rc = bb_fileio_read_all(path, &text, &len);
	*out = NULL;
	*n = 0;
	*note = 0;
	if (rc)
		return bb_errbuf_fail(err, errlen, rc, "unable to read %s: %s", path,
		                      strerror(-rc));
	unsigned no = 0;
	for (size_t off = 0; off < len && !rc;) {
		const char *line = (const char *)text + off;
		const char *nl = memchr(line, '\n', len - off);
		size_t l = nl ? (size_t)(nl - line) : len - off;
		char why[512];
		no++;
		off += l + 1;
		if (!l)
			continue;
		if (*n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct bb_bootlog_entry *v = realloc(*out, ncap * sizeof(*v));
			if (!v) {
				rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
				break;
			}
			*out = v;
			cap = ncap;
		}
		if (!entry(line, l, &(*out)[*n], why, sizeof(why)))
			(*n)++;
		else if (!nl)
			snprintf(note, notelen, "%s:%u: the last line is cut short (%s): dropped",
			         path, no, why);
		else
			rc = bb_errbuf_fail(err, errlen, -EINVAL, "%s:%u: %s", path, no, why);
	}
	free(text);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}
