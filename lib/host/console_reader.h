/*
 * Reading the console of a benchboot boot on the host: the init's protocol lines
 * (lib/console_proto.h, docs/console.md) as events, and the kernel's own lines told apart from
 * firmware and from its watchdog reports. What the VM watch (lib/host/vm/qemu.c), run's
 * progress (lib/host/run/progress.c) and a LAVA job log's reader (lib/host/lab/lava_log.c)
 * share. Host only.
 */
#ifndef BENCHBOOT_HOST_CONSOLE_READER_H
#define BENCHBOOT_HOST_CONSOLE_READER_H

#include <stddef.h>

/*
 * 1 when line is the header of a kernel watchdog report: a soft lockup, an RCU stall, a task
 * blocked for more than hung_task_timeout_secs. Such a report does not stop the VM: the kernel
 * goes on after it, and in a VM a vCPU the host did not run for long enough (TCG on a busy
 * host) makes one as well as a kernel bug does. The boot's result keeps the first and the
 * count; from the report on, only user space's output counts against the silence limit, so a
 * machine that stays hung, whose kernel repeats its reports, still ends as BB_BOOT_HANG.
 */
int bb_console_stall(const char *line);

/* 1 when the kernel (or the init it started) printed line: a kernel log timestamp
 * "[    0.000000] ", "Linux version ", or a BENCHBOOT line; 0 for firmware and other text. */
int bb_console_is_kernel(const char *line);

/* 1 when line carries the kernel log's timestamp "[    1.234567]" (the kernel printed it, not
 * user space). */
int bb_console_is_kernel_log(const char *line);

/* The init's progress lines on the console (BENCHBOOT boot-start, run-start, run-end,
 * boot-end, and "benchboot: RUNID iteration I: STAT = VALUE UNIT"). */
enum bb_event_kind {
	BB_EV_NONE,
	BB_EV_BOOT_START,
	BB_EV_RUN_START,
	BB_EV_RUN_END,
	BB_EV_RESULT,
	BB_EV_BOOT_END,
	BB_EV_INIT_CRASH, /* signal (0: exit, with status), step, id (run) and iter */
};

struct bb_console_event {
	enum bb_event_kind kind;
	char id[256];    /* boot id (boot-start/-end) or run id */
	int iter, niter; /* run-start: iter=I/N; run-end: iter=I; boot-start: niter=iterations */
	int warmup;      /* run-start, run-end: K for the boot's K-th warm-up iteration, else 0 */
	int monitored;   /* run-start, run-end: K for the run's K-th monitored iteration, else 0 */
	int runs, ok, failed;
	int signal, exit_status; /* init-crash */
	char step[64];           /* init-crash */
	double runtime, elapsed, value;
	char status[32], stat[160], unit[32], reason[256];
};

/* 1 and ev filled when line is one of those, else 0. */
int bb_console_event(const char *line, struct bb_console_event *ev);

/* What to tell the user about a BB_EV_INIT_CRASH event: "benchboot's init crashed (signal
 * 11, Segmentation fault, step run-2, run ID iteration 1); ...". */
void bb_init_crash_text(const struct bb_console_event *ev, char *buf, size_t len);

#endif
