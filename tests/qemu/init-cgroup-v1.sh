# One image, the cgroup mode from the kernel command line: the plan says v2, the boot says
# benchboot.cgroup.mode=v1. The init mounts a v1 memory hierarchy, creates the job cgroup in
# it, and netserver and both SCTP_STREAM_MANY clients run inside it (/proc/PID/cgroup).
# No results disk: the results come back over the console (benchboot collect --console).
. tests/lib.sh
. tests/qemu/init-image.inc

{
	cat <<'PLAN'
benchboot-plan 1
job=init-cgroup-v1
cgroup.mode=v2
cgroup.controllers=memory
cgroup.limit.memory.limit_in_bytes=768M
modules.boot=sctp

[run SCTP_STREAM_MANY]
suite=netperf
param.test=SCTP_STREAM_MANY
runtime=3
grace=30
needs.module=sctp
PLAN
	netperf_stanza SCTP_STREAM_MANY 3 -- -m 10K
	echo client.count=100%
} >"$T/plan"

init_image "$T/plan" "$T/img"
init_boot "$T/console" -- benchboot.cgroup.mode=v1
c="$T/console"
expect_grep "^BENCHBOOT cgroup mode=v1 controllers=memory job=/benchboot" "$c"
expect_grep "^BENCHBOOT cgroup-limit file=memory.limit_in_bytes requested=768M actual=805306368" "$c"
! grep -q "cmdline: benchboot" "$c" || fail "the override was reported as a problem"
# 100% of 2 CPUs: 2 clients; all three processes in the v1 memory job cgroup
expect_grep "^BENCHBOOT run-start id=SCTP_STREAM_MANY iter=1/1 runtime=3 clients=2" "$c"
expect_count "processes in the v1 job cgroup" \
	"^BENCHBOOT proc run=SCTP_STREAM_MANY .* cgroup=.*[0-9]:memory:/benchboot" "$c" 3
expect_grep "^BENCHBOOT run-end id=SCTP_STREAM_MANY iter=1 status=ok " "$c"
expect_grep "^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=SCTP_STREAM_MANY.netperf.Throughput_Mbps RESULT=pass UNITS=Mbps MEASUREMENT=[0-9.]*>$" "$c"
expect_grep "reboot: Power down" "$c"

"$BENCHBOOT" collect --console "$c" -o "$T/res" >"$T/collect.log" 2>&1 || { cat "$T/collect.log"; fail "collect --console"; }
boot=$(ls -d "$T"/res/0*)
expect_grep '"mode_requested": "v1"' "$boot/env.json"
expect_grep '"type": "cgroup"' "$boot/env.json"
expect_grep '"path": "/sys/fs/cgroup/memory"' "$boot/env.json"
expect_grep '"cmdline": "console=ttyS0 panic=-1 benchboot.cgroup.mode=v1"' "$boot/env.json"
expect_grep '"all_in_job_cgroup": true' "$boot/runs/SCTP_STREAM_MANY/1/status"
expect_grep '"netperf.Throughput_total_Mbps"' "$boot/runs/SCTP_STREAM_MANY/results.json"
grep -A3 '"netperf.Throughput_Mbps"' "$boot/runs/SCTP_STREAM_MANY/results.json"
