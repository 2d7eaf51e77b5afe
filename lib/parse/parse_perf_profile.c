/*
 * perf-profile: `perf report` text -> LKP's stats (LKP's programs/perf-profile/parse, lkp-tests
 * bbbc29c4), and `perf script` output -> folded call stacks (parse_perf.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "parse/parse_perf.h"

/* fixup_symbol_name: `.isra.N`, `.constprop.N`, `.part.N` removed (wherever they are). */
static void fixup_symbol(char *s)
{
	static const char *const tags[] = {".isra.", ".constprop.", ".part."};
	for (char *t = s; *t;) {
		size_t hit = 0;
		for (size_t i = 0; i < 3 && !hit; i++) {
			size_t l = strlen(tags[i]);
			if (!strncmp(t, tags[i], l) && t[l] >= '0' && t[l] <= '9') {
				hit = l;
				while (t[hit] >= '0' && t[hit] <= '9')
					hit++;
			}
		}
		if (hit)
			memmove(t, t + hit, strlen(t + hit) + 1);
		else
			t++;
	}
}

struct acc {
	char (*key)[128];
	double *v;
	size_t n, cap, vcap;
};

static int acc_add(struct acc *a, const char *key, double v)
{
	if (strlen(key) + 13 >= sizeof a->key[0])
		return 0; /* perf-profile.KEY would not fit benchboot's stat names */
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->key[i], key)) {
			a->v[i] += v;
			return 0;
		}
	if (bb_grow(&a->key, &a->cap, a->n + 1, sizeof *a->key) ||
	    bb_grow(&a->v, &a->vcap, a->n + 1, sizeof *a->v))
		return -ENOMEM;
	snprintf(a->key[a->n], sizeof a->key[0], "%s", key);
	a->v[a->n++] = v;
	return 0;
}

/* `# Events: N EV` or `# Samples: N of event 'EV'`: EV with `:` as `-`, quotes dropped. */
static int event_line(const char *line, char *ev, size_t len)
{
	const char *rest;
	if (!strncmp(line, "# Events: ", 10))
		rest = line + 10;
	else if (!strncmp(line, "# Samples: ", 11))
		rest = line + 11;
	else
		return 0;
	size_t d = strspn(rest, "0123456789");
	if (!d || !strchr("KMG ", rest[d]) || !rest[d])
		return 0;
	rest += d + 1;
	if (line[2] == 'E') {
		size_t b = strspn(rest, " \t");
		if (!b && rest[-1] != ' ')
			return 0;
		rest += b;
	} else {
		if (strncmp(rest, " of event ", 10) && strncmp(rest, "of event ", 9))
			return 0;
		rest = strstr(rest, "of event ") + 9;
	}
	size_t o = 0;
	for (; *rest && o + 1 < len; rest++)
		if (*rest != '\'')
			ev[o++] = *rest == ':' ? '-' : *rest;
	ev[o] = 0;
	return 1;
}

/* `^\s*(\d+\.\d+)%` at s: the number and the end of the match, or NULL. */
static const char *percent(const char *s, double *v)
{
	const char *b = s;
	size_t d = strspn(s, "0123456789");
	if (!d || s[d] != '.')
		return NULL;
	s += d + 1;
	d = strspn(s, "0123456789");
	if (!d || s[d] != '%')
		return NULL;
	*v = strtod(b, NULL);
	return s + d + 1;
}

static size_t words(char *s, char **w, size_t max)
{
	size_t n = 0;
	for (char *t = strtok(s, " \t"); t; t = strtok(NULL, " \t"))
		if (n < max)
			w[n++] = t;
		else
			return max + 1;
	return n;
}

