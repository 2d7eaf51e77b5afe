/* Command-line sizes; see size.h. */
#include <errno.h>
#include <stdlib.h>

#include "host/size.h"

int bb_size_parse(const char *s, unsigned long long *out)
{
	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	unsigned shift = 0;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	}
	if (shift) {
		if (v > (~0ULL >> shift))
			return -EINVAL;
		v <<= shift;
		end++;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}
