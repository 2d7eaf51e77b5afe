/*
 * Kernel command lines as benchboot writes them: the user's words (the kernels file's, the
 * job's) and benchboot's own per-boot words, which say where a boot stood, not what it ran:
 * its turn of the run order (benchboot.order.rotate=, a new one every round: docs/plan.md
 * "Run order") and its boot group (benchboot.boot.group=).
 *
 *     char *k = bb_cmdline_without(cmdline, BB_CMDLINE_PER_BOOT);  // malloc'd; NULL: ENOMEM
 *
 * Host only.
 */
#ifndef BENCHBOOT_HOST_CMDLINE_H
#define BENCHBOOT_HOST_CMDLINE_H

/* benchboot's per-boot words, as prefixes, NULL-terminated */
extern const char *const BB_CMDLINE_PER_BOOT[];
/* only the turn of the run order */
extern const char *const BB_CMDLINE_TURN[];

/* cmdline without the words that begin with one of the prefixes (NULL-terminated), the others
 * in order, one space between them: malloc'd, or NULL (out of memory). */
char *bb_cmdline_without(const char *cmdline, const char *const *prefixes);

#endif