int bb_perf_profile_stats(const char *report, struct bb_stats *out, char *event, size_t elen,
                          char *err, size_t errlen)
{
	const char *s = report ? report : "";
	size_t n = strcspn(s, "\n");
	char ev[96] = "";
	struct acc a = {0};
	int r = 0;
	/* the first line: `# ========` (with --header) */
	if (!((n == 10 && !strncmp(s, "# ========", 10)) || memmem(s, n, " --header", 9))) {
		snprintf(err, errlen,
		         "perf-profile: not a perf report made with --header (first line: %.*s)",
		         (int)(n < 60 ? n : 60), s);
		return -EINVAL;
	}
	s += n + (s[n] == '\n');
	int found = 0;
	while (*s && !r) {
		n = strcspn(s, "\n");
		char *line = strndup(s, n);
		s += n + (s[n] == '\n');
		if (!line) {
			r = -ENOMEM;
			break;
		}
		if (event_line(line, ev, sizeof ev)) {
			found = 1;
			free(line);
			continue;
		}
		if (!found || !strncmp(line, "# ", 2)) {
			free(line);
			continue;
		}
		double pc, self;
		const char *t = line + strspn(line, " \t"), *e, *e2;
		char key[400], *w[8];
		if ((e = percent(t, &pc)) && (*e == ' ' || *e == '\t') &&
		    (e2 = percent(e + strspn(e, " \t"), &self)) && (*e2 == ' ' || *e2 == '\t')) {
			/* `CHILDREN% SELF% DSO [k] SYMBOL [- -]` */
			char *rest = strdup(e2);
			size_t nw = rest ? words(rest, w, 5) : 0;
			if (!rest)
				r = -ENOMEM;
			else if (nw == 3 || nw == 5) {
				fixup_symbol(w[2]);
				snprintf(key, sizeof key, "children.%s.%s", ev, w[2]);
				r = acc_add(&a, key, pc);
				snprintf(key, sizeof key, "self.%s.%s", ev, w[2]);
				if (!r)
					r = acc_add(&a, key, self);
			}
			free(rest);
		} else if (line[0] >= '0' && line[0] <= '9' && (e = percent(line, &pc)) &&
		           (*e == ' ' || *e == '\t')) {
			/* `PCT% F1;F2;...` (no blank in the chain): the first five frames */
			const char *chain = e + strspn(e, " \t");
			if (*chain && !chain[strcspn(chain, " \t")]) {
				size_t l = snprintf(key, sizeof key, "calltrace.%s", ev);
				const char *f = chain;
				for (int i = 0; i < 5 && *f && l < sizeof key; i++) {
					size_t k = strcspn(f, ";");
					char frame[256];
					snprintf(frame, sizeof frame, "%.*s", (int)k, f);
					fixup_symbol(frame);
					l += snprintf(key + l, sizeof key - l, ".%s", frame);
					f += k + (f[k] == ';');
				}
				if (l < sizeof key)
					r = acc_add(&a, key, pc);
			}
		}
		free(line);
	}
	if (event)
		snprintf(event, elen, "%s", ev);
	for (size_t i = 0; !r && i < a.n; i++) {
		double v = round(a.v[i] * 100) / 100; /* format('%.2f') */
		if (a.v[i] < 0.05)
			continue;
		char name[200];
		if ((size_t)snprintf(name, sizeof name, "perf-profile.%s", a.key[i]) >= 128)
			continue; /* longer than benchboot's stat names */
		int e = bb_stats_add(out, name, v, "");
		if (e && e != -ENAMETOOLONG)
			r = e;
	}
	free(a.key);
	free(a.v);
	return r;
}

/* ---- folding perf script's output ---- */

struct stack {
	char *text;
	unsigned long count;
};

struct bb_perf_fold {
	struct stack *v;
	size_t n, cap;
	size_t *slot; /* open addressing: index + 1, 0 empty */
	size_t nslot;
	char comm[128];
	char **frames; /* the sample being read, leaf first */
	size_t nframes, capframes;
	int in_sample;
	long samples;
};

struct bb_perf_fold *bb_perf_fold_new(void)
{
	return calloc(1, sizeof(struct bb_perf_fold));
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int rehash(struct bb_perf_fold *f)
{
	size_t ns = f->nslot ? f->nslot * 2 : 1024;
	size_t *slot = calloc(ns, sizeof *slot);
	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		size_t h = hash_str(f->v[i].text) & (ns - 1);
		while (slot[h])
			h = (h + 1) & (ns - 1);
		slot[h] = i + 1;
	}
	free(f->slot);
	f->slot = slot;
	f->nslot = ns;
	return 0;
}

