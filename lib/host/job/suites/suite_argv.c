/* What the suites' build functions share: words of a command line, sysctls (suite.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites/suite.h"
#include "host/job/units.h"

int bb_suite_argv_addf(struct bb_strv *a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return bb_strv_add(a, buf);
}

int bb_suite_argv_split(struct bb_strv *a, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, " \t");
		if (n) {
			char *w = strndup(s, n);
			int rc = w ? bb_strv_add(a, w) : -ENOMEM;
			free(w);
			if (rc)
				return rc;
		}
		s += n;
		s += strspn(s, " \t");
	}
	return 0;
}

int bb_suite_add_unique(struct bb_strv *a, const char *s)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i], s))
			return 0;
	return bb_strv_add(a, s);
}

int bb_suite_add_sysctl(struct bb_suite_run *sr, const char *kv)
{
	size_t klen = strcspn(kv, "=");
	for (size_t i = 0; i < sr->sysctls.n; i++)
		if (!strncmp(sr->sysctls.v[i], kv, klen + 1))
			return 0;
	return bb_strv_add(&sr->sysctls, kv);
}

const char *bb_suite_nr_threads(const struct bb_kvs *p, long *count, int *pct, char *err,
                                size_t errlen)
{
	const char *nr = bb_kvs_get_or(p, "nr_threads", "1");
	if (!bb_parse_count(nr, count, pct))
		return nr;
	snprintf(err, errlen, "nr_threads: '%s' is not a count or a percentage", nr);
	return NULL;
}

int bb_suite_word_in(const char *w, const char *list)
{
	size_t n = strlen(w);
	for (const char *p = list; *p;) {
		size_t k = strcspn(p, " ");
		if (k == n && !strncmp(p, w, n))
			return 1;
		p += k;
		p += strspn(p, " ");
	}
	return 0;
}

int bb_suite_check_whole(struct walker *w, const char *key, const char *s, yaml_mark_t m,
                         long long min, long long max, const char *suffix, const char *what)
{
	size_t n = strspn(s, "0123456789");
	char *e;
	errno = 0;
	long long v = strtoll(s, &e, 10);
	if (n && n <= 19 && !errno && v >= min && v <= max &&
	    (!s[n] || (suffix && !strcmp(s + n, suffix))))
		return 0;
	return jfail(w, m, "%s: '%s' is not a whole number %lld..%lld%s%s", key, s, min, max,
	             what ? " " : "", what ? what : "");
}

int bb_suite_check_ops(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	return bb_suite_check_whole(w, key, s, m, 1, 2147483647LL, "ops",
	                            "(LKP writes 10000000ops)");
}

int bb_suite_to_byte(const char *s, unsigned long long *out)
{
	char *e;
	errno = 0;
	unsigned long long n = strtoull(s, &e, 10);
	if (e == s || errno || *s < '0' || *s > '9')
		return -1;
	static const char units[] = "bkmgtp";
	int shift = -1;
	if (!*e)
		shift = 0;
	else {
		const char *u = strchr(units, e[0] | 0x20);
		if (u && (!e[1] || (e[0] != 'b' && e[0] != 'B' && (e[1] | 0x20) == 'b' && !e[2])))
			shift = (int)(u - units) * 10;
	}
	if (shift < 0 || (shift && n > (~0ULL >> shift)))
		return -1;
	*out = n << shift;
	return 0;
}

int bb_suite_check_bytes(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	unsigned long long b;
	if (!bb_suite_to_byte(s, &b) && b >= 1)
		return 0;
	return jfail(w, m, "%s: '%s' is not a size (LKP's 9B, 8K, 16M, 4G)", key, s);
}
