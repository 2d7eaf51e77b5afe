/*
 * perf-stat's raw output -> LKP's stats (parse_perf.h). Follows LKP's programs/perf-stat/parse
 * (lkp-tests bbbc29c4) line by line, then dump-stat's series and lib/matrix.rb's reduction:
 * perf-stat.i.* are per-interval series (the mean), ps./overall./total. one value (LKP's
 * etc/independent-counter-prefixes: the sum, i.e. that value). Uncore (UNC_M_*) and per-socket
 * output are not parsed: benchboot's event list has neither.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "parse/parse_perf.h"
#include "parse/parse_monitor.h"

const char *const bb_perf_stat_hw_groups[] = {
    "{cpu-cycles,instructions,cache-references,cache-misses,branch-instructions,branch-misses}",
    "{dTLB-loads,dTLB-load-misses}",
    "{dTLB-stores,dTLB-store-misses}",
    "{iTLB-loads,iTLB-load-misses}",
    "{node-loads,node-load-misses}",
    "{node-stores,node-store-misses}",
    NULL};
const char *const bb_perf_stat_sw_events =
    "cpu-clock,task-clock,page-faults,context-switches,cpu-migrations,minor-faults,major-faults";

int bb_perf_monitor(const char *name)
{
	return !strcmp(name, "perf-stat") || !strcmp(name, "perf-profile");
}

int bb_monitor_known(const char *name)
{
	return bb_monitor_find(name) || bb_perf_monitor(name);
}

#define MAXKEYS 96
#define MAXFIELDS 16

/* Ruby's Hash.new(0) of event -> float, insertion order kept. */
struct hash {
	char key[MAXKEYS][96];
	double v[MAXKEYS];
	size_t n;
};

static double *hash_at(struct hash *h, const char *key)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->key[i], key))
			return &h->v[i];
	if (h->n == MAXKEYS)
		return NULL;
	snprintf(h->key[h->n], sizeof h->key[0], "%s", key);
	h->v[h->n] = 0;
	return &h->v[h->n++];
}

static double hash_get(const struct hash *h, const char *key)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->key[i], key))
			return h->v[i];
	return 0;
}

/* dump-stat's series of one stat, as far as the reduction needs it. */
struct series {
	char name[128];
	double first, last, sum;
	size_t at; /* the sample it last got a value in, +1 */
};

struct pstat {
	char events[40][64];
	size_t nev;
	struct hash isum, inr, imetric, rsum, rnr;
	int interval_nr;
	struct series *s;
	size_t ns, cap;
	size_t sample; /* samples begun by `time:` */
	int err;
	char unsupported[512];
};

/* dump-stat: `KEY: VALUE` in the current sample (a key repeated in a sample: its first). */
static void emit(struct pstat *p, const char *key, double v)
{
	char name[160];
	if (p->err || !isfinite(v) ||
	    (size_t)snprintf(name, sizeof name, "perf-stat.%s", key) >= sizeof p->s->name)
		return;
	struct series *s = NULL;
	for (size_t i = 0; i < p->ns && !s; i++)
		if (!strcmp(p->s[i].name, name))
			s = &p->s[i];
	if (!s) {
		if (bb_grow(&p->s, &p->cap, p->ns + 1, sizeof *p->s)) {
			p->err = -ENOMEM;
			return;
		}
		s = &p->s[p->ns++];
		memset(s, 0, sizeof *s);
		memcpy(s->name, name, strlen(name) + 1); /* fits: checked above */
		s->first = p->sample <= 1 ? v : 0;       /* a late key: leading zeros */
	} else if (s->at == p->sample)
		return;
	s->sum += v;
	s->last = v;
	s->at = p->sample;
}

static void emitf(struct pstat *p, double v, const char *fmt, const char *a, const char *b)
{
	char key[200];
	snprintf(key, sizeof key, fmt, a, b);
	emit(p, key, v);
}

