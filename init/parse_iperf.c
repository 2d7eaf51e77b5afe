/* iperf3's -J output into LKP's stats (parse_iperf.h): a small JSON scanner that keeps the
 * members it needs, end.{sum,sum_sent,sum_received}.bits_per_second and the top-level
 * "error", and skips the rest. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_iperf.h"

#define MAX_DEPTH 64

enum { UDP, SENT, RECV, NKINDS };

struct scan {
	const char *p;
	char path[3][32]; /* the member names leading to depth 1..3 ("[" in an array) */
	double bps[NKINDS];
	int has[NKINDS];
	char error[160]; /* the document's "error" */
};

static void ws(struct scan *s)
{
	s->p += strspn(s->p, " \t\r\n");
}

/* A string at s->p ('"'), its text into buf (escapes kept as the escaped byte, cut at len - 1).
 * 0 or -1. */
static int string(struct scan *s, char *buf, size_t len)
{
	size_t o = 0;
	for (s->p++; *s->p != '"'; s->p++) {
		if (!*s->p)
			return -1;
		if (*s->p == '\\' && !*++s->p)
			return -1;
		if (o + 1 < len)
			buf[o++] = *s->p;
	}
	s->p++;
	if (len)
		buf[o] = 0;
	return 0;
}

static int value(struct scan *s, int depth);

/* The members or elements of an object or array at s->p, each value at depth + 1. 0 or -1. */
static int members(struct scan *s, int depth, char close)
{
	char key[32];
	s->p++;
	ws(s);
	if (*s->p == close) {
		s->p++;
		return 0;
	}
	for (;;) {
		ws(s);
		if (close == '}') {
			if (*s->p != '"' || string(s, key, sizeof key))
				return -1;
			ws(s);
			if (*s->p++ != ':')
				return -1;
		} else {
			snprintf(key, sizeof key, "[");
		}
		if (depth < 3)
			memcpy(s->path[depth], key, sizeof key);
		if (value(s, depth + 1))
			return -1;
		ws(s);
		if (*s->p == ',') {
			s->p++;
			continue;
		}
		if (*s->p++ != close)
			return -1;
		return 0;
	}
}

static int value(struct scan *s, int depth)
{
	char text[160];
	ws(s);
	if (depth > MAX_DEPTH)
		return -1;
	switch (*s->p) {
	case '{':
		return members(s, depth, '}');
	case '[':
		return members(s, depth, ']');
	case '"':
		if (string(s, text, sizeof text))
			return -1;
		if (depth == 1 && !strcmp(s->path[0], "error"))
			snprintf(s->error, sizeof s->error, "%s", text);
		return 0;
	default:
		break;
	}
	if (!strncmp(s->p, "true", 4) || !strncmp(s->p, "null", 4)) {
		s->p += 4;
		return 0;
	}
	if (!strncmp(s->p, "false", 5)) {
		s->p += 5;
		return 0;
	}
	char *e;
	double v = strtod(s->p, &e);
	if (e == s->p)
		return -1;
	s->p = e;
	if (depth == 3 && !strcmp(s->path[0], "end") && !strcmp(s->path[2], "bits_per_second")) {
		int k = !strcmp(s->path[1], "sum")            ? UDP
		        : !strcmp(s->path[1], "sum_sent")     ? SENT
		        : !strcmp(s->path[1], "sum_received") ? RECV
		                                              : -1;
		if (k >= 0)
			s->bps[k] = v, s->has[k] = 1;
	}
	return 0;
}

int parse_iperf_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                      size_t errlen)
{
	static const char *const names[NKINDS] = {"iperf.udp.bps", "iperf.tcp.sender.bps",
	                                          "iperf.tcp.receiver.bps"};
	double sum[NKINDS] = {0};
	size_t count[NKINDS] = {0}, docs = 0;
	char why[224] = "";
	int rc;
	if (n == 0) {
		snprintf(err, errlen, "iperf: no clients");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct scan s = {.p = outs[i] ? outs[i] : ""};
		for (ws(&s); *s.p; ws(&s)) {
			const char *start = s.p;
			memset(s.has, 0, sizeof s.has);
			s.error[0] = 0;
			if (*s.p != '{' || value(&s, 0)) {
				/* where it stops, at most 60 bytes of its line */
				size_t line = strcspn(start, "\r\n");
				if (!*why)
					snprintf(why, sizeof why,
					         "client %zu: not iperf3's JSON at byte %zu: %.*s",
					         i, (size_t)(start - outs[i]),
					         (int)(line < 60 ? line : 60), start);
				break;
			}
			docs++;
			/* LKP: a session with end.sum is UDP; its sum_sent and sum_received (iperf3
			 * 3.13 and later write them for UDP too) are not TCP's */
			if (s.has[UDP])
				s.has[SENT] = s.has[RECV] = 0;
			for (int k = 0; k < NKINDS; k++)
				if (s.has[k])
					sum[k] += s.bps[k], count[k]++;
			if (!s.has[UDP] && !s.has[SENT] && !s.has[RECV] && !*why)
				snprintf(why, sizeof why, "client %zu: %s%s", i,
				         *s.error ? "iperf3 said: " : "no end.sum bits_per_second",
				         s.error);
		}
	}
	if (!count[UDP] && !count[SENT] && !count[RECV]) {
		snprintf(err, errlen,
		         "iperf: no session with bits_per_second in %zu JSON document%s%s%s", docs,
		         docs == 1 ? "" : "s", *why ? " (" : "", *why ? why : "");
		if (*why)
			strncat(err, ")", errlen - strlen(err) - 1);
		return -EINVAL;
	}
	for (int k = 0; k < NKINDS; k++)
		if (count[k] &&
		    (rc = bb_stats_add(out, names[k], sum[k] / (double)count[k], "bps")))
			return rc;
	return 0;
}
