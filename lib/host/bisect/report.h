/*
 * The words of a bisection's result, shared by `benchboot bisect` and `bisect-step`: an
 * interval, a step's line, the final block. Text into buffers; the verbs print it.
 */
#ifndef BENCHBOOT_HOST_BISECT_REPORT_H
#define BENCHBOOT_HOST_BISECT_REPORT_H

#include <stddef.h>

#include "host/bisect/decide.h"

/*
 * The line of step no (from 1) of a bisection over names (candidate i is names[i]; D =
 * change, %), e.g.
 *   step 2: k2 against good k0, 3 + 3 boots: -47.10% [-51.00%, -43.20%]: new (D/2 = -24.05%);
 *   left: k0 .. k2, 1 candidate between
 */
void bb_bisect_step_text(const struct bb_bisect_step *s, size_t no, double change,
                         const char *const *names, char *out, size_t len);

/* The final block (lines ending in '\n') of res over names, the stat followed, boots and wall
 * time used. */
void bb_bisect_result_text(const struct bb_bisect_result *res, const char *const *names,
                           size_t ncand, const char *stat, double alpha, double wall_s,
                           size_t replayed, char *out, size_t len);

#endif