/* Ruby's `key =~ /(.*)SUFFIX/`: the greedy stem before the last SUFFIX, or -1. */
static int stem_of(const char *key, const char *suffix, char *stem, size_t len)
{
	const char *hit = NULL;
	for (const char *t = key; (t = strstr(t, suffix)); t++)
		hit = t;
	if (!hit)
		return -1;
	snprintf(stem, len, "%.*s", (int)(hit - key), key);
	return 0;
}

/* calc_addon_keys: miss rates, misses per instruction, ipc/cpi from one set of sums. */
static void addon_keys(struct pstat *p, const struct hash *sum, const char *prefix)
{
	char stem[96], k[200];
	for (size_t i = 0; i < sum->n; i++) {
		const char *key = sum->key[i];
		double value = sum->v[i];
		if (!stem_of(key, "-misses", stem, sizeof stem)) {
			static const char *const pfx[] = {"s", "-references", "-instructions"};
			for (size_t j = 0; j < 3; j++) {
				snprintf(k, sizeof k, "%s%s", stem, pfx[j]);
				double a = hash_get(sum, k);
				if (a == 0)
					continue;
				double total = j == 0 ? a + value : a;
				emitf(p, value * 100.0 / total, "%s%s-miss-rate%%", prefix, stem);
				break;
			}
			if (value == 0)
				continue;
			if (!stem_of(key, "iTLB-load-misses", stem, sizeof stem)) {
				snprintf(k, sizeof k, "%sinstructions", stem);
				double ins = hash_get(sum, k);
				if (ins != 0)
					emitf(p, ins / value, "%s%sinstructions-per-iTLB-miss",
					      prefix, stem);
			} else if (!stem_of(key, "cache-misses", stem, sizeof stem)) {
				snprintf(k, sizeof k, "%scpu-cycles", stem);
				double cyc = hash_get(sum, k);
				if (cyc != 0)
					emitf(p, cyc / value, "%s%scycles-between-cache-misses",
					      prefix, stem);
				snprintf(k, sizeof k, "%sinstructions", stem);
				double ins = hash_get(sum, k);
				if (ins != 0)
					emitf(p, value / ins * 1000, "%s%sMPKI", prefix, stem);
			}
		} else if (!stem_of(key, "cpu-cycles", stem, sizeof stem)) {
			snprintf(k, sizeof k, "%sinstructions", stem);
			double ins = hash_get(sum, k);
			if (ins == 0)
				continue;
			emitf(p, ins / value, "%s%sipc", prefix, stem);
			emitf(p, value / ins, "%s%scpi", prefix, stem);
		}
	}
}

/* output_interval(prev_time, time): the interval's rates, then its sums into the totals
 * (stats_part_begin/end are unset in a benchboot run: no interval is ignored). */
static void output_interval(struct pstat *p, double prev_time, double time)
{
	if (!p->isum.n)
		return;
	double interval = time - prev_time;
	p->sample++; /* `time: T` */
	for (size_t i = 0; i < p->isum.n; i++)
		emitf(p, p->isum.v[i] / interval, "i.%s%s", p->isum.key[i], "");
	addon_keys(p, &p->isum, "i.");
	for (size_t i = 0; i < p->imetric.n; i++)
		emitf(p, p->imetric.v[i], "i.%s%s", p->imetric.key[i], "");
	for (size_t i = 0; i < p->isum.n; i++) {
		double *s = hash_at(&p->rsum, p->isum.key[i]);
		double *n = hash_at(&p->rnr, p->isum.key[i]);
		if (s && n) {
			*s += p->isum.v[i];
			*n += hash_get(&p->inr, p->isum.key[i]);
		}
	}
	p->interval_nr++;
	p->isum.n = p->inr.n = p->imetric.n = 0;
}

