/*
 * The kernel's reports on a console, named as LKP names them (lib/dmesg.rb, its dmesg parser):
 * the stat `dmesg.<error id>` of a report's header line, e.g.
 * `dmesg.INFO:rcu_preempt_detected_stalls_on_CPUs/tasks`,
 * `dmesg.BUG:soft_lockup-CPU##stuck_for#s![swapper:#]`,
 * `dmesg.Kernel_panic-not_syncing:sysrq_triggered_crash`. LKP makes each a failure stat, 1 for
 * a job (here: a boot) whose console shows it, and its compare shows how many runs of each side
 * had it (fail:runs). Which lines are reports: the headers of oopses, BUGs, WARNINGs, panics,
 * lockups, RCU stalls, hung tasks, UBSAN and KASAN (a subset of LKP's etc/oops-pattern: not its
 * RIP:/EIP: lines, call traces, lockdep's, OOM's or the rarer ones); docs/compare.md lists
 * them. The id is made by LKP's steps (preprocess_line, handle_known_patterns,
 * generate_error_id, common_error_id) except the renaming of device names from LKP's
 * etc/linux-device-names. Host only.
 */
#ifndef BENCHBOOT_HOST_RESULTS_DMESG_H
#define BENCHBOOT_HOST_RESULTS_DMESG_H

#include <stddef.h>

#include "strv.h"

/* 1 with "dmesg.<id>" in out when line (a console line, with its timestamp) is the header of a
 * kernel report; 0 when it is not one (or its id is too short, as LKP drops). */
int bb_dmesg_stat(const char *line, char *out, size_t outlen);

/* Every report in a console log file, each stat once with its first line. 0, or -errno when
 * the file cannot be read. */
int bb_dmesg_scan_file(const char *path, struct bb_kvs *stats);

#endif
