/* Durations and counts of job keys; see units.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/units.h"

int bb_parse_duration(const char *s, double *seconds)
{
	static const struct {
		char unit;
		double seconds;
	} units[] = {{'s', 1},     {'m', 60},     {'h', 3600},
	             {'d', 86400}, {'w', 604800}, {'y', 31536000}};
	char *e;
	if (!(*s >= '0' && *s <= '9'))
		return -EINVAL;
	double v = strtod(s, &e), mul = 1;
	for (size_t i = 0; *e && i < sizeof(units) / sizeof(*units); i++)
		if (*e == units[i].unit) {
			mul = units[i].seconds;
			e++;
			break;
		}
	if (*e || v * mul > 1e9)
		return -EINVAL;
	*seconds = v * mul;
	return 0;
}

int bb_parse_count(const char *s, long *n, int *percent)
{
	char *e;
	if (!(*s >= '0' && *s <= '9'))
		return -EINVAL;
	errno = 0;
	long v = strtol(s, &e, 10);
	*percent = 0;
	if (*e == '%')
		*percent = 1, e++;
	if (*e || errno || v > 100000)
		return -EINVAL;
	if (v < 1)
		return -ERANGE;
	*n = v;
	return 0;
}
