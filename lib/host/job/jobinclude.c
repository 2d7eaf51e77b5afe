/* LKP's `<<: FILE` text includes (see jobinclude.h). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "grow.h"
#include "host/fileio.h"
#include "host/image/image.h"
#include "host/job/jobinclude.h"
#include "host/strbuf.h"
#include "strv.h"

/* One line of text with its origin. */
struct srcline {
	char *text; /* without the newline */
	int file, line;
};

struct lines {
	struct srcline *v;
	size_t n, cap;
};

static int lines_add(struct lines *l, const char *s, size_t len, int file, int line)
{
	if (bb_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)))
		return -ENOMEM;
	struct srcline *v = l->v;
	if (!(v[l->n].text = strndup(s, len)))
		return -ENOMEM;
	v[l->n].file = file;
	v[l->n].line = line;
	l->n++;
	return 0;
}

/* Append a copy of line v, its origin kept. */
static int lines_copy(struct lines *l, const struct srcline *v)
{
	return lines_add(l, v->text, strlen(v->text), v->file, v->line);
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static int split_lines(struct lines *l, const char *text, size_t len, int file)
{
	size_t start = 0;
	int line = 1, rc;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		if (i == len && start == len)
			break; /* no empty line after the last newline */
		if ((rc = lines_add(l, text + start, i - start, file, line++)))
			return rc;
		start = i + 1;
	}
	return 0;
}

/*
 * LKP's pattern `(.*)<< *: +([^*\[].*)`: the last `<<` of the line that is followed by
 * optional blanks, ':', at least one blank and a value not starting with '*' or '['.
 * Returns the offset of that `<<` and of the value, or -1.
 */
static long find_include(const char *s, size_t *value)
{
	long found = -1;
	for (const char *p = strstr(s, "<<"); p; p = strstr(p + 1, "<<")) {
		const char *q = p + 2;
		while (*q == ' ')
			q++;
		if (*q != ':')
			continue;
		q++;
		if (*q != ' ')
			continue;
		while (*q == ' ')
			q++;
		if (!*q || *q == '*' || *q == '[')
			continue;
		found = p - s;
		*value = (size_t)(q - s);
	}
	return found;
}

static int exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Recursive search state for nftw (the callback has no context argument). */
static const char *search_name;
static char *search_best;

static int search_cb(const char *fpath, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	size_t fl = strlen(fpath), nl = strlen(search_name);
	if (type == FTW_F && fl > nl && fpath[fl - nl - 1] == '/' &&
	    !strcmp(fpath + fl - nl, search_name) &&
	    (!search_best || strcmp(fpath, search_best) < 0)) {
		free(search_best);
		search_best = strdup(fpath);
	}
	return 0;
}

static char *search_below(const char *root, const char *name)
{
	search_name = name;
	search_best = NULL;
	nftw(root, search_cb, 16, FTW_PHYS);
	return search_best;
}

/* Where LKP's search_file_in_paths finds name, included from a file in dir. */
static char *resolve(const char *dir, const char *name)
{
	char buf[4096];
	if (name[0] == '/')
		return exists(name) ? strdup(name) : NULL;
	snprintf(buf, sizeof buf, "%s/%s", dir, name);
	if (!strncmp(name, "./", 2) || !strncmp(name, "../", 3))
		return exists(buf) ? strdup(buf) : NULL;
	if (exists(buf))
		return strdup(buf);
	/* the nearest `jobs` directory at or above dir, then dir itself, recursively */
	char jobs[4096];
	snprintf(jobs, sizeof jobs, "%s", dir);
	for (;;) {
		char *slash = strrchr(jobs, '/');
		const char *base = slash ? slash + 1 : jobs;
		if (!strcmp(base, "jobs")) {
			char *hit = search_below(jobs, name);
			if (hit)
				return hit;
			break;
		}
		if (!slash || slash == jobs)
			break;
		*slash = 0;
	}
	return search_below(dir, name);
}

/* A YAML scalar or a flow list of scalars, as LKP dumps an override value. */
static int node_text(yaml_document_t *d, yaml_node_t *n, struct strbuf *o)
{
	if (n->type == YAML_SCALAR_NODE) {
		bb_strbuf_printf(o, "%s", (const char *)n->data.scalar.value);
		return 0;
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return -EINVAL;
	bb_strbuf_printf(o, "[");
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		yaml_node_t *e = yaml_document_get_node(d, *it);
		if (e->type != YAML_SCALAR_NODE)
			return -EINVAL;
		bb_strbuf_printf(o, "%s%s", it > n->data.sequence.items.start ? ", " : "",
		                 (const char *)e->data.scalar.value);
	}
	bb_strbuf_printf(o, "]");
	return 0;
}

