/*
 * A console line's LKP dmesg stat (lib/host/results/dmesg.c). The expected names are what
 * LKP's own parser (intel/lkp-tests programs/dmesg/parse, lib/dmesg.rb) printed for each line,
 * one line per run; "" where it printed none.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "host/results/dmesg.h"

static const struct {
	const char *line, *stat;
} cases[] = {
    {"[   24.912345] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
     "dmesg.INFO:rcu_preempt_detected_stalls_on_CPUs/tasks"},
    {"[   30.100000] rcu: INFO: rcu_sched self-detected stall on CPU",
     "dmesg.INFO:rcu_sched_self-detected_stall_on_CPU"},
    {"[   12.300000] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [swapper/1:0]",
     "dmesg.BUG:soft_lockup-CPU##stuck_for#s![swapper:#]"},
    {"[  120.000000] INFO: task kworker/0:1:123 blocked for more than 120 seconds.",
     "dmesg.INFO:task_blocked_for_more_than#seconds"},
    {"[    5.000000] Kernel panic - not syncing: sysrq triggered crash",
     "dmesg.Kernel_panic-not_syncing:sysrq_triggered_crash"},
    {"[    5.000000] BUG: kernel NULL pointer dereference, address: 0000000000000000",
     "dmesg.BUG:kernel_NULL_pointer_dereference,address"},
    {"[    5.000000] WARNING: CPU: 0 PID: 1 at kernel/foo.c:123 bar+0x12/0x40",
     "dmesg.WARNING:at_kernel/foo.c:#bar"},
    {"[    5.000000] general protection fault, probably for non-canonical address "
     "0xdead000000000100: 0000 [#1] PREEMPT SMP NOPTI",
     "dmesg.canonical_address#:#[##]"},
    {"[    5.000000] Oops: 0000 [#1] PREEMPT SMP NOPTI", "dmesg.Oops:#[##]"},
    {"[    6.000000] ---[ end Kernel panic - not syncing: Fatal exception ]---",
     "dmesg.Kernel_panic-not_syncing:Fatal_exception"},
    {"[    7.000000] kernel BUG at mm/slub.c:4212!", "dmesg.kernel_BUG_at_mm/slub.c"},
    {"[    8.000000] UBSAN: shift-out-of-bounds in drivers/of/unittest.c:1893:36",
     "dmesg.UBSAN:shift-out-of-bounds_in_drivers/of/unittest.c"},
    {"[    9.000000] BUG: KASAN: slab-out-of-bounds in kfd_create_crat_image_virtual+0x129d/0x12fd",
     "dmesg.BUG:KASAN:slab-out-of-bounds_in_kfd_create_crat_image_virtual"},
    {"[   10.000000] BUG: scheduling while atomic: swapper/0/0/0x00000002",
     "dmesg.BUG:scheduling_while_atomic"},
    {"[   11.000000] watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [kworker/u258:3:123]",
     "dmesg.BUG:soft_lockup-CPU##stuck_for#s![kworker##:#]"},
    {"[   12.000000] BUG: unable to handle page fault for address: ffffed1000000000",
     "dmesg.BUG:unable_to_handle_page_fault_for_address"},
    {"[   13.000000] Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b",
     "dmesg.Kernel_panic-not_syncing:Attempted_to_kill_init!exitcode="},
    {"[    1.000000] sctp: Hash tables configured (bind 256/256)", ""},
    {"[   14.000000] WARNING: suspicious RCU usage", "dmesg.WARNING:suspicious_RCU_usage"},
    {"[   15.000000] rcu: INFO: rcu_preempt self-detected stall on CPU",
     "dmesg.INFO:rcu_preempt_self-detected_stall_on_CPU"},
    {"[   16.000000] INFO: task stress-ng:4567 blocked for more than 241 seconds.",
     "dmesg.INFO:task_blocked_for_more_than#seconds"},
    {"[   17.000000] WARNING: CPU: 1 PID: 4567 at mm/page_alloc.c:5534 __alloc_pages+0x2b4/0x330",
     "dmesg.WARNING:at_mm/page_alloc.c:#__alloc_pages"},
    {"[   18.000000] BUG: Bad page state in process stress-ng  pfn:1a2b3",
     "dmesg.BUG:Bad_page_state_in_process"},
    {"[   19.000000] Kernel panic - not syncing: softlockup: hung tasks",
     "dmesg.Kernel_panic-not_syncing:softlockup:hung_tasks"},
    {"[   20.000000] BUG: workqueue lockup - pool cpus=0 node=0 flags=0x0 nice=0 stuck for 31s!",
     "dmesg.BUG:workqueue_lockup-pool"},
};

TEST(lkp_names)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char got[1100] = "";
		int r = bb_dmesg_stat(cases[i].line, got, sizeof(got));
		if (strcmp(got, cases[i].stat))
			fprintf(stderr, "line: %s\n", cases[i].line);
		CHECK_STR(got, cases[i].stat);
		CHECK_INT(r, ==, *cases[i].stat != 0);
	}
}

TEST(plain_lines_are_no_reports)
{
	char got[256];
	const char *plain[] = {
	    "", "Linux version 6.1.0-57-amd64", "BENCHBOOT boot-start id=1",
	    "benchboot: SCTP_STREAM iteration 1: netperf.Throughput_Mbps = 661.74",
	    "[    2.0] virtio_blk virtio0: [vda] 131072 512-byte logical blocks"};
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		CHECK_INT(bb_dmesg_stat(plain[i], got, sizeof(got)), ==, 0);
}

/* A log: each stat once, with its first line; other lines and \r\n endings do not matter. */
TEST(scan_file)
{
	char path[] = "/tmp/bbdmesgXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("[    1.000000] Run /init as init process\r\n"
	      "[   24.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\r\n"
	      "benchboot: run 1/1\n"
	      "[   84.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
	      "[   90.000000] Kernel panic - not syncing: sysrq triggered crash\n",
	      f);
	fclose(f);
	struct bb_kvs st = {0};
	CHECK_INT(bb_dmesg_scan_file(path, &st), ==, 0);
	unlink(path);
	CHECK_INT(st.n, ==, 2);
	CHECK_STR(st.v[0].key, "dmesg.INFO:rcu_preempt_detected_stalls_on_CPUs/tasks");
	CHECK_STR(st.v[0].value,
	          "[   24.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:");
	CHECK_STR(st.v[1].key, "dmesg.Kernel_panic-not_syncing:sysrq_triggered_crash");
	bb_kvs_free(&st);
	CHECK_INT(bb_dmesg_scan_file("/nonexistent/console.log", &st), ==, -ENOENT);
}
