/* What benchboot run reads on a serial console: kernel panics, oopses, hangs, and the init's
 * progress lines (lines as the Debian 6.1 kernel and the init print them). */
#include "harness.h"
#include "host/console_reader.h"
#include "host/vm/qemu.h"

TEST(classify_kernel_lines)
{
	CHECK_INT(bb_console_classify("[    6.332707] Kernel panic - not syncing: sysrq triggered "
	                              "crash"),
	          ==, BB_BOOT_PANIC);
	CHECK_INT(bb_console_classify("[    2.104000] Kernel panic - not syncing: VFS: Unable to "
	                              "mount root fs on unknown-block(0,0)"),
	          ==, BB_BOOT_PANIC);
	CHECK_INT(
	    bb_console_classify("[   12.000000] BUG: kernel NULL pointer dereference, address: "
	                        "0000000000000008"),
	    ==, BB_BOOT_OOPS);
	CHECK_INT(bb_console_classify("[   12.000100] Oops: 0002 [#1] PREEMPT SMP NOPTI"), ==,
	          BB_BOOT_OOPS);
	CHECK_INT(bb_console_classify("[    0.000000] Linux version 6.1.0-57-amd64"), ==,
	          BB_BOOT_POWEROFF);
	CHECK_INT(bb_console_classify("benchboot: run 1/2 SCTP_STREAM_MANY iteration 1/1: ok"), ==,
	          BB_BOOT_POWEROFF);
	CHECK_STR(bb_boot_outcome_name(BB_BOOT_HANG), "hang");
	CHECK_STR(bb_boot_outcome_name(BB_BOOT_QEMU_FAILED), "qemu-failed");
	CHECK_STR(bb_boot_outcome_name(BB_BOOT_NO_KERNEL), "no-kernel-output");
}

/* The kernel's watchdog reports: they stop nothing by themselves (the kernel goes on after
 * them, and a vCPU the host did not run makes them too), and none of them is a panic or an
 * oops. */
TEST(stall_reports)
{
	static const char *const stalls[] = {
	    "[   24.905984] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
	    "[   24.9] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:",
	    "[   31.2] rcu: INFO: rcu_preempt self-detected stall on CPU",
	    "[   40.1] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [netperf:312]",
	    "[  242.9] INFO: task netserver:301 blocked for more than 120 seconds.",
	};
	for (size_t i = 0; i < sizeof(stalls) / sizeof(*stalls); i++) {
		CHECK_INT(bb_console_stall(stalls[i]), ==, 1);
		CHECK_INT(bb_console_classify(stalls[i]), ==, BB_BOOT_POWEROFF);
	}
	CHECK_INT(bb_console_stall("[   24.9] rcu: \t1-...!: (0 ticks this GP) idle=f4c/0/0x0"), ==,
	          0);
	CHECK_INT(bb_console_stall("[    6.3] Kernel panic - not syncing: sysrq triggered crash"),
	          ==, 0);
	CHECK_INT(bb_console_stall("benchboot: run 1/2 TCP_STREAM iteration 1/1: ok"), ==, 0);
}

/* What counts as the kernel running (the KVM probe, and a KVM boot's first lines): the
 * kernel's own lines and the init's, not the firmware's. */
TEST(kernel_lines)
{
	CHECK_INT(bb_console_is_kernel("[    0.000000] Linux version 6.1.0-57-amd64 "
	                               "(debian-kernel@lists.debian.org)"),
	          ==, 1);
	CHECK_INT(bb_console_is_kernel("[    1.234567] Run /init as init process"), ==, 1);
	CHECK_INT(bb_console_is_kernel("[12345.5] x"), ==, 1);
	CHECK_INT(bb_console_is_kernel("Linux version 6.1.0-57-amd64"), ==, 1);
	CHECK_INT(bb_console_is_kernel("BENCHBOOT boot-start id=x runs=1"), ==, 1);
	CHECK_INT(bb_console_is_kernel("SeaBIOS (version 1.16.2-debian-1.16.2-1)"), ==, 0);
	CHECK_INT(bb_console_is_kernel("Probing EDD (edd=off to disable)... ok"), ==, 0);
	CHECK_INT(bb_console_is_kernel("Booting from ROM.."), ==, 0);
	CHECK_INT(bb_console_is_kernel("[ok]"), ==, 0);
	CHECK_INT(bb_console_is_kernel(""), ==, 0);
}

