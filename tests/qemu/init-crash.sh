# benchboot's own bug cannot take PID 1 down: `benchboot run` boots an image with
# benchboot.debug.crash=run-2, which makes the runner (PID 1's child) segfault as it enters
# the boot's second iteration. PID 1 reports `BENCHBOOT init-crash signal=11 step=run-2 ...`,
# the kernel does not panic, the VM powers off by itself, the first iteration (synced before
# the crash) is collected from the results disk, and `benchboot run` says that benchboot's
# init crashed (outcome init-crash, exit 1), not that the kernel panicked.
. tests/lib.sh
. tests/qemu/init-image.inc
. tests/qemu/crash.inc

crash_run run-2
[ $rc = 1 ] || fail "benchboot run: exit $rc, expected 1 (a boot failed)"
c=$T/console

# PID 1's report, then its power-off; no panic
expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=1 status=ok" "$c"
expect_grep "^BENCHBOOT init-crash signal=11 step=run-2 run=TCP_STREAM iter=2$" "$c"
expect_grep "^benchboot: benchboot's init crashed (Segmentation fault in step run-2)" "$c"
expect_grep "^benchboot: powering off" "$c"
expect_grep "reboot: Power down" "$c"
! grep -q "Kernel panic" "$c" || fail "kernel panic"
! grep -q "Attempted to kill init" "$c" || fail "PID 1 died"
! grep -q "^BENCHBOOT run-start id=TCP_STREAM iter=2" "$c" || fail "the second iteration started"
! grep -q "^BENCHBOOT boot-end" "$c" || fail "boot-end after a crash"

# what benchboot run says
expect_grep "benchboot's init crashed (signal 11, Segmentation fault, step run-2, run TCP_STREAM iteration 2)" "$T/run.out"
! grep -qi "panic" "$T/run.out" || fail "benchboot run speaks of a panic"
expect_grep '"outcome": "init-crash"' "$T/out/run.json"

# the iteration synced before the crash is on the disk, and collected
boot=$(ls -d "$T"/out/0001-* | sed -n 1p)
[ -d "$boot" ] || fail "no collected boot folder"
expect_grep '"status": "ok"' "$boot/runs/TCP_STREAM/1/status"
[ ! -e "$boot/runs/TCP_STREAM/2/status" ] || fail "iteration 2 has a status"
expect_eq "iterations in results.json" \
	"$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["netperf.Throughput_Mbps"]))' "$boot/runs/TCP_STREAM/results.json")" 1
[ -s "$boot/env.json" ] || fail "no env.json"
# benchboot run preened the disk the runner left open, for the next boots
expect_grep "repairing the results disk" "$T/run.out"
e2fsck -fn "$T/out/results.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "results disk not clean after run"; }
echo "init crash reported, first iteration kept, VM powered off"
