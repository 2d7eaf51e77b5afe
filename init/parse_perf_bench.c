/* `perf bench` outputs into LKP's stats (parse_perf_bench.h). One client each. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parse_perf_bench.h"

/* The value before `unit` on a line of s ("155438 ops/sec"), or after `label` ("Total time:
 * 6.4 [sec]"): 0 and *v, or -1. */
static int find_value(const char *s, const char *label, const char *unit, double *v)
{
	for (const char *l = s; l && *l; l += strcspn(l, "\n"), l += *l == '\n') {
		const char *at;
		size_t len = strcspn(l, "\n");
		if (label && (at = strstr(l, label)) && at < l + len &&
		    sscanf(at + strlen(label), "%lf", v) == 1)
			return 0;
		if (unit && (at = strstr(l, unit)) && at < l + len) {
			const char *b = at;
			while (b > l && b[-1] == ' ')
				b--;
			while (b > l && ((b[-1] >= '0' && b[-1] <= '9') || b[-1] == '.'))
				b--;
			if (b < at && sscanf(b, "%lf", v) == 1)
				return 0;
		}
	}
	return -1;
}

static int one(const char *const *outs, size_t n, const char *what, const char *label,
               const char *unit, const char *stat, const char *stat_unit, struct bb_stats *out,
               char *err, size_t errlen)
{
	double v;
	if (n != 1) {
		snprintf(err, errlen, "%s: %zu clients, expected one", what, n);
		return -EINVAL;
	}
	if (find_value(outs[0], label, unit, &v)) {
		const char *s = outs[0] + strspn(outs[0], "\n");
		snprintf(err, errlen, "%s: no \"%s\" line in its output (it said: %.*s)", what,
		         label ? label : unit,
		         (int)(strcspn(s, "\n") < 120 ? strcspn(s, "\n") : 120), s);
		return -EINVAL;
	}
	return bb_stats_add(out, stat, v, stat_unit);
}

int parse_perf_bench_sched_pipe(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                                size_t errlen)
{
	return one(outs, n, "perf bench sched pipe", NULL, " ops/sec",
	           "perf-bench-sched-pipe.ops_per_sec", "ops/s", out, err, errlen);
}

int parse_perf_bench_sched_messaging(const char *const *outs, size_t n, struct bb_stats *out,
                                     char *err, size_t errlen)
{
	return one(outs, n, "perf bench sched messaging", "Total time:", NULL,
	           "perf-bench-sched-messaging.total_time_sec", "s", out, err, errlen);
}

int parse_perf_bench_futex(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                           size_t errlen)
{
	/* LKP's regexes: the line's start, the value, the stddev after "+-" */
	static const struct {
		const char *start, *before, *stat, *unit;
		int anchored;
	} forms[] = {
	    {"Averaged ", NULL, "perf-bench-futex.ops/s", "ops/s", 0},
	    {"Wokeup ", " in ", "perf-bench-futex.wokeup_time_ms", "ms", 1},
	    {"Requeued ", " in ", "perf-bench-futex.requeued_time_ms", "ms", 1},
	    {"Avg per-thread latency (waking ", " in ",
	     "perf-bench-futex.avg_per_thread_latency_ms", "ms", 1},
	};
	if (n != 1) {
		snprintf(err, errlen, "perf bench futex: %zu clients, expected one", n);
		return -EINVAL;
	}
	for (const char *l = outs[0]; l && *l; l += strcspn(l, "\n"), l += *l == '\n') {
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)strcspn(l, "\n"), l);
		for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
			const char *at = strstr(line, forms[i].start), *pm;
			double v, sd;
			if (!at || (forms[i].anchored && at != line))
				continue;
			at += strlen(forms[i].start);
			if (forms[i].before && !(at = strstr(at, forms[i].before)))
				continue;
			at += forms[i].before ? strlen(forms[i].before) : 0;
			if (sscanf(at, "%lf", &v) != 1 || !(pm = strstr(at, "(+-")) ||
			    sscanf(pm + 3, " %lf%%", &sd) != 1)
				continue;
			int rc = bb_stats_add(out, forms[i].stat, v, forms[i].unit);
			return rc ? rc : bb_stats_add(out, "perf-bench-futex.stddev%", sd, "%");
		}
	}
	const char *s = outs[0] ? outs[0] + strspn(outs[0], "\n") : "";
	snprintf(err, errlen,
	         "perf bench futex: no \"Averaged\", \"Wokeup\", \"Requeued\" or \"Avg "
	         "per-thread latency\" line in its output (it said: %.*s)",
	         (int)(strcspn(s, "\n") < 120 ? strcspn(s, "\n") : 120), s);
	return -EINVAL;
}
