/*
 * stress-ng --metrics output (0.15 prints "metrc:", older versions "info:"):
 *
 *   stress-ng: metrc: [23521] stressor       bogo ops real time  usr time  sys time   bogo ops/s
 * ... stress-ng: metrc: [23521]                           (secs)    (secs)    (secs)   (real time)
 * ... stress-ng: metrc: [23521] cpu                3465      2.00      2.00      0.02      1731.15
 * ...
 *
 * A data row is: stressor, bogo ops, real, usr, sys, bogo ops/s (real time), bogo ops/s
 * (usr+sys), then optional columns (CPU used per instance, RSS max). As LKP's
 * programs/stress-ng/parse: a row with 0 bogo ops is STRESSOR.fail 1; otherwise STRESSOR.pass
 * 1, .ops (column 2) and .ops_per_sec (the real-time rate). A metric line
 *
 *   stress-ng: metrc: [5237] udp-flood           1097.62 sendto calls per sec (geometric mean of 2
 * instances)
 *
 * is STRESSOR.UNIT (the words after the value, LKP's normalisation: blanks and ,"_[]():
 * runs become one '_'), or STRESSOR.UNIT.fail 1 when the value is 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_stressng.h"

#define SN_MAXF 16

/* Fields of a stress-ng log line after "stress-ng: LEVEL: [PID]"; returns the count, or -1
 * if the line does not have that prefix. level receives LEVEL (without the colon). */
static int sn_split(const char *s, const char *end, char level[16], char f[SN_MAXF][64])
{
	static const char prefix[] = "stress-ng: ";
	size_t pl = sizeof prefix - 1;
	if ((size_t)(end - s) < pl || memcmp(s, prefix, pl))
		return -1;
	s += pl;
	int n = -2; /* the first two tokens are LEVEL: and [PID] */
	while (s < end) {
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s >= end)
			break;
		const char *t = s;
		while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		size_t len = (size_t)(s - t);
		if (n == -2) {
			if (len < 2 || len > 15 || t[len - 1] != ':')
				return -1;
			memcpy(level, t, len - 1);
			level[len - 1] = 0;
		} else if (n == -1) {
			if (t[0] != '[' || t[len - 1] != ']')
				return -1;
		} else if (n < SN_MAXF) {
			if (len > 63)
				len = 63;
			memcpy(f[n], t, len);
			f[n][len] = 0;
		}
		n++;
	}
	return n < 0 ? -1 : (n > SN_MAXF ? SN_MAXF : n);
}

static int sn_number(const char *s, double *v)
{
	char *e;
	if (!((s[0] >= '0' && s[0] <= '9') || s[0] == '.' || s[0] == '-'))
		return 0;
	*v = strtod(s, &e);
	return e != s && !*e;
}

/* The first line naming a failure or a skip, for the error message. */
static void sn_reason(const char *out, char *err, size_t errlen)
{
	static const char *const marks[] = {
	    "fail:",        "skipped",         "error:", "unrecognized option",
	    "unsuccessful", "not implemented", "invalid"};
	for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++) {
		const char *p = strstr(out, marks[m]);
		if (!p)
			continue;
		const char *b = p;
		while (b > out && b[-1] != '\n')
			b--;
		const char *e = strchr(p, '\n');
		int len = e ? (int)(e - b) : (int)strlen(b);
		if (len > 160)
			len = 160;
		snprintf(err, errlen, "stress-ng printed no metrics: %.*s", len, b);
		return;
	}
	snprintf(err, errlen, "stress-ng printed no metrics table (%s)",
	         *out ? "was --metrics given?" : "empty output");
}

/* LKP::Stats.normalize of the words of a metric's unit. */
static void sn_unit(char f[SN_MAXF][64], int from, int n, char *out, size_t len)
{
	size_t o = 0;
	int sep = 0;
	for (int i = from; i < n; i++) {
		for (const char *p = f[i]; *p; p++) {
			if (strchr(",\"_[]():", *p)) {
				sep = 1;
				continue;
			}
			if (sep && o && o + 1 < len)
				out[o++] = '_';
			sep = 0;
			if (o + 1 < len)
				out[o++] = *p;
		}
		sep = 1;
	}
	out[o] = 0;
}

/* "(average ...", "(geometric mean ...", "(harmonic mean ...", "(total ...": where the
 * summary starts (stress-ng spells geometric "geometic" in some versions), or NULL. */
