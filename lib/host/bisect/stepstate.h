/*
 * DIR/state.json of `benchboot bisect-step`: what `--init` found and every later step needs
 * when git drives the bisection (`git bisect run benchboot bisect-step --state DIR ...`): the
 * job and its overrides, the good reference, the change D between the ends with its interval,
 * the stat, the decision options and the comparisons made so far (the error bound spent).
 * Paths are absolute (git bisect run runs in the tree's top folder). Host only.
 */
#ifndef BENCHBOOT_HOST_BISECT_STEPSTATE_H
#define BENCHBOOT_HOST_BISECT_STEPSTATE_H

#include <stddef.h>

#include "strv.h"

struct bb_step_state {
	char job[4096];
	struct bb_strv sets;
	char good_name[128], good_vmlinuz[4096], good_modules[4096], good_append[1024];
	char bad_name[128];
	char stat[256], images[4096], accel[8];
	char config[4096];     /* --tree: the base configuration of every build ("": defconfig) */
	double change, lo, hi; /* D and its interval (the ends), % */
	double alpha, min_change; /* as given (0: the defaults) */
	int max_boots, first_look, cpus, mem_mb;
	int parallel; /* 2: pairs side by side */
	size_t ncand; /* the candidates the error budget is planned for */
	size_t done;  /* comparisons made: the ends and the steps */
};

/* DIR/state.json: 0 or -errno with err. */
int bb_step_state_write(const char *dir, const struct bb_step_state *s, char *err, size_t errlen);
/* Read it: 0; -ENOENT when DIR has none ("run --init first"); -EINVAL malformed. Free with
 * bb_step_state_free. */
int bb_step_state_read(const char *dir, struct bb_step_state *s, char *err, size_t errlen);
void bb_step_state_free(struct bb_step_state *s);

#endif
