/* LKP's key performance indicators; see kpi.h. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare/kpi.h"

/* What an ERE gives a special meaning to. */
static int ere_special(char c)
{
	return c && strchr(".[]()*+?{}|^$\\", c);
}

/*
 * One KPI compiled: LKP's pattern anchored as LKP's /^#{k}$/, in POSIX ERE (Ruby's escape of a
 * character that is not special, "\%" or "\-", is the character itself), and the literal text
 * every match starts with, to pass over most names without running the expression.
 */
struct compiled {
	regex_t re;
	int ok;
	char prefix[64];
};

static void compile(const char *p, struct compiled *c)
{
	size_t len = strlen(p), n = 0, np = 0;
	char *ere = malloc(2 * len + 8);
	int literal = 1;
	if (!ere)
		return;
	ere[n++] = '^';
	ere[n++] = '(';
	for (size_t i = 0; i < len; i++) {
		char ch = p[i];
		int escaped = ch == '\\' && p[i + 1];
		if (escaped)
			ch = p[++i];
		if (escaped && ere_special(ch))
			ere[n++] = '\\';
		ere[n++] = ch;
		if (!literal)
			continue;
		if (!escaped && ere_special(ch)) {
			literal = 0;
			/* a quantifier that may leave out the character before it */
			if ((ch == '?' || ch == '*' || ch == '{') && np)
				np--;
		} else if (np + 1 < sizeof c->prefix) {
			c->prefix[np++] = ch;
		} else {
			literal = 0;
		}
	}
	ere[n++] = ')';
	ere[n++] = '$';
	ere[n] = 0;
	c->prefix[np] = 0;
	c->ok = !regcomp(&c->re, ere, REG_EXTENDED | REG_NOSUB);
	free(ere);
}

static const struct bb_lkp_kpi *find(const char *stat)
{
	static struct compiled *table;
	if (!table) {
		table = calloc(bb_lkp_nkpis, sizeof *table);
		if (!table)
			return NULL;
		for (size_t i = 0; i < bb_lkp_nkpis; i++)
			compile(bb_lkp_kpis[i].pattern, &table[i]);
	}
	for (size_t i = 0; i < bb_lkp_nkpis; i++) {
		const struct compiled *c = &table[i];
		if (c->ok && !strncmp(stat, c->prefix, strlen(c->prefix)) &&
		    !regexec(&c->re, stat, 0, NULL, 0))
			return &bb_lkp_kpis[i];
	}
	return NULL;
}

double bb_kpi_direction(const char *stat)
{
	const struct bb_lkp_kpi *k = find(stat);
	return k ? k->direction : 0;
}

const char *bb_kpi_verdict(double d, double change)
{
	if (d == 0)
		return NULL;
	return d * change < 0 ? "regression" : "improvement";
}

const char *bb_kpi_file(enum bb_kpi_kind kind)
{
	return kind == BB_KPI_LATENCY ? "etc/index-latency-all.yaml" : "etc/index-perf-all.yaml";
}
