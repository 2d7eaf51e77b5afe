/* The options bisect and bisect-step share; see bisect_opts.h. */
#include "bisect_opts.h"
#include "verb.h"

int bisect_option(const char *verb, struct bisect_opts *o, int opt, const char *v)
{
	double x = 0;
	int rc = 0;
	o->given = 1;
	switch (opt) {
	case BISECT_OPT_STAT:
		o->stat = v;
		return 0;
	case BISECT_OPT_MIN_CHANGE:
		return verb_number(verb, "--min-change", v, 1e-3, 1000, "a percentage > 0, e.g. 2%",
		                   "%", &o->d.min_change);
	case BISECT_OPT_MAX_BOOTS:
		rc = verb_number(verb, "--max-boots", v, 2, 1000, "2 to 1000", NULL, &x);
		o->d.max_boots = (int)x;
		return rc;
	case BISECT_OPT_FIRST_LOOK:
		rc = verb_number(verb, "--first-look", v, 2, 1000, "2 to 1000", NULL, &x);
		o->d.first_look = (int)x;
		return rc;
	case BISECT_OPT_ALPHA:
		return verb_number(verb, "--alpha", v, 1e-6, 0.5, "0 < A <= 0.5, e.g. 0.05", NULL,
		                   &o->d.alpha);
	case BISECT_OPT_ACCEL:
		return verb_accel(verb, v, &o->accel);
	case BISECT_OPT_IMAGES:
		o->images = v;
		return 0;
	case BISECT_OPT_SET:
		return verb_add_set(verb, &o->sets, v);
	case BISECT_OPT_CPUS:
		rc = verb_number(verb, "--cpus", v, 1, 256, "1 to 256", NULL, &x);
		o->cpus = (int)x;
		return rc;
	case BISECT_OPT_PARALLEL:
		rc = verb_number(verb, "--parallel", v, 1, 2,
		                 "1 (one VM at a time) or 2 (the two sides of a comparison side by "
		                 "side)",
		                 NULL, &x);
		o->parallel = (int)x;
		return rc;
	case BISECT_OPT_MEM:
		rc = verb_number(verb, "--mem", v, 128, 1 << 20, "at least 128 (MB)", NULL, &x);
		o->mem_mb = (int)x;
		return rc;
	}
	return verb_usage_error(verb, "option %d unknown", opt);
}

int bisect_options_check(const char *verb, const struct bisect_opts *o)
{
	if (o->d.first_look && o->d.max_boots && o->d.first_look > o->d.max_boots)
		return verb_usage_error(verb, "--first-look %d is more than --max-boots %d",
		                        o->d.first_look, o->d.max_boots);
	return 0;
}
