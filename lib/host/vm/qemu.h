/*
 * Booting an image under QEMU and watching its serial console: KVM when it really works (a
 * probe boots the firmware and checks that guest code ran), TCG otherwise; the console is
 * copied to a log file and handed line by line to the caller; a deadline per boot, kernel
 * panics, oopses and silent hangs stop the VM; so does an interrupt (Ctrl-C). The VM is
 * always stopped before bb_qemu_boot returns (SIGTERM, then SIGKILL), and dies with the
 * calling process (PR_SET_PDEATHSIG). Host only.
 */
#ifndef BENCHBOOT_HOST_QEMU_H
#define BENCHBOOT_HOST_QEMU_H

#include <signal.h>
#include <stddef.h>

enum bb_accel { BB_ACCEL_AUTO, BB_ACCEL_KVM, BB_ACCEL_TCG };

/*
 * Does KVM really run guest code? Starts `qemu -accel kvm` with no disk for up to timeout_s
 * and waits for the firmware's first words on the debug console. 1: it does; 0: it does not
 * (why says what happened: no /dev/kvm, QEMU's error, or no guest output in time).
 */
int bb_kvm_probe(const char *qemu, double timeout_s, char *why, size_t whylen);

enum bb_boot_outcome {
	BB_BOOT_POWEROFF,    /* QEMU exited by itself (the guest powered off) */
	BB_BOOT_PANIC,       /* "Kernel panic" on the console */
	BB_BOOT_OOPS,        /* an oops, BUG or lockup on the console */
	BB_BOOT_HANG,        /* no console output for longer than allowed */
	BB_BOOT_DEADLINE,    /* the boot took longer than its deadline */
	BB_BOOT_INTERRUPTED, /* *interrupt became nonzero (Ctrl-C) */
	BB_BOOT_QEMU_FAILED, /* QEMU failed (bad option, missing file) or was killed */
};

const char *bb_boot_outcome_name(enum bb_boot_outcome o);

struct bb_qemu_opts {
	const char *qemu;    /* NULL: qemu-system-x86_64 */
	enum bb_accel accel; /* AUTO: probe KVM once, else TCG */
	const char *kernel, *initrd, *append;
	const char *disk;        /* raw disk image on virtio-blk, or NULL */
	int cpus, mem_mb;        /* 0: 2 CPUs, 1024 MB */
	const char *console_log; /* the console is copied (appended) there, or NULL */
	double deadline_s;       /* wall seconds for the whole boot (0: none) */
	double silence_s;        /* console silence that counts as a hang (0: none) */
	/*
	 * Called for each console line (without the line end). Returns the console silence
	 * allowed from now on, in seconds (e.g. the runtime of the run that just started plus
	 * its grace), or 0 to keep silence_s.
	 */
	double (*on_line)(void *ctx, const char *line);
	void (*on_tick)(void *ctx); /* called about 4 times a second (progress display) */
	void *ctx;
	volatile sig_atomic_t *interrupt; /* nonzero: stop the VM (set by a SIGINT handler) */
	const char *const *extra_args;    /* more QEMU arguments, NULL-terminated, or NULL */
};

struct bb_qemu_result {
	enum bb_boot_outcome outcome;
	enum bb_accel accel_used;
	double wall_s;
	int exit_status;      /* QEMU's wait status */
	char detail[512];     /* the console line that showed the problem, or QEMU's error */
	char accel_note[256]; /* why KVM was not used, when it was not */
};

/*
 * Boot once. 0 with the outcome in res (a panic is an outcome, not an error); -errno when
 * QEMU could not be started or the log not written (message in res->detail).
 */
int bb_qemu_boot(const struct bb_qemu_opts *o, struct bb_qemu_result *res);

/* What a console line shows: BB_BOOT_PANIC, BB_BOOT_OOPS, BB_BOOT_HANG (hung task reports)
 * or BB_BOOT_POWEROFF when it is nothing alarming. */
enum bb_boot_outcome bb_console_classify(const char *line);

/* The init's progress lines on the console (BENCHBOOT boot-start, run-start, run-end,
 * boot-end, and "benchboot: RUNID iteration I: STAT = VALUE UNIT"). */
enum bb_event_kind {
	BB_EV_NONE,
	BB_EV_BOOT_START,
	BB_EV_RUN_START,
	BB_EV_RUN_END,
	BB_EV_RESULT,
	BB_EV_BOOT_END,
};

struct bb_console_event {
	enum bb_event_kind kind;
	char id[256];    /* boot id (boot-start/-end) or run id */
	int iter, niter; /* run-start: iter=I/N; run-end: iter=I; boot-start: niter=iterations */
	int runs, ok, failed;
	double runtime, elapsed, value;
	char status[32], stat[160], unit[32], reason[256];
};

/* 1 and ev filled when line is one of those, else 0. */
int bb_console_event(const char *line, struct bb_console_event *ev);

#endif