static int add_stack(struct bb_perf_fold *f, const char *text)
{
	if ((f->n + 1) * 2 > f->nslot && rehash(f))
		return -ENOMEM;
	size_t h = hash_str(text) & (f->nslot - 1);
	while (f->slot[h]) {
		struct stack *s = &f->v[f->slot[h] - 1];
		if (!strcmp(s->text, text)) {
			s->count++;
			return 0;
		}
		h = (h + 1) & (f->nslot - 1);
	}
	if (bb_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v))
		return -ENOMEM;
	char *t = strdup(text);
	if (!t)
		return -ENOMEM;
	f->v[f->n] = (struct stack){t, 1};
	f->slot[h] = ++f->n;
	return 0;
}

/* The sample read so far as one stack: COMM;ROOT;...;LEAF. */
static int end_sample(struct bb_perf_fold *f)
{
	if (!f->in_sample)
		return 0;
	f->in_sample = 0;
	size_t len = strlen(f->comm) + 1;
	for (size_t i = 0; i < f->nframes; i++)
		len += strlen(f->frames[i]) + 1;
	char *t = malloc(len + 1), *o = t;
	int r = 0;
	if (!t)
		r = -ENOMEM;
	else {
		o += sprintf(o, "%s", f->comm);
		for (size_t i = f->nframes; i-- > 0;)
			o += sprintf(o, ";%s", f->frames[i]);
		r = add_stack(f, t);
		f->samples += !r;
	}
	free(t);
	for (size_t i = 0; i < f->nframes; i++)
		free(f->frames[i]);
	f->nframes = 0;
	return r;
}

static void clean_name(char *s)
{
	for (; *s; s++)
		if (*s == ';' || *s == ' ' || *s == '\t')
			*s = '_';
}

int bb_perf_fold_line(struct bb_perf_fold *f, const char *line)
{
	if (!*line)
		return end_sample(f);
	if (line[0] != ' ' && line[0] != '\t') {
		/* a sample's header: `COMM` (-F comm,...), padded */
		int r = end_sample(f);
		if (r)
			return r;
		size_t n = strlen(line);
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == ':'))
			n--;
		snprintf(f->comm, sizeof f->comm, "%.*s", (int)n, line);
		clean_name(f->comm);
		if (!f->comm[0])
			snprintf(f->comm, sizeof f->comm, "[unknown]");
		f->in_sample = 1;
		return 0;
	}
	if (!f->in_sample)
		return 0;
	/* a frame: `ADDR SYM (DSO)`, SYM may hold blanks, `[unknown]` when perf has none */
	const char *s = line + strspn(line, " \t");
	s += strcspn(s, " \t");
	s += strspn(s, " \t");
	const char *dso = strrchr(s, '(');
	size_t n = dso && dso > s ? (size_t)(dso - s) : strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	char name[512];
	snprintf(name, sizeof name, "%.*s", (int)n, s);
	if (!name[0])
		snprintf(name, sizeof name, "[unknown]");
	clean_name(name);
	/* kernel frames: [kernel.kallsyms], a module's [NAME], [kernel.vmlinux] */
	int kernel = dso && dso[1] == '[' && strcmp(dso, "([unknown])") && strcmp(dso, "([vdso])");
	if (kernel) {
		size_t l = strlen(name);
		snprintf(name + l, sizeof name - l, "_[k]");
	}
	if (bb_grow(&f->frames, &f->capframes, f->nframes + 1, sizeof *f->frames))
		return -ENOMEM;
	if (!(f->frames[f->nframes] = strdup(name)))
		return -ENOMEM;
	f->nframes++;
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct stack *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->text, y->text);
}

long bb_perf_fold_write(struct bb_perf_fold *f, const char *event, FILE *out)
{
	int r = end_sample(f);
	if (r)
		return r;
	if (f->n)
		qsort(f->v, f->n, sizeof *f->v, by_count);
	fprintf(out, "# event: %s\n", event);
	for (size_t i = 0; i < f->n; i++)
		fprintf(out, "%s %lu\n", f->v[i].text, f->v[i].count);
	/* positions changed: the index is rebuilt if more lines come */
	free(f->slot);
	f->slot = NULL;
	f->nslot = 0;
	if (f->n && rehash(f))
		return -ENOMEM;
	return ferror(out) ? -EIO : f->samples;
}

void bb_perf_fold_free(struct bb_perf_fold *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i].text);
	for (size_t i = 0; i < f->nframes; i++)
		free(f->frames[i]);
	free(f->frames);
	free(f->v);
	free(f->slot);
	free(f);
}