TEST(progress_events)
{
	struct bb_console_event ev;
	CHECK_INT(bb_console_event("BENCHBOOT boot-start id=b9bb8213-ca8c runs=2 iterations=3 "
	                           "job=netperf-sctp cpus=2",
	                           &ev),
	          ==, 1);
	CHECK_INT(ev.kind, ==, BB_EV_BOOT_START);
	CHECK_STR(ev.id, "b9bb8213-ca8c");
	CHECK_INT(ev.runs, ==, 2);
	CHECK_INT(ev.niter, ==, 3);
	CHECK_INT(
	    bb_console_event("BENCHBOOT run-start id=SCTP_STREAM_MANY.prsctp_enable-1 iter=2/3 "
	                     "runtime=10 clients=2",
	                     &ev),
	    ==, 1);
	CHECK_INT(ev.kind, ==, BB_EV_RUN_START);
	CHECK_STR(ev.id, "SCTP_STREAM_MANY.prsctp_enable-1");
	CHECK_INT(ev.iter, ==, 2);
	CHECK_INT(ev.niter, ==, 3);
	CHECK(ev.runtime == 10);
	CHECK_INT(
	    bb_console_event("BENCHBOOT run-end id=R iter=1 status=timeout elapsed=41.50 "
	                     "init_ticks=0 init_cpu_us=812 reason=client 0: killed by signal 9",
	                     &ev),
	    ==, 1);
	CHECK_INT(ev.kind, ==, BB_EV_RUN_END);
	CHECK_STR(ev.status, "timeout");
	CHECK(ev.elapsed == 41.5);
	CHECK_STR(ev.reason, "client 0: killed by signal 9");
	CHECK_INT(bb_console_event("benchboot: SCTP_STREAM_MANY.prsctp_enable-0 iteration 1: "
	                           "netperf.Throughput_Mbps = 812.4 Mbps",
	                           &ev),
	          ==, 1);
	CHECK_INT(ev.kind, ==, BB_EV_RESULT);
	CHECK_STR(ev.id, "SCTP_STREAM_MANY.prsctp_enable-0");
	CHECK_STR(ev.stat, "netperf.Throughput_Mbps");
	CHECK(ev.value == 812.4);
	CHECK_STR(ev.unit, "Mbps");
	CHECK_INT(bb_console_event("BENCHBOOT boot-end id=X ok=3 failed=1", &ev), ==, 1);
	CHECK_INT(ev.kind, ==, BB_EV_BOOT_END);
	CHECK_INT(ev.ok, ==, 3);
	CHECK_INT(ev.failed, ==, 1);
	CHECK_INT(bb_console_event("benchboot: results: no results disk", &ev), ==, 0);
	CHECK_INT(bb_console_event("[ 1.0] random kernel line", &ev), ==, 0);
}

TEST(init_crash_is_benchboots_not_the_kernels)
{
	const char *line =
	    "BENCHBOOT init-crash signal=11 step=run-2 run=SCTP.prsctp_enable=1 iter=1";
	CHECK_INT(bb_console_classify(line), ==, BB_BOOT_INIT_CRASH);
	CHECK_STR(bb_boot_outcome_name(BB_BOOT_INIT_CRASH), "init-crash");
	struct bb_console_event ev;
	CHECK_INT(bb_console_event(line, &ev), ==, 1);
	CHECK_INT(ev.kind, ==, BB_EV_INIT_CRASH);
	CHECK_INT(ev.signal, ==, 11);
	CHECK_STR(ev.step, "run-2");
	CHECK_STR(ev.id, "SCTP.prsctp_enable=1");
	CHECK_INT(ev.iter, ==, 1);
	char text[600];
	bb_init_crash_text(&ev, text, sizeof(text));
	CHECK_CONTAINS(text, "benchboot's init crashed (signal 11, Segmentation fault, step run-2, "
	                     "run SCTP.prsctp_enable=1 iteration 1)");
	CHECK(!strstr(text, "panic"));

	CHECK_INT(bb_console_event("BENCHBOOT init-crash signal=0 exit=3 step=cgroup", &ev), ==, 1);
	CHECK_INT(ev.signal, ==, 0);
	CHECK_INT(ev.exit_status, ==, 3);
	bb_init_crash_text(&ev, text, sizeof(text));
	CHECK_CONTAINS(text, "(exit status 3 before boot-end, step cgroup)");
}
