/* Environment differences between two sides; see envdiff.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grow.h"
#include "host/cmdline.h"
#include "host/compare/envdiff.h"
#include "host/compare/strset.h"

/* Environment fields that change from boot to boot by nature, not by setup. */
static int env_ignored(const char *key)
{
	static const char *const last[] = {
	    "boot_id",       "bootid",       "seq",        "sequence",
	    "time",          "date",         "timestamp",  "uptime",
	    "started",       "finished",     "started_at", "finished_at",
	    "start_time",    "end_time",     "btime",      "boot_time",
	    "elapsed",       "duration",     "mem_free",   "memfree",
	    "mem_available", "memavailable", "disk_id",    "results_disk",
	    "order_rotate", /* the boot's turn of the run order: changes every round */
	};
	static const char *const exact[] = {"boot.id", "boot.seq", "boot.number", "id"};
	/* a two-host boot's server host: the same rules for its fields */
	if (!strncmp(key, "server.", 7))
		key += 7;
	const char *dot = strrchr(key, '.');
	const char *tail = dot ? dot + 1 : key;
	size_t tl = strlen(tail);
	/* timings of the setup (milliseconds) and the setup section as a whole */
	if ((tl > 3 && !strcmp(tail + tl - 3, "_ms")) || !strncmp(key, "setup.", 6))
		return 1;
	for (size_t i = 0; i < sizeof(last) / sizeof(*last); i++)
		if (!strcasecmp(tail, last[i]))
			return 1;
	for (size_t i = 0; i < sizeof(exact) / sizeof(*exact); i++)
		if (!strcmp(key, exact[i]))
			return 1;
	return 0;
}

/*
 * A flattened key in a list: "modules.loaded.3" is element 3 of the list "modules.loaded";
 * "cgroup.mounts.1.type" is the field "type" of element 1 of "cgroup.mounts" (the first
 * all-digit part marks the list). 1 with the length of the list's name, else 0.
 */
static int list_key(const char *key, size_t *name_len)
{
	for (const char *p = key; (p = strchr(p, '.')); p++) {
		size_t d = strspn(p + 1, "0123456789");
		if (d && (p[1 + d] == '.' || !p[1 + d])) {
			*name_len = p - key;
			return 1;
		}
	}
	return 0;
}

static int same_set(const struct bb_strset *x, const struct bb_strset *y)
{
	if (x->n != y->n)
		return 0;
	for (size_t i = 0; i < x->n; i++)
		if (!bb_strset_has(y, x->v[i]))
			return 0;
	return 1;
}

static int diff_add(struct bb_env_diff **out, size_t *nout, size_t *cap, const char *key, char *a,
                    char *b, int is_set)
{
	if (!a || !b || bb_grow(out, cap, *nout + 1, sizeof(**out))) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	struct bb_env_diff *d = &(*out)[*nout];
	d->key = strdup(key);
	d->a = a;
	d->b = b;
	d->is_set = is_set;
	if (!d->key) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	(*nout)++;
	return 0;
}

/* A scalar field: the values each side's records hold, "(absent)" where one has none. */
static int diff_scalar(const struct bb_kvs *const *rec[2], const size_t nrec[2], const char *key,
                       struct bb_env_diff **out, size_t *nout, size_t *cap)
{
	struct bb_strset v[2] = {{0}, {0}};
	size_t kl = strlen(key);
	int cmdline = kl >= 7 && !strcmp(key + kl - 7, "cmdline"), r = -ENOMEM;
	for (int s = 0; s < 2; s++)
		for (size_t j = 0; j < nrec[s]; j++) {
			const char *x = bb_kvs_get(rec[s][j], key);
			char *plain = x && cmdline ? bb_cmdline_without(x, BB_CMDLINE_TURN) : NULL;
			int fail =
			    (x && cmdline && !plain) || bb_strset_add(&v[s], plain ? plain
			                                                     : x   ? x
			                                                           : "(absent)");
			free(plain);
			if (fail)
				goto out;
		}
	r = same_set(&v[0], &v[1])
	        ? 0
	        : diff_add(out, nout, cap, key, bb_strset_join(&v[0], "(absent)"),
	                   bb_strset_join(&v[1], "(absent)"), 0);
out:
	bb_strset_free(&v[0]);
	bb_strset_free(&v[1]);
	return r;
}

/* S's values sorted and space-joined between OPEN and CLOSE: malloc'd, NULL when out of
 * memory. */
static char *sorted_join(struct bb_strset *s, const char *open, const char *close)
{
	qsort(s->v, s->n, sizeof(*s->v), bb_value_cmp);
	size_t len = strlen(open) + strlen(close) + 1;
	for (size_t i = 0; i < s->n; i++)
		len += strlen(s->v[i]) + 1;
	char *out = malloc(len), *o = out;
	if (!out)
		return NULL;
	o += sprintf(o, "%s", open);
	for (size_t i = 0; i < s->n; i++)
		o += sprintf(o, "%s%s", i ? " " : "", s->v[i]);
	strcpy(o, close);
	return out;
}

/*
 * The elements of list `name` in one record, added to set: a plain element as its value, an
 * element with fields as "{k=v k=v}" (fields in key order).
 */