struct include_opts {
	char *file;
	struct bb_strv ignore;
	struct bb_kvs over; /* overrides: key, value as it goes in the line */
};

static void opts_free(struct include_opts *o)
{
	free(o->file);
	bb_strv_free(&o->ignore);
	bb_kvs_free(&o->over);
	memset(o, 0, sizeof *o);
}

/* `FILE`, `'FILE'` or `{file: FILE, ignore: [K...], KEY: VALUE...}`. */
static int parse_opts(const char *value, struct include_opts *o, const char **why)
{
	size_t len = strlen(value);
	while (len && (value[len - 1] == ' ' || value[len - 1] == '\r'))
		len--;
	memset(o, 0, sizeof *o);
	if (value[0] != '{') {
		if (len >= 2 && (value[0] == '\'' || value[0] == '"') && value[len - 1] == value[0])
			o->file = strndup(value + 1, len - 2);
		else
			o->file = strndup(value, len);
		return o->file ? 0 : -ENOMEM;
	}
	yaml_parser_t p;
	yaml_document_t d;
	int rc = -EINVAL;
	*why = "is not a mapping with 'file' (e.g. {file: base.yaml, disk: 1SSD})";
	if (!yaml_parser_initialize(&p))
		return -ENOMEM;
	yaml_parser_set_input_string(&p, (const unsigned char *)value, len);
	if (!yaml_parser_load(&p, &d)) {
		yaml_parser_delete(&p);
		return -EINVAL;
	}
	yaml_node_t *root = yaml_document_get_root_node(&d);
	if (!root || root->type != YAML_MAPPING_NODE)
		goto out;
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&d, pr->key);
		yaml_node_t *v = yaml_document_get_node(&d, pr->value);
		if (k->type != YAML_SCALAR_NODE)
			goto out;
		const char *key = (const char *)k->data.scalar.value;
		if (!strcmp(key, "file")) {
			if (v->type != YAML_SCALAR_NODE)
				goto out;
			free(o->file);
			if (!(o->file = strdup((const char *)v->data.scalar.value)))
				goto out_nomem;
		} else if (!strcmp(key, "ignore")) {
			if (v->type == YAML_SCALAR_NODE) {
				if (bb_strv_add(&o->ignore, (const char *)v->data.scalar.value))
					goto out_nomem;
			} else if (v->type == YAML_SEQUENCE_NODE) {
				for (yaml_node_item_t *it = v->data.sequence.items.start;
				     it < v->data.sequence.items.top; it++) {
					yaml_node_t *e = yaml_document_get_node(&d, *it);
					if (e->type != YAML_SCALAR_NODE)
						goto out;
					if (bb_strv_add(&o->ignore,
					                (const char *)e->data.scalar.value))
						goto out_nomem;
				}
			} else {
				goto out;
			}
		} else {
			struct strbuf t = {0};
			if (node_text(&d, v, &t)) {
				free(t.s);
				*why = "has an override that is not a value or a list of values";
				goto out;
			}
			int oom = t.oom || bb_kvs_add(&o->over, key, t.s ? t.s : "");
			free(t.s);
			if (oom)
				goto out_nomem;
		}
	}
	rc = o->file ? 0 : -EINVAL;
	goto out;
out_nomem:
	rc = -ENOMEM;
out:
	yaml_document_delete(&d);
	yaml_parser_delete(&p);
	if (rc)
		opts_free(o); /* what was taken before the error */
	return rc;
}

/* `KEY:` or `KEY :` at the start of the line. */
static int line_has_key(const char *s, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(s, key, n))
		return 0;
	s += n;
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == ':';
}

/* `KEY: VALUE` with a value (LKP's override pattern `^KEY\s*:\s+.*$`). */
static int line_sets_key(const char *s, const char *key)
{
	if (!line_has_key(s, key))
		return 0;
	const char *c = strchr(s, ':') + 1;
	return *c == ' ' || *c == '\t';
}

/* A `---` line: the end of a document. */
static int doc_separator(const char *t)
{
	return !strncmp(t, "---", 3) && !t[3 + strspn(t + 3, " \t")];
}