/* Ruby's String#split(','): trailing empty fields removed. */
static size_t split_commas(char *line, char **f, size_t max)
{
	size_t n = 0;
	for (char *s = line;; n++) {
		char *c = strchr(s, ',');
		if (n < max)
			f[n] = s;
		if (!c)
			break;
		*c = 0;
		s = c + 1;
	}
	n++;
	if (n > max)
		n = max;
	while (n && !*f[n - 1])
		n--;
	return n;
}

/* The event names of the command line: `perf stat ... -e LIST ` (braces dropped). */
static void events_of(struct pstat *p, const char *line)
{
	const char *e = strstr(line, "perf stat ");
	if (!e || !(e = strstr(e + 10, " -e ")))
		return;
	e += 4;
	size_t n = strcspn(e, " ");
	if (!e[n])
		return; /* the regexp wants a blank after the list */
	p->nev = 0;
	while (n && p->nev < sizeof p->events / sizeof p->events[0]) {
		size_t k = strcspn(e, ", ");
		if (k > n)
			k = n;
		char *w = p->events[p->nev];
		size_t o = 0;
		for (size_t i = 0; i < k && o < sizeof p->events[0] - 1; i++)
			if (e[i] != '{' && e[i] != '}')
				w[o++] = e[i];
		w[o] = 0;
		if (o)
			p->nev++;
		e += k;
		n -= k;
		if (n && *e == ',') {
			e++;
			n--;
		}
	}
}

static int is_event(const struct pstat *p, const char *w)
{
	for (size_t i = 0; i < p->nev; i++)
		if (!strcmp(p->events[i], w))
			return 1;
	return 0;
}

/* `^\s*\d+\.\d+\W+` */
static int interval_line(const char *s)
{
	s += strspn(s, " \t");
	size_t d = strspn(s, "0123456789");
	if (!d || s[d] != '.')
		return 0;
	s += d + 1;
	if (!(d = strspn(s, "0123456789")))
		return 0;
	char c = s[d];
	return c && !(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	              (c >= 'A' && c <= 'Z'));
}

static void note_unsupported(struct pstat *p, char **f, size_t n)
{
	if (n < 4 || f[1][0] != '<')
		return;
	const char *ev = f[3];
	char pad[80];
	snprintf(pad, sizeof pad, " %s ", ev);
	char have[sizeof p->unsupported + 2];
	snprintf(have, sizeof have, " %s ", p->unsupported);
	if (strstr(have, pad))
		return;
	size_t l = strlen(p->unsupported);
	if (l + strlen(ev) + 2 < sizeof p->unsupported)
		snprintf(p->unsupported + l, sizeof p->unsupported - l, "%s%s", l ? " " : "", ev);
}

/* One line's value (fields fl after the time) into the interval's sums, as LKP's parse keys
 * it: the unit field dropped (remove_extra_comma), _IMC cut, Bytes appended; its metric (a
 * capitalised name in the sixth field) summed apart. */
static void add_value(struct pstat *p, char **fl, size_t nfl)
{
	const char *unit = !strcmp(fl[1], "Bytes") ? fl[1] : NULL;
	char *g[MAXFIELDS];
	size_t ng = 0;
	for (size_t i = 0; i < nfl; i++)
		if (i != 1)
			g[ng++] = fl[i];
	double value = strtod(g[0], NULL);
	char key[96], mkey[96] = "";
	snprintf(key, sizeof key, "%s", g[1]);
	if (ng > 5 && g[5][0] >= 'A' && g[5][0] <= 'Z' && g[5][1] && !strchr(g[5], ' '))
		snprintf(mkey, sizeof mkey, "metric.%s", g[5]);
	double mval = mkey[0] ? strtod(g[4], NULL) : 0;
	char *imc = strstr(key, "_IMC");
	if (imc)
		*imc = 0;
	if (unit) {
		size_t l = strlen(key);
		snprintf(key + l, sizeof key - l, "_%s", unit);
	}
	double *sv = hash_at(&p->isum, key), *nv = hash_at(&p->inr, key);
	if (sv && nv) {
		*sv += value;
		*nv += 1;
	}
	if (mkey[0]) {
		double *mv = hash_at(&p->imetric, mkey);
		if (mv)
			*mv += mval;
	}
}

