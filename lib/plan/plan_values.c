/*
 * The plan parser's value checks (lib/plan/plan_parser.h): numbers, seconds, names, cgroup
 * paths, CPU lists, addresses.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "plan/plan_parser.h"

int plan_fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->msg, ps->msglen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Replace sv with the blank-separated words of s. */
int plan_strv_split(struct bb_strv *sv, const char *s)
{
	bb_strv_free(sv);
	return bb_strv_add_words(sv, s);
}

int plan_set_str(char **dst, const char *value)
{
	char *s = strdup(value);
	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

int plan_parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int plan_parse_seconds(const char *s, double *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	double v = strtod(s, &end);
	if (*end || v < 0 || v > 86400.0 * 365)
		return -EINVAL;
	*out = v;
	return 0;
}

int plan_name_ok(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr(extra, *s)))
			return 0;
	return 1;
}

/* A job cgroup path: /A or /A/B..., at most 4 levels, each of [A-Za-z0-9._@-] and not "."
 * or "..". 0 when good. */
int plan_cgroup_path_ok(const char *s)
{
	int levels = 0;
	if (*s != '/' || strlen(s) > 200)
		return -1;
	while (*s == '/') {
		size_t n = strcspn(++s, "/");
		if (!n || (n == 1 && s[0] == '.') || (n == 2 && !strncmp(s, "..", 2)) ||
		    ++levels > 4)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (!plan_name_ok((char[]){s[i], 0}, "._@-"))
				return -1;
		s += n;
	}
	return *s ? -1 : 0;
}

int plan_cpus_ok(const char *s)
{
	struct bb_cpuset set;
	return *s && bb_cpulist_resolve(s, BB_CPULIST_ANY_LAST, &set) == 0;
}

/* "tcp:ADDR:PORT", ADDR an IPv4 or IPv6 address. */
int plan_ready_ok(const char *s)
{
	char addr[64], buf[16];
	long port;
	if (strncmp(s, "tcp:", 4))
		return 0;
	s += 4;
	const char *colon = strrchr(s, ':');
	if (!colon || (size_t)(colon - s) >= sizeof(addr))
		return 0;
	memcpy(addr, s, (size_t)(colon - s));
	addr[colon - s] = 0;
	if (inet_pton(AF_INET, addr, buf) != 1 && inet_pton(AF_INET6, addr, buf) != 1)
		return 0;
	return plan_parse_int(colon + 1, 1, 65535, &port) == 0;
}

int plan_dummy_ok(const char *s)
{
	char addr[INET6_ADDRSTRLEN];
	int prefix;
	return bb_plan_addr_prefix(s, addr, sizeof(addr), &prefix) == AF_INET;
}

int bb_plan_is_mac(const char *s)
{
	for (int i = 0; i < 6; i++, s += 3)
		if (!strchr("0123456789abcdefABCDEF", s[0]) || !s[0] ||
		    !strchr("0123456789abcdefABCDEF", s[1]) || !s[1] || s[2] != (i < 5 ? ':' : 0))
			return 0;
	return 1;
}

int bb_plan_addr_prefix(const char *s, char *addr, size_t addrlen, int *prefix)
{
	unsigned char buf[16];
	long v;
	const char *slash = strchr(s, '/');
	if (!slash || (size_t)(slash - s) >= addrlen || slash == s)
		return 0;
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = 0;
	int family = inet_pton(AF_INET, addr, buf) == 1    ? AF_INET
	             : inet_pton(AF_INET6, addr, buf) == 1 ? AF_INET6
	                                                   : 0;
	if (!family || plan_parse_int(slash + 1, 1, family == AF_INET ? 32 : 128, &v))
		return 0;
	*prefix = (int)v;
	return family;
}
