/* The words of a bisection's result; see report.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "host/bisect/report.h"

/* "-48.20% [-52.10%, -44.00%]", or the change and why there is no interval yet. */
static void bb_bisect_iv_text(const struct bb_interval *iv, char *out, size_t len)
{
	if (iv->basis != BB_IV_BOOTS)
		snprintf(out, len, "%+.2f%% [no interval: 2 boots a side needed]", iv->change);
	else if (!iv->bounded)
		snprintf(out, len, "%+.2f%% [unbounded]", iv->change);
	else
		snprintf(out, len, "%+.2f%% [%+.2f%%, %+.2f%%]", iv->change, iv->lo, iv->hi);
}

/* "left: k0 .. k2, 1 candidate between" */
static void left_text(const struct bb_bisect_step *s, const char *const *names, char *out,
                      size_t len)
{
	size_t between = s->hi - s->lo - 1;
	snprintf(out, len, "left: %s .. %s, %zu candidate%s between", names[s->lo], names[s->hi],
	         between, between == 1 ? "" : "s");
}

void bb_bisect_step_text(const struct bb_bisect_step *s, size_t no, double change,
                         const char *const *names, char *out, size_t len)
{
	char iv[128], left[512], rule[64] = "";
	bb_bisect_iv_text(&s->iv, iv, sizeof(iv));
	left_text(s, names, left, sizeof(left));
	if (s->rule == BB_RULE_STEP)
		snprintf(rule, sizeof(rule), " (D/2 = %+.2f%%)", change / 2);
	else if (s->rule == BB_RULE_VERIFY)
		snprintf(rule, sizeof(rule), " (3/4 D = %+.2f%%)", 0.75 * change);
	const char *what = s->rule == BB_RULE_ENDS     ? "ends: bad"
	                   : s->rule == BB_RULE_VERIFY ? "verify: culprit"
	                                               : "candidate";
	const char *against = s->rule == BB_RULE_VERIFY ? "its parent" : "good";
	snprintf(out, len, "step %zu: %s %s against %s %s, %zu + %zu boots: %s: %s%s; %s", no, what,
	         names[s->cand], against, names[s->ref], s->boots_ref, s->boots_cand, iv,
	         bb_bisect_verdict_name(s->verdict), rule, left);
}

struct text {
	char *p;
	size_t len, off;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	if (t->off >= t->len)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(t->p + t->off, t->len - t->off, fmt, ap);
	va_end(ap);
	t->off += n > 0 ? (size_t)n : 0;
}

/* Why the bisection stopped short of a culprit. */
static const char *why_range(const struct bb_bisect_result *res)
{
	if (res->outcome == BB_B_RANGE)
		return "the candidates between could not be tested (their boots or builds failed "
		       "twice)";
	return "the last step was still unclear at --max-boots boots a side: more boots "
	       "(--max-boots, then --resume) can decide it";
}

void bb_bisect_result_text(const struct bb_bisect_result *res, const char *const *names,
                           size_t ncand, const char *stat, double alpha, double wall_s,
                           size_t replayed, char *out, size_t len)
{
	struct text t = {out, len, 0};
	char iv[128];
	*out = 0;
	bb_bisect_iv_text(&res->ends, iv, sizeof(iv));
	switch (res->outcome) {
	case BB_B_NO_CHANGE:
		add(&t,
		    "result: no reproducible change between %s and %s: %s of %s (the interval "
		    "does not exclude 0 by more than --min-change)\n",
		    names[0], names[ncand - 1], iv, stat);
		break;
	case BB_B_ENDS_UNTESTABLE:
		add(&t, "result: none: the bad end %s cannot be tested (its boots failed twice)\n",
		    names[ncand - 1]);
		break;
	case BB_B_CULPRIT:
		add(&t, "culprit: %s\nparent:  %s\n", names[res->hi], names[res->lo]);
		break;
	case BB_B_RANGE:
	case BB_B_UNDECIDED:
		add(&t,
		    "result: the change is after %s and at or before %s (%zu candidate%s "
		    "between, untested or undecided): %s\n",
		    names[res->lo], names[res->hi], res->hi - res->lo - 1,
		    res->hi - res->lo - 1 == 1 ? "" : "s", why_range(res));
		break;
	}
	if (res->outcome != BB_B_NO_CHANGE && res->outcome != BB_B_ENDS_UNTESTABLE)
		add(&t, "change D: %s to %s: %s of %s\n", names[0], names[ncand - 1], iv, stat);
	if (res->outcome == BB_B_CULPRIT) {
		bb_bisect_iv_text(&res->verify_iv, iv, sizeof(iv));
		add(&t, "verification: %s against %s: %s: %s", names[res->hi], names[res->lo], iv,
		    bb_bisect_verdict_name(res->verify));
		if (isfinite(res->share))
			add(&t, ", %.0f%% of D [%.0f%%, %.0f%%]", res->share, res->share_lo,
			    res->share_hi);
		add(&t, "\n");
	}
	if (res->part_seen && res->verify != BB_V_PARTIAL)
		add(&t, "note: a candidate held part of the change: more than one change\n");
	add(&t,
	    "error bound: %.4g spent of alpha %.4g (each look's interval at %.3f%% confidence)\n",
	    res->bound, alpha, 100 * (1 - res->alpha_look));
	add(&t, "boots: %zu (%zu failed, %zu replayed from the log), wall time %.0f s\n",
	    res->boots, res->failed_boots, replayed, wall_s);
}
