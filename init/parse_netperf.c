/*
 * netperf 2.7 output of one client (verbosity 1, the default), as the classic tests print it:
 *
 *   MIGRATED TCP STREAM TEST from 0.0.0.0 ... : demo           <- banner (absent with -P 0)
 *   Recv   Send    Send                          Utilization       Service Demand
 *   ...                                                         <- column titles
 *   bytes  bytes   bytes    secs.    10^6bits/s  % S      % S      us/KB   us/KB
 *
 *   131072  16384   4096    2.00       7132.47   98.24    98.24    2.257   2.257
 *
 * The data lines are the lines made only of numbers. Their shape tells the test family even
 * without headers (-P 0): stream 5 fields (9 with -c/-C), RR 6 (10) followed by a 2-field
 * line, UDP_STREAM a 6 (8) field sender line followed by a 4 (6) field receiver line (both
 * are kept: LKP's Throughput is the sender's, ThroughputRecv the receiver's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_netperf.h"

#define NP_MAXF 12

enum np_kind { NP_UNKNOWN, NP_STREAM, NP_RR, NP_UDP_STREAM };

struct np_line {
	int n; /* numeric fields, or -1 if the line is not all numbers */
	double f[NP_MAXF];
};

/* Split one line (start..end) into numbers; n = -1 if any token is not a number. */
static void np_numbers(const char *s, const char *end, struct np_line *l)
{
	l->n = 0;
	while (s < end) {
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s >= end)
			break;
		char tok[64];
		size_t len = 0;
		while (s < end && *s != ' ' && *s != '\t' && *s != '\r') {
			if (len + 1 < sizeof tok)
				tok[len] = *s;
			len++;
			s++;
		}
		if (len + 1 >= sizeof tok || l->n >= NP_MAXF) {
			l->n = -1;
			return;
		}
		tok[len] = 0;
		char *e;
		double v = strtod(tok, &e);
		if (e == tok || *e ||
		    !(tok[0] == '-' || tok[0] == '.' || (tok[0] >= '0' && tok[0] <= '9'))) {
			l->n = -1;
			return;
		}
		l->f[l->n++] = v;
	}
	if (l->n == 0)
		l->n = -1;
}

static int starts_with(const char *s, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);
	return (size_t)(end - s) >= n && !memcmp(s, prefix, n);
}

static const char *np_memmem(const char *s, const char *end, const char *needle)
{
	size_t n = strlen(needle);
	for (; s + n <= end; s++)
		if (!memcmp(s, needle, n))
			return s;
	return NULL;
}

/* Multiplier from the throughput unit in the header row to Mbit/s (netperf -f). */
static double np_unit_factor(const char *s, const char *end)
{
	static const struct {
		const char *name;
		double factor;
	} units[] = {
	    {"10^3bits", 1e-3},
	    {"10^6bits", 1.0},
	    {"10^9bits", 1e3},
	    {"KBytes", 8.0 * 1024 / 1e6},
	    {"MBytes", 8.0 * 1024 * 1024 / 1e6},
	    {"GBytes", 8.0 * 1024 * 1024 * 1024 / 1e6},
	};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (np_memmem(s, end, units[i].name))
			return units[i].factor;
	return 1.0;
}

static void np_set_cpu(struct bb_netperf_result *r, double lc, double rc, double lsd, double rsd)
{
	r->has_cpu = 1;
	r->local_cpu = lc;
	r->remote_cpu = rc;
	r->local_sd = lsd;
	r->remote_sd = rsd;
}

/* The first line that explains a failure: not the banner, not empty. */
static void np_reason(const char *out, char *err, size_t errlen)
{
	const char *s = out;
	while (*s) {
		const char *e = strchr(s, '\n');
		if (!e)
			e = s + strlen(s);
		const char *p = s;
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < e && !np_memmem(p, e, " TEST from ") && !starts_with(p, e, "!!!")) {
			int len = (int)(e - p);
			if (len > 160)
				len = 160;
			snprintf(err, errlen, "netperf: %.*s", len, p);
			return;
		}
		s = *e ? e + 1 : e;
	}
	snprintf(err, errlen, "netperf printed no result (%s)",
	         *out ? "no data line" : "empty output");
}

