/*
 * Booting an image under QEMU and watching its serial console: KVM when it really runs Linux
 * (a probe boots the kernel under KVM and waits for its first console lines), TCG otherwise;
 * the console is
 * copied to a log file and handed line by line to the caller; a deadline per boot, kernel
 * panics, oopses and silent hangs stop the VM; so does an interrupt (Ctrl-C). The VM is
 * always stopped before bb_qemu_boot returns (SIGTERM, then SIGKILL), and dies with the
 * calling process (PR_SET_PDEATHSIG). Host only.
 */
#ifndef BENCHBOOT_HOST_QEMU_H
#define BENCHBOOT_HOST_QEMU_H

#include <signal.h>
#include <stddef.h>

#include "cpulist.h"

enum bb_accel { BB_ACCEL_AUTO, BB_ACCEL_KVM, BB_ACCEL_TCG };

/*
 * The KVM device the probe checks; the environment variable BENCHBOOT_KVM_DEVICE names
 * another path (tests use it to reach a fake QEMU on machines without /dev/kvm, or to turn
 * KVM off: a path that does not exist).
 */
#define BB_KVM_DEVICE "/dev/kvm"
#define BB_KVM_DEVICE_ENV "BENCHBOOT_KVM_DEVICE"
#define BB_KVM_PROBE_S 5.0 /* the probe waits this long for the kernel's first line */
/* A boot under KVM whose kernel prints nothing this long is stopped (BB_BOOT_NO_KERNEL). */
#define BB_KVM_KERNEL_WAIT_S 10.0
#define BB_QEMU_DEFAULT_CPUS 2 /* a VM's vCPUs when none are asked for */

/*
 * Does KVM run Linux here? Firmware running is not proof: some machines (nested
 * virtualisation) run SeaBIOS under KVM, then the kernel prints nothing. So the probe boots
 * `kernel` (no initramfs, console=ttyS0) under `qemu -accel kvm` and waits up to timeout_s
 * for the kernel's own first console line. 1: it came (why quotes it); 0: it did not, why
 * says what happened instead (no KVM device, QEMU's error, firmware ran but the kernel
 * printed nothing, nothing ran at all). The one probe of benchboot: run and bb_qemu_boot
 * (BB_ACCEL_AUTO) both use it.
 */
int bb_kvm_probe(const char *qemu, const char *kernel, double timeout_s, char *why, size_t whylen);

enum bb_boot_outcome {
	BB_BOOT_POWEROFF,    /* QEMU exited by itself (the guest powered off) */
	BB_BOOT_PANIC,       /* "Kernel panic" on the console */
	BB_BOOT_OOPS,        /* an oops or BUG on the console */
	BB_BOOT_HANG,        /* no console output (or, since a stall report, no output from user
	                      * space) for longer than allowed */
	BB_BOOT_DEADLINE,    /* the boot took longer than its deadline */
	BB_BOOT_INTERRUPTED, /* *interrupt became nonzero (Ctrl-C) */
	BB_BOOT_QEMU_FAILED, /* QEMU failed (bad option, missing file) or was killed */
	BB_BOOT_NO_KERNEL,   /* no kernel console line within kernel_wait_s */
	BB_BOOT_STOPPED,     /* on_line asked to stop the VM */
	BB_BOOT_INIT_CRASH,  /* benchboot's init crashed (`BENCHBOOT init-crash`): not the kernel */
};

const char *bb_boot_outcome_name(enum bb_boot_outcome o);

struct bb_qemu_opts {
	const char *qemu;    /* NULL: qemu-system-x86_64 */
	enum bb_accel accel; /* AUTO: probe KVM once (bb_kvm_probe with kernel), else TCG */
	const char *kernel, *initrd, *append;
	const char *disk; /* raw disk image on virtio-blk, or NULL */
	/* QEMU blkdebug rules (a file) the disk is attached through, to inject I/O errors, or
	 * NULL */
	const char *disk_blkdebug;
	int cpus, mem_mb;        /* 0: BB_QEMU_DEFAULT_CPUS, 1024 MB */
	const char *console_log; /* the console is copied (appended) there, or NULL */
	double deadline_s;       /* wall seconds for the whole boot (0: none) */
	double silence_s;        /* console silence that counts as a hang (0: none) */
	/* no kernel console line (bb_console_is_kernel) this long from the start: the VM is
	 * stopped, outcome BB_BOOT_NO_KERNEL (0: no such limit) */
	double kernel_wait_s;
	/*
	 * Called for each console line (without the line end). Returns the console silence
	 * allowed from now on, in seconds (e.g. the runtime of the run that just started plus
	 * its grace, until the caller returns another limit), 0 to keep the current limit
	 * (silence_s at first), or < 0 to stop the VM now (outcome BB_BOOT_STOPPED).
	 */
	double (*on_line)(void *ctx, const char *line);
	void (*on_tick)(void *ctx);           /* called about 4 times a second (progress display) */
	void (*on_start)(void *ctx, int pid); /* QEMU started as process pid, or NULL */
	void *ctx;
	volatile sig_atomic_t *interrupt; /* nonzero: stop the VM (set by a SIGINT handler) */
	const char *const *extra_args;    /* more QEMU arguments, NULL-terminated, or NULL */
	/* host CPUs QEMU is pinned to (set in the child before exec, so every thread of QEMU's,
	 * vCPUs included, inherits it), or NULL: not pinned */
	const struct bb_cpuset *affinity;
};

struct bb_qemu_result {
	enum bb_boot_outcome outcome;
	enum bb_accel accel_used;
	double wall_s;
	int exit_status;      /* QEMU's wait status */
	char detail[512];     /* the console line that showed the problem, or QEMU's error */
	char accel_note[256]; /* why KVM was not used, when it was not */
	/* the kernel's lockup and stall reports (bb_console_stall): how many, and the first */
	int stalls;
	char stall[512];
};

/*
 * Boot once. 0 with the outcome in res (a panic is an outcome, not an error); -errno when
 * QEMU could not be started or the log not written (message in res->detail).
 */
int bb_qemu_boot(const struct bb_qemu_opts *o, struct bb_qemu_result *res);

/* What a console line shows: BB_BOOT_PANIC, BB_BOOT_OOPS, BB_BOOT_INIT_CRASH (PID 1 reports
 * that benchboot's runner died) or BB_BOOT_POWEROFF when it ends nothing. */
enum bb_boot_outcome bb_console_classify(const char *line);

#endif
