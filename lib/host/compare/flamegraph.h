/*
 * A differential flame graph of two sides' perf-profile call stacks (docs/compare.md
 * "Flame graph"): the folded stacks of every iteration (ITER/monitor.perf-profile.folded, or
 * .folded.gz as collect compresses it; docs/results.md) merged into one tree per side, drawn
 * as SVG with B's shape (a frame's width: its share of B's samples) and the change from A in
 * colour (the frame's share of B's samples minus its share of A's: red more, blue less, white
 * the same). Each frame has a <title> (name, samples in A and B, change) and its name as text;
 * a small script in the SVG searches frames in a browser. Host only.
 */
#ifndef BENCHBOOT_HOST_COMPARE_FLAMEGRAPH_H
#define BENCHBOOT_HOST_COMPARE_FLAMEGRAPH_H

#include <stddef.h>
#include <stdio.h>

#include "host/compare/match.h"

struct bb_flame_node {
	char *name;
	double count[2]; /* samples of A and B in this frame and below */
	struct bb_flame_node *child;
	size_t nchild, cap;
};

struct bb_flame {
	struct bb_flame_node root; /* "all" */
	char *event[2];            /* the event each side sampled ("# event:"), or NULL */
	char *event_file[2];       /* the file it was first read from */
	size_t files[2];           /* folded files read per side */
};

/*
 * Add one folded file (plain, or gzip when it ends in .gz) to side (0: A, 1: B). 0; -ENOENT
 * (no such file), -EINVAL (a malformed line, named PATH:LINE; a file whose `# event:` differs
 * from the side's other files), -ENOMEM, -EIO; with a message in err.
 */
int bb_flame_add_file(struct bb_flame *fg, int side, const char *path, char *err, size_t errlen);
/* Both sides have samples of the same event: 0, or -EINVAL with the reason in err. */
int bb_flame_check(const struct bb_flame *fg, char *err, size_t errlen);
void bb_flame_free(struct bb_flame *fg);

/*
 * The flame graph of every run of a and b (every iteration that is not a warm-up, with a
 * folded file) written to path. 0; -EINVAL when a side has no call stacks or the sides sampled
 * different events (err says which files), errors of bb_flame_add_file, -EIO when path cannot
 * be written.
 */
int bb_flamegraph_sides(const struct bb_side *a, const struct bb_side *b, const char *path,
                        char *err, size_t errlen);

/*
 * The same flame graph as a picture to put in a page (benchboot report, compare --html): no XML
 * declaration, no script. 0; -ENODATA when a side has no call stacks (nothing said: a page
 * without profiles has no flame graph); otherwise as bb_flamegraph_sides.
 */
int bb_flamegraph_embed(FILE *f, const struct bb_side *a, const struct bb_side *b, char *err,
                        size_t errlen);

#endif
