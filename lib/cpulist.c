/* CPU list parsing and formatting; see cpulist.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cpulist.h"

static int parse_cpu(const char **p, int last, unsigned *cpu)
{
	unsigned long v = 0;
	const char *s = *p;
	if (!strncmp(s, "last", 4)) {
		if (last < 0)
			return -EINVAL;
		*p = s + 4;
		*cpu = (unsigned)last;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned)(*s - '0');
		if (v >= BB_CPUSET_MAX)
			return -ERANGE;
		s++;
	}
	*p = s;
	*cpu = (unsigned)v;
	return 0;
}

int bb_cpulist_parse(const char *s, struct bb_cpuset *set)
{
	return bb_cpulist_resolve(s, -1, set);
}

int bb_cpulist_resolve(const char *s, int last, struct bb_cpuset *set)
{
	if (last >= BB_CPUSET_MAX)
		return -ERANGE;
	memset(set, 0, sizeof(*set));
	if (!*s || !strcmp(s, "\n"))
		return 0;
	for (;;) {
		unsigned lo, hi;
		int r = parse_cpu(&s, last, &lo);
		if (r)
			return r;
		hi = lo;
		if (*s == '-') {
			s++;
			if ((r = parse_cpu(&s, last, &hi)))
				return r;
			if (hi < lo)
				return -EINVAL;
		}
		for (unsigned c = lo; c <= hi; c++)
			bb_cpuset_add(set, c);
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\n' && !s[1])
			return 0;
		return *s ? -EINVAL : 0;
	}
}

int bb_cpuset_has(const struct bb_cpuset *set, unsigned cpu)
{
	return cpu < BB_CPUSET_MAX && (set->bits[cpu / 64] >> (cpu % 64)) & 1;
}

void bb_cpuset_add(struct bb_cpuset *set, unsigned cpu)
{
	if (cpu < BB_CPUSET_MAX)
		set->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

unsigned bb_cpuset_count(const struct bb_cpuset *set)
{
	unsigned n = 0;
	for (size_t i = 0; i < BB_CPUSET_MAX / 64; i++)
		n += (unsigned)__builtin_popcountll(set->bits[i]);
	return n;
}

int bb_cpuset_nth(const struct bb_cpuset *set, unsigned n)
{
	for (unsigned c = 0; c < BB_CPUSET_MAX; c++)
		if (bb_cpuset_has(set, c) && n-- == 0)
			return (int)c;
	return -1;
}

int bb_cpulist_format(const struct bb_cpuset *set, char *buf, size_t len)
{
	size_t off = 0;
	int total = 0;
	if (len)
		buf[0] = 0;
	for (unsigned c = 0; c < BB_CPUSET_MAX; c++) {
		if (!bb_cpuset_has(set, c))
			continue;
		unsigned hi = c;
		while (hi + 1 < BB_CPUSET_MAX && bb_cpuset_has(set, hi + 1))
			hi++;
		char *dst = off < len ? buf + off : NULL;
		size_t room = off < len ? len - off : 0;
		int n = hi > c ? snprintf(dst, room, "%s%u-%u", total ? "," : "", c, hi)
		               : snprintf(dst, room, "%s%u", total ? "," : "", c);
		total += n;
		off += (size_t)n;
		c = hi;
	}
	return total;
}

int bb_cpuset_last(const struct bb_cpuset *set)
{
	for (int c = BB_CPUSET_MAX - 1; c >= 0; c--)
		if (bb_cpuset_has(set, (unsigned)c))
			return c;
	return -1;
}