/* Apply ignore and overrides to the lines of an included file (per document). */
static int apply_opts(struct lines *inc, const struct include_opts *o, int file, int line)
{
	struct lines out = {0};
	int rc = 0;
	size_t start = 0;
	for (size_t i = 0; i <= inc->n && !rc; i++) {
		int sep = i < inc->n && doc_separator(inc->v[i].text);
		if (i < inc->n && !sep)
			continue;
		/* one document: lines start..i-1 */
		int blank = 1;
		for (size_t k = start; k < i; k++)
			if (inc->v[k].text[strspn(inc->v[k].text, " \t\r")])
				blank = 0;
		for (size_t k = start; k < i && !rc; k++) {
			const char *t = inc->v[k].text;
			int skip = 0;
			for (size_t g = 0; g < o->ignore.n && !skip; g++)
				skip = line_has_key(t, o->ignore.v[g]);
			if (skip)
				continue;
			char buf[4096];
			for (size_t v = 0; v < o->over.n && !blank; v++)
				if (line_sets_key(t, o->over.v[v].key)) {
					snprintf(buf, sizeof buf, "%s: %s", o->over.v[v].key,
					         o->over.v[v].value);
					t = buf;
				}
			rc = lines_add(&out, t, strlen(t), inc->v[k].file, inc->v[k].line);
		}
		for (size_t v = 0; v < o->over.n && !blank && !rc; v++) {
			int has = 0;
			for (size_t k = start; k < i && !has; k++)
				has = line_sets_key(inc->v[k].text, o->over.v[v].key);
			if (!has) {
				char buf[4096];
				snprintf(buf, sizeof buf, "%s: %s", o->over.v[v].key,
				         o->over.v[v].value);
				rc = lines_add(&out, buf, strlen(buf), file, line);
			}
		}
		if (i < inc->n && !rc)
			rc = lines_copy(&out, &inc->v[i]);
		start = i + 1;
	}
	lines_free(inc);
	*inc = out;
	return rc;
}

/* The value of a top-level `KEY: VALUE` line, or NULL. */
static const char *top_value(const char *t, const char *key)
{
	if (!line_sets_key(t, key))
		return NULL;
	const char *v = strchr(t, ':') + 1;
	return v + strspn(v, " \t");
}

/* Where host file NAME is: JOBDIR/hosts/NAME, then benchboot's config/hosts/NAME; NULL when
 * neither is there (LKP: no host file, nothing merged). */
static char *find_host_file(const char *dir, const char *value)
{
	char p[4096], name[256];
	/* the value's first word, unquoted */
	value += *value == '\'' || *value == '"';
	snprintf(name, sizeof name, "%.*s", (int)strcspn(value, " \t#'\""), value);
	if (!*name || strchr(name, '/') || name[0] == '.')
		return NULL;
	struct stat st;
	snprintf(p, sizeof p, "%s/hosts/%s", dir, name);
	if (!stat(p, &st) && S_ISREG(st.st_mode))
		return strdup(p);
	char rel[300];
	snprintf(rel, sizeof rel, "config/hosts/%s", name);
	return bb_image_find_data(rel, p, sizeof p) ? NULL : strdup(p);
}

/*
 * LKP's load_hosts_config: a document that names `tbox_group: NAME` gets the keys of the host
 * file hosts/NAME that the job does not set (the job's win). benchboot takes the machine's
 * disks from it, ssd_partitions and hdd_partitions (docs/jobs.md, "A lab machine's disks"); the
 * rest of a host file (model, nr_cpu, memory, ...) describes the machine and is not merged.
 */
static int merge_host_files(struct lines *res, const char *dir, struct bb_srcmap *map, char *err,
                            size_t errlen)
{
	static const char *const keys[] = {"ssd_partitions", "hdd_partitions"};
	struct lines out = {0};
	int rc = 0;
	size_t start = 0;
	for (size_t i = 0; i <= res->n && !rc; i++) {
		if (i < res->n && !doc_separator(res->v[i].text))
			continue;
		const char *box = NULL;
		for (size_t k = start; k < i && !box; k++)
			box = top_value(res->v[k].text, "tbox_group");
		for (size_t k = start; k < i && !rc; k++)
			rc = lines_copy(&out, &res->v[k]);
		char *hf = box ? find_host_file(dir, box) : NULL;
		unsigned char *buf = NULL;
		size_t blen;
		struct lines host = {0};
		if (hf && !rc && (rc = bb_fileio_read_all(hf, &buf, &blen)) && rc != -ENOMEM) {
			snprintf(err, errlen, "tbox_group %s: %s: %s", box, hf, strerror(-rc));
			rc = -EINVAL;
		} else if (hf && !rc) {
			int fidx = (int)map->files.n;
			if (!(rc = bb_strv_add(&map->files, hf)))
				rc = split_lines(&host, (const char *)buf, blen, fidx);
		}
		for (size_t g = 0; g < sizeof keys / sizeof *keys && host.n && !rc; g++) {
			int set = 0;
			for (size_t k = start; k < i && !set; k++)
				set = line_has_key(res->v[k].text, keys[g]);
			for (size_t k = 0; k < host.n && !set && !rc; k++)
				if (top_value(host.v[k].text, keys[g]))
					rc = lines_copy(&out, &host.v[k]);
		}
		lines_free(&host);
		free(buf);
		free(hf);
		if (i < res->n && !rc)
			rc = lines_copy(&out, &res->v[i]);
		start = i + 1;
	}
	lines_free(res);
	*res = out;
	return rc;
}