static const char *sn_summary(const char *s, const char *e)
{
	static const char *const marks[] = {" (average", " (geometric mean", " (geometic mean",
	                                    " (harmonic mean", " (total"};
	for (const char *p = s; p < e; p++)
		for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++)
			if ((size_t)(e - p) >= strlen(marks[m]) &&
			    !memcmp(p, marks[m], strlen(marks[m])))
				return p;
	return NULL;
}

static int sn_seen(const struct bb_stats *st, size_t first, const char *name)
{
	for (size_t i = first; i < st->n; i++)
		if (!strcmp(st->v[i].name, name))
			return 1;
	return 0;
}

int parse_stressng(const char *out, struct bb_stats *st, char *err, size_t errlen)
{
	int in_table = 0, rows = 0, failed = 0;
	char fail_line[200] = "";
	size_t first = st->n;

	if (!out)
		out = "";
	for (const char *s = out; *s;) {
		const char *e = strchr(s, '\n');
		if (!e)
			e = s + strlen(s);
		char level[16], f[SN_MAXF][64];
		const char *sum = sn_summary(s, e);
		int n = sn_split(s, sum ? sum : e, level, f);
		double mv;
		if (sum && n >= 3 && sn_number(f[1], &mv)) {
			char unit[128], name[320];
			int rc;
			sn_unit(f, 2, n, unit, sizeof unit);
			snprintf(name, sizeof name, "stress-ng.%s.%s%s", f[0], unit,
			         mv == 0 ? ".fail" : "");
			if (!sn_seen(st, first, name) &&
			    (rc = bb_stats_add(st, name, mv == 0 ? 1 : mv, "")))
				return rc;
			if (mv != 0) {
				snprintf(name, sizeof name, "stress-ng.%s.%s.pass", f[0], unit);
				if (!sn_seen(st, first, name) &&
				    (rc = bb_stats_add(st, name, 1, "")))
					return rc;
			}
			s = *e ? e + 1 : e;
			continue;
		}
		if (n >= 0 && !strcmp(level, "fail") && !fail_line[0])
			snprintf(fail_line, sizeof fail_line, "%.*s", (int)(e - s), s);
		/* "unsuccessful run completed in 2.01s" (0.15); newer: "failed: N: stressor (N)" */
		if ((n >= 2 && !strcmp(f[0], "unsuccessful") && !strcmp(f[1], "run")) ||
		    (n >= 2 && !strcmp(f[0], "failed:") && strcmp(f[1], "0")))
			failed = 1;
		if (n >= 3 && !strcmp(f[0], "stressor") && !strcmp(f[1], "bogo") &&
		    !strcmp(f[2], "ops")) {
			in_table = 1;
		} else if (in_table && n >= 1 && f[0][0] == '(') {
			/* the units row */
		} else if (in_table && n >= 7) {
			double v[6];
			int ok = 1;
			for (int i = 0; i < 6 && ok; i++)
				ok = sn_number(f[1 + i], &v[i]);
			if (!ok) {
				in_table = 0;
			} else {
				char name[128];
				int rc;
				snprintf(name, sizeof name, "stress-ng.%s.%s", f[0],
				         v[0] == 0 ? "fail" : "pass");
				/* the same table twice (a log copy on stdout and stderr): once */
				if (sn_seen(st, first, name)) {
					s = *e ? e + 1 : e;
					continue;
				}
				rows++;
				if ((rc = bb_stats_add(st, name, 1, "")))
					return rc;
				if (v[0] == 0) {
					s = *e ? e + 1 : e;
					continue;
				}
				snprintf(name, sizeof name, "stress-ng.%s.ops", f[0]);
				if ((rc = bb_stats_add(st, name, v[0], "ops")))
					return rc;
				snprintf(name, sizeof name, "stress-ng.%s.ops_per_sec", f[0]);
				if ((rc = bb_stats_add(st, name, v[4], "ops/s")))
					return rc;
			}
		} else if (in_table) {
			in_table = 0;
		}
		s = *e ? e + 1 : e;
	}
	if (failed) {
		snprintf(err, errlen, "stress-ng reported a failure: %s",
		         fail_line[0] ? fail_line : "unsuccessful run");
		return -EINVAL;
	}
	if (!rows) {
		sn_reason(out, err, errlen);
		return -EINVAL;
	}
	return 0;
}
