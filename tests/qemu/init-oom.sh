# The OOM killer kills a benchmark: under cgroup v2 with memory.max=48M on the job cgroup, a
# client that grows without bound (BusyBox sh doubling a string) is killed by the kernel's OOM
# killer; the iteration fails with that reason (the job cgroup's oom_kill count, not a bare
# "signal 9"), the kernel's own oom-kill line is on the console, and the next run completes.
. tests/lib.sh
. tests/qemu/init-image.inc

{
	cat <<'PLAN'
benchboot-plan 1
job=init-oom
cgroup.mode=v2
cgroup.controllers=memory
cgroup.limit.memory.max=48M

[run grows]
suite=netperf
runtime=60
grace=10
PLAN
	sh_client_stanza 's=xxxxxxxxxxxxxxxx; while :; do s="$s$s"; done'
	cat <<'PLAN'

[run after]
suite=netperf
runtime=2
grace=30
PLAN
	netperf_stanza TCP_STREAM 2
} >"$T/plan"
init_image "$T/plan" "$T/img"
init_boot "$T/console"
c="$T/console"
expect_grep "^BENCHBOOT cgroup-limit file=memory.max requested=48M actual=50331648" "$c"
expect_grep "^BENCHBOOT run-end id=grows iter=1 status=failed .*reason=client 0: killed by signal 9 (Killed) by the OOM killer (job cgroup oom_kill +1)$" "$c"
# the kernel says so too, for the process the test started
expect_grep "Memory cgroup out of memory: Killed process [0-9]* (busybox)" "$c"
expect_grep "^BENCHBOOT run-end id=after iter=1 status=ok " "$c"
expect_grep "^BENCHBOOT boot-end id=.* ok=1 failed=1$" "$c"
expect_grep "reboot: Power down" "$c"