int bb_perf_stat_stats(const char *raw, struct bb_stats *out, char *unsupported, size_t ulen,
                       char *err, size_t errlen)
{
	struct pstat *p = calloc(1, sizeof *p);
	double prev_prev_time = 0, prev_time = 0, time = 0;
	int r = 0;
	if (!p)
		return -ENOMEM;
	for (const char *s = raw ? raw : ""; *s && !p->err;) {
		size_t n = strcspn(s, "\n");
		char *line = strndup(s, n), *f[MAXFIELDS + 1];
		s += n + (s[n] == '\n');
		if (!line) {
			p->err = -ENOMEM;
			break;
		}
		if (strstr(line, "perf stat ") && strstr(line, " -e "))
			events_of(p, line);
		if (!interval_line(line) || !strchr(line, ',')) {
			/* LKP splits a line without commas on blanks: not perf's -x output */
			free(line);
			continue;
		}
		size_t nf = split_commas(line, f, MAXFIELDS + 1);
		note_unsupported(p, f, nf);
		char *stime = f[0];
		char **fl = f + 1;
		size_t nfl = nf - 1;
		if (nfl < 7 || fl[0][0] == 'S') { /* short (<not supported>, ...); per-socket */
			free(line);
			continue;
		}
		char *slash = strchr(fl[2], '/');
		if (slash) { /* cpu_atom/cpu-cycles/ -> cpu-cycles */
			char *end = strchr(slash + 1, '/');
			if (end) {
				*end = 0;
				fl[2] = slash + 1;
			}
		}
		int any = 0;
		for (size_t i = 0; i < nfl && !any; i++)
			any = is_event(p, fl[i]);
		if (!any) {
			snprintf(err, errlen,
			         "perf-stat: a line names none of the command line's events "
			         "(%s); LKP's parse gives up on it",
			         p->nev ? fl[2] : "no `perf stat ... -e EVENTS` line first");
			free(line);
			r = -EINVAL;
			goto out;
		}
		prev_time = time;
		time = strtod(stime, NULL);
		if (time - prev_time > 0.01) {
			output_interval(p, prev_prev_time, prev_time);
			prev_prev_time = prev_time;
		}
		add_value(p, fl, nfl);
		free(line);
	}
	if (p->err) {
		r = p->err;
		goto out;
	}
	/* the last interval is not output (it was cut by the end); the run time is the last
	 * timestamp seen (prev_time: as LKP) */
	double run_time = prev_time;
	for (size_t i = 0; i < p->rsum.n; i++)
		emitf(p, p->rsum.v[i] / run_time, "ps.%s%s", p->rsum.key[i], "");
	double ins = hash_get(&p->rsum, "instructions");
	if (ins != 0)
		emit(p, "total.instructions", ins);
	addon_keys(p, &p->rsum, "overall.");
	if ((r = p->err))
		goto out;
	size_t len = p->sample ? p->sample : 1;
	for (size_t i = 0; i < p->ns; i++) {
		struct series *s = &p->s[i];
		if (s->first == 0 && s->last == 0 && s->sum == 0)
			continue; /* dump-stat drops it */
		int once = !strncmp(s->name, "perf-stat.ps.", 13) ||
		           !strncmp(s->name, "perf-stat.overall.", 18) ||
		           !strncmp(s->name, "perf-stat.total.", 16);
		double v = once ? s->sum : s->sum / (double)len;
		int e = bb_stats_add(out, s->name, v, "");
		if (e && e != -ENAMETOOLONG) {
			r = e;
			goto out;
		}
	}
out:
	if (unsupported)
		snprintf(unsupported, ulen, "%s", p->unsupported);
	free(p->s);
	free(p);
	return r;
}
