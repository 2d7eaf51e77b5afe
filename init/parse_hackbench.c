/* hackbench's output into LKP's stats (parse_hackbench.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_hackbench.h"

/* The first line of s that is not empty, for a message: at most len - 1 bytes. */
static void first_line(const char *s, char *out, size_t len)
{
	s += strspn(s, "\r\n");
	size_t n = strcspn(s, "\r\n");
	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), s);
}

int parse_hackbench_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                          size_t errlen)
{
	unsigned long long tasks = 0, messages = 0, bytes = 0;
	double best = 0, worst = 0, sum = 0;
	size_t ntimes = 0;
	int rc;
	if (n == 0) {
		snprintf(err, errlen, "hackbench: no clients");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		for (const char *l = outs[i]; l && *l; l += strcspn(l, "\n"), l += *l == '\n') {
			unsigned long long a, b, c;
			double t;
			if (sscanf(
			        l,
			        "Running in %*s mode with %llu groups using %llu file descriptors "
			        "each (== %llu tasks)",
			        &a, &b, &c) == 3)
				tasks = c;
			else if (sscanf(l, "Each sender will pass %llu messages of %llu bytes", &a,
			                &b) == 2 ||
			         sscanf(l,
			                "Each sender passed %llu messages of %llu bytes in average",
			                &a, &b) == 2)
				messages = a, bytes = b;
			else if (!strncmp(l, "Time:", 5) && sscanf(l + 5, "%lf", &t) == 1) {
				if (!ntimes || t < best)
					best = t;
				if (!ntimes || t > worst)
					worst = t;
				sum += t;
				ntimes++;
			}
		}
	}
	if (!ntimes || best <= 0) {
		char line[160];
		first_line(outs[0] ? outs[0] : "", line, sizeof line);
		snprintf(err, errlen, "hackbench: no \"Time:\" line in its output%s%s%s",
		         *line ? " (it said: " : "", line, *line ? ")" : "");
		return -EINVAL;
	}
	double kb = (double)((tasks * messages * bytes) >> 10);
	double avg = sum / (double)ntimes;
	const struct {
		const char *name;
		double v;
	} t[] = {
	    {"hackbench.throughput", kb / best},
	    {"hackbench.throughput_best", kb / best},
	    {"hackbench.throughput_avg", round(kb / avg * 100) / 100},
	    {"hackbench.throughput_worst", kb / worst},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if ((rc = bb_stats_add(out, t[i].name, t[i].v, "KB/s")))
			return rc;
	return 0;
}
