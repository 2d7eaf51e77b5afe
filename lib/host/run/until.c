/* run --until: is the interval narrow enough yet? See until.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/compare/primary.h"
#include "host/run/until.h"

/* "netperf.Throughput_Mbps +1.2% [-0.8%, +3.1%] (2 boots vmlinuz, 2 boots other)" */
static void describe(const struct bb_primary *p, char *out, size_t len)
{
	const struct bb_interval *iv = &p->iv;
	int n = snprintf(out, len, "%s %+.2f%%", p->stat, p->change);
	if (iv->basis == BB_IV_BOOTS && iv->bounded)
		n += snprintf(out + n, len - n, " [%+.2f%%, %+.2f%%]", iv->lo, iv->hi);
	else if (iv->basis == BB_IV_BOOTS)
		n += snprintf(out + n, len - n, " [unbounded]");
	else
		n += snprintf(out + n, len - n, " [no interval yet: 2 boots a side needed]");
	snprintf(out + n, len - n, " (%zu boot%s %s, %zu boot%s %s)", p->boots_a,
	         p->boots_a == 1 ? "" : "s", p->value_a, p->boots_b, p->boots_b == 1 ? "" : "s",
	         p->value_b);
}

double bb_until_confidence(size_t max_boots)
{
	size_t looks = max_boots > 4 ? max_boots - 3 : 1;
	return 1 - 0.05 / (double)looks;
}

int bb_until_check(const struct bb_until *u, const char *dir, char *why, size_t whylen, char *err,
                   size_t errlen)
{
	struct bb_primary_query q = {.key = u->key,
	                             .value_a = u->a,
	                             .value_b = u->b,
	                             .stat = u->stat,
	                             .confidence = u->confidence};
	struct bb_primary *p;
	size_t n, settled = 0;
	char line[1024];
	int rc = bb_primary_changes(dir, &q, &p, &n, err, errlen);
	if (rc == -ENODATA) {
		snprintf(why, whylen, "%s", err);
		if (u->say) {
			snprintf(line, sizeof(line), "until %g%%: %s", u->target, err);
			u->say(u->ctx, line);
		}
		return 0;
	}
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		enum bb_settled s = bb_primary_settled(&p[i], u->target);
		char d[512];
		describe(&p[i], d, sizeof(d));
		settled += s != BB_UNSETTLED;
		if (u->say) {
			snprintf(line, sizeof(line), "until %g%%: %s%s%s: %s", u->target, p[i].run,
			         *p[i].run ? " " : "", d,
			         s == BB_SETTLED_NARROW    ? "narrower than the target"
			         : s == BB_SETTLED_CHANGED ? "excludes 0 by more than the target"
			                                   : "not settled");
			u->say(u->ctx, line);
		}
		/* the summary names the last entry (or the one still open) */
		if (s == BB_UNSETTLED || settled == n)
			snprintf(why, whylen, "%s: %s", d,
			         s == BB_SETTLED_NARROW
			             ? "the interval is within the target of its estimate"
			         : s == BB_SETTLED_CHANGED
			             ? "the interval excludes 0 by more than the target"
			             : "not settled");
	}
	bb_primary_free(p, n);
	return settled == n;
}