int parse_netperf(const char *out, struct bb_netperf_result *r, char *err, size_t errlen)
{
	enum np_kind kind = NP_UNKNOWN;
	double factor = 1.0;
	struct np_line l1 = {0}, l2 = {0};
	int have = 0; /* 1: l1 set, 2: l1 and l2 (consecutive numeric lines) */

	memset(r, 0, sizeof *r);
	if (!out)
		out = "";
	for (const char *s = out; *s && have < 2;) {
		const char *e = strchr(s, '\n');
		if (!e)
			e = s + strlen(s);
		struct np_line l;
		np_numbers(s, e, &l);
		if (l.n > 0) {
			if (have == 0) {
				l1 = l;
				have = 1;
			} else {
				l2 = l;
				have = 2;
			}
		} else if (have == 1) {
			break; /* the first data line stands alone */
		} else {
			if (np_memmem(s, e, "Desired confidence was not achieved"))
				r->confidence_missed = 1;
			if (starts_with(s, e, "bytes")) {
				if (np_memmem(s, e, "per sec"))
					kind = NP_RR;
				else if (np_memmem(s, e, "#"))
					kind = NP_UDP_STREAM;
				else
					kind = NP_STREAM;
				factor = np_unit_factor(s, e);
			}
		}
		s = *e ? e + 1 : e;
	}
	if (!have) {
		np_reason(out, err, errlen);
		return -EINVAL;
	}
	if (kind == NP_UNKNOWN) { /* -P 0: guess from the shape */
		if (l1.n == 5 || l1.n == 9)
			kind = NP_STREAM;
		else if ((l1.n == 6 || l1.n == 10) && have == 2 && l2.n == 2)
			kind = NP_RR;
		else if ((l1.n == 6 || l1.n == 8) && have == 2 && (l2.n == 4 || l2.n == 6))
			kind = NP_UDP_STREAM;
		else if (l1.n == 1 || (l1.n == 2 && have == 1)) {
			snprintf(err, errlen,
			         "netperf output with -v 0 (a bare number) is not supported");
			return -EINVAL;
		}
	}
	switch (kind) {
	case NP_STREAM:
		if (l1.n != 5 && l1.n != 9)
			break;
		r->elapsed_s = l1.f[3];
		r->throughput = l1.f[4] * factor;
		r->msg_size = l1.f[2];
		if (l1.n == 9)
			np_set_cpu(r, l1.f[5], l1.f[6], l1.f[7], l1.f[8]);
		return 0;
	case NP_RR:
		if (l1.n != 6 && l1.n != 10)
			break;
		r->rr = 1;
		r->elapsed_s = l1.f[4];
		r->throughput = l1.f[5];
		if (l1.n == 10)
			np_set_cpu(r, l1.f[6], l1.f[7], l1.f[8], l1.f[9]);
		return 0;
	case NP_UDP_STREAM:
		if ((l1.n != 6 && l1.n != 8) || have != 2 || l2.n != l1.n - 2)
			break;
		/* LKP's programs/netperf/parse: Throughput is the sender's line,
		 * ThroughputRecv the receiver's */
		r->elapsed_s = l1.f[2];
		r->msg_size = l1.f[1];
		r->throughput = l1.f[5] * factor;
		r->has_recv = 1;
		r->recv_throughput = l2.f[3] * factor;
		if (l1.n == 8)
			np_set_cpu(r, l1.f[6], l2.f[4], l1.f[7], l2.f[5]);
		return 0;
	case NP_UNKNOWN:
		break;
	}
	snprintf(err, errlen, "netperf: unexpected data line with %d fields", l1.n);
	return -EINVAL;
}