static int list_elements(const struct bb_kvs *rec, const char *name, struct bb_strset *set)
{
	size_t nl = strlen(name);
	struct bb_strset idx = {0};
	int r = -ENOMEM;
	for (size_t i = 0; i < rec->n; i++) {
		const char *k = rec->v[i].key;
		if (strncmp(k, name, nl) || k[nl] != '.')
			continue;
		size_t d = strspn(k + nl + 1, "0123456789");
		char num[32];
		if (!d || d >= sizeof(num) || (k[nl + 1 + d] && k[nl + 1 + d] != '.'))
			continue;
		memcpy(num, k + nl + 1, d);
		num[d] = 0;
		if (bb_strset_add(&idx, num))
			goto out;
	}
	for (size_t e = 0; e < idx.n; e++) {
		char prefix[512];
		struct bb_strset fields = {0};
		const char *whole = NULL;
		snprintf(prefix, sizeof(prefix), "%s.%s", name, idx.v[e]);
		size_t pl = strlen(prefix);
		for (size_t i = 0; i < rec->n; i++) {
			const char *k = rec->v[i].key;
			char *f;
			if (strncmp(k, prefix, pl) || env_ignored(k))
				continue;
			if (!k[pl])
				whole = rec->v[i].value;
			else if (k[pl] == '.') {
				if (asprintf(&f, "%s=%s", k + pl + 1, rec->v[i].value) < 0)
					goto out;
				int fail = bb_strset_add(&fields, f);
				free(f);
				if (fail) {
					bb_strset_free(&fields);
					goto out;
				}
			}
		}
		char *el = NULL;
		if (whole) {
			el = strdup(whole);
		} else {
			el = sorted_join(&fields, "{", "}");
		}
		bb_strset_free(&fields);
		int fail = !el || bb_strset_add(set, el);
		free(el);
		if (fail)
			goto out;
	}
	r = 0;
out:
	bb_strset_free(&idx);
	return r;
}

/* x minus y, space-joined in x's sorted order ("" when empty). */
static char *set_minus(struct bb_strset *x, const struct bb_strset *y)
{
	struct bb_strset m = {0};
	char *out = NULL;
	for (size_t i = 0; i < x->n; i++)
		if (!bb_strset_has(y, x->v[i]) && bb_strset_add(&m, x->v[i]))
			goto out;
	out = sorted_join(&m, "", "");
out:
	bb_strset_free(&m);
	return out;
}

/* A list field, as a set: the elements any record of a side holds and the other side's none. */
static int diff_list(const struct bb_kvs *const *rec[2], const size_t nrec[2], const char *name,
                     struct bb_env_diff **out, size_t *nout, size_t *cap)
{
	struct bb_strset el[2] = {{0}, {0}};
	int r = -ENOMEM;
	for (int s = 0; s < 2; s++)
		for (size_t j = 0; j < nrec[s]; j++)
			if (list_elements(rec[s][j], name, &el[s]))
				goto out;
	r = same_set(&el[0], &el[1]) ? 0
	                             : diff_add(out, nout, cap, name, set_minus(&el[0], &el[1]),
	                                        set_minus(&el[1], &el[0]), 1);
out:
	bb_strset_free(&el[0]);
	bb_strset_free(&el[1]);
	return r;
}

static int diff_key_cmp(const void *x, const void *y)
{
	return bb_value_cmp(&((const struct bb_env_diff *)x)->key,
	                    &((const struct bb_env_diff *)y)->key);
}

int bb_env_diff_compute(const struct bb_kvs *const *a, size_t na, const struct bb_kvs *const *b,
                        size_t nb, struct bb_env_diff **out, size_t *nout)
{
	const struct bb_kvs *const *rec[2] = {a, b};
	const size_t nrec[2] = {na, nb};
	struct bb_strset scalars = {0}, lists = {0};
	size_t cap = 0;
	int r = -ENOMEM;
	*out = NULL;
	*nout = 0;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < nrec[s]; i++)
			for (size_t j = 0; j < rec[s][i]->n; j++) {
				const char *k = rec[s][i]->v[j].key;
				size_t nl;
				if (env_ignored(k))
					continue;
				if (!list_key(k, &nl)) {
					if (bb_strset_add(&scalars, k))
						goto out;
					continue;
				}
				char *name = strndup(k, nl);
				int fail = !name || bb_strset_add(&lists, name);
				free(name);
				if (fail)
					goto out;
			}
	for (size_t i = 0; i < scalars.n; i++)
		if (diff_scalar(rec, nrec, scalars.v[i], out, nout, &cap))
			goto out;
	for (size_t i = 0; i < lists.n; i++)
		if (diff_list(rec, nrec, lists.v[i], out, nout, &cap))
			goto out;
	if (*nout)
		qsort(*out, *nout, sizeof(**out), diff_key_cmp);
	r = 0;
out:
	bb_strset_free(&scalars);
	bb_strset_free(&lists);
	if (r) {
		bb_env_diffs_free(*out, *nout);
		*out = NULL;
		*nout = 0;
	}
	return r;
}

void bb_env_diffs_free(struct bb_env_diff *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].key);
		free(d[i].a);
		free(d[i].b);
	}
	free(d);
}