int bb_job_expand_includes(const char *path, const char *text, size_t len, char **out,
                           size_t *outlen, struct bb_srcmap *map, char *err, size_t errlen)
{
	struct lines src = {0}, res = {0};
	struct strbuf o = {0};
	char *pathcopy = strdup(path);
	int rc;

	memset(map, 0, sizeof *map);
	*out = NULL;
	if (!pathcopy)
		return -ENOMEM;
	const char *dir = dirname(pathcopy);
	if ((rc = bb_strv_add(&map->files, path)) || (rc = split_lines(&src, text, len, 0)))
		goto out;
	for (size_t i = 0; i < src.n && !rc; i++) {
		const char *t = src.v[i].text;
		size_t voff;
		long at = find_include(t, &voff);
		if (at < 0) {
			rc = lines_add(&res, t, strlen(t), 0, src.v[i].line);
			continue;
		}
		struct include_opts io;
		const char *why = "is not a file name";
		rc = parse_opts(t + voff, &io, &why);
		if (rc == -EINVAL) {
			snprintf(err, errlen, "%s:%d:%zu: <<: '%s' %s", path, src.v[i].line,
			         voff + 1, t + voff, why);
			goto out;
		}
		if (rc)
			goto out;
		char *found = resolve(dir, io.file);
		if (!found) {
			snprintf(err, errlen,
			         "%s:%d:%zu: <<: included file '%s' not found (looked next to %s, "
			         "then below the nearest jobs/ directory)",
			         path, src.v[i].line, voff + 1, io.file, path);
			opts_free(&io);
			rc = -EINVAL;
			goto out;
		}
		unsigned char *buf;
		size_t blen;
		if ((rc = bb_fileio_read_all(found, &buf, &blen))) {
			snprintf(err, errlen, "%s:%d: <<: %s: %s", path, src.v[i].line, found,
			         strerror(-rc));
			free(found);
			opts_free(&io);
			rc = rc == -ENOMEM ? rc : -EINVAL;
			goto out;
		}
		int fidx = (int)map->files.n;
		struct lines inc = {0};
		rc = bb_strv_add(&map->files, found);
		free(found);
		if (!rc)
			rc = split_lines(&inc, (const char *)buf, blen, fidx);
		free(buf);
		if (!rc && (io.ignore.n || io.over.n))
			rc = apply_opts(&inc, &io, 0, src.v[i].line);
		opts_free(&io);
		/* LKP: the text before `<<` on a line of its own, then every included line
		 * indented by that many blanks */
		if (!rc)
			rc = lines_add(&res, t, (size_t)at, 0, src.v[i].line);
		for (size_t k = 0; k < inc.n && !rc; k++) {
			char *ind = malloc((size_t)at + strlen(inc.v[k].text) + 1);
			if (!ind) {
				rc = -ENOMEM;
				break;
			}
			memset(ind, ' ', (size_t)at);
			strcpy(ind + at, inc.v[k].text);
			rc = lines_add(&res, ind, strlen(ind), inc.v[k].file, inc.v[k].line);
			free(ind);
		}
		lines_free(&inc);
	}
	if (!rc)
		rc = merge_host_files(&res, dir, map, err, errlen);
	if (rc)
		goto out;
	map->file = calloc(res.n + 1, sizeof *map->file);
	map->line = calloc(res.n + 1, sizeof *map->line);
	if (!map->file || !map->line) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < res.n; i++) {
		bb_strbuf_printf(&o, "%s\n", res.v[i].text);
		map->file[i] = res.v[i].file;
		map->line[i] = res.v[i].line;
	}
	map->nlines = res.n;
	if (o.oom) {
		rc = -ENOMEM;
		goto out;
	}
	if (!o.s && !(o.s = strdup(""))) {
		rc = -ENOMEM;
		goto out;
	}
	*out = o.s;
	*outlen = o.len;
	o.s = NULL;
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc)
		bb_srcmap_free(map);
	free(o.s);
	free(pathcopy);
	lines_free(&src);
	lines_free(&res);
	return rc;
}

void bb_srcmap_free(struct bb_srcmap *map)
{
	bb_strv_free(&map->files);
	free(map->file);
	free(map->line);
	memset(map, 0, sizeof *map);
}
