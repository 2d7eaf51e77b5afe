# benchboot run after a boot whose VM was stopped mid-run: the first boot's client panics the
# kernel (sysrq crash) while the results disk is open, so the disk is left marked not clean;
# run collects what finished, then repairs the disk (e2fsck -p) and says so; the next boot
# (another invocation on the same folder) writes its results to the disk again (collected
# from the disk, not from the console).
. tests/lib.sh
. tests/qemu/init-image.inc
bb_need e2fsck

# one image, two command lines: with bbcrash on it the second run's client crashes the kernel
{
	cat <<'PLAN'
benchboot-plan 1
job=run-repair
cgroup.mode=v2
cgroup.controllers=memory

[run tcp]
suite=netperf
param.test=TCP_STREAM
iterations=1
runtime=3
grace=30
PLAN
	netperf_stanza TCP_STREAM 3 -c -C
	cat <<'PLAN'
client.count=1

[run crash]
suite=netperf
param.test=TCP_STREAM
runtime=3
grace=30
PLAN
	netserver_stanza
	sh_client_stanza 'if /bin/busybox grep -q bbcrash /proc/cmdline; then /bin/busybox sleep 1; echo c >/proc/sysrq-trigger; /bin/busybox sleep 100; fi; exec /usr/bin/netperf -4 -H 127.0.0.1 -t TCP_STREAM -c -C -l 3'
	echo client.count=1
} >"$T/plan"
init_image "$T/plan" "$T/img" --module virtio_blk --module virtio_pci
image_with_word "$T/img/img" "$T/crashimg" bbcrash

run() { # NAME EXPECTED_EXIT IMAGE
	local rc=0
	bb_timeout 900 nice "$BENCHBOOT" run --image "$3" --accel tcg --deadline 600 \
		-o "$T/res" >"$T/$1.out" 2>&1 || rc=$?
	cat "$T/$1.out"
	expect_eq "$1: exit code" "$rc" "$2"
	if pgrep -f -- "$T/img/img/initrd.img" >/dev/null; then fail "$1: a QEMU is still running"; fi
}

run crash 1 "$T/crashimg"
expect_grep "FAILED (panic after .*Kernel panic - not syncing: sysrq triggered crash" "$T/crash.out"
expect_grep "repairing the results disk .*results.img (e2fsck -p) for the next boots" "$T/crash.out"
expect_grep "results disk .*results.img: repaired (e2fsck -p exit 1)" "$T/crash.out"
first=$(find "$T/res" -mindepth 1 -maxdepth 1 -name '0001-*' -type d)
[ -n "$first" ] || fail "the first boot was not collected"
expect_grep "source=disk" "$first/.collect"
expect_grep "status=incomplete" "$first/.collect"
[ -s "$first/runs/tcp/results.json" ] || fail "the first boot's finished run is missing"
e2fsck -fn "$T/res/results.img" >"$T/fsck1" 2>&1 || { cat "$T/fsck1"; fail "the disk is not clean after the repair"; }

run again 0 "$T/img/img"
expect_grep "boot 1/1: finished in" "$T/again.out"
if grep -q "boot 1/1: repairing" "$T/again.out"; then fail "a clean boot was repaired"; fi
second=$(find "$T/res" -mindepth 1 -maxdepth 1 -name '0002-*' -type d)
[ -n "$second" ] || { ls -la "$T/res"; fail "the second boot is not on the disk (0002-*)"; }
expect_grep "source=disk" "$second/.collect"
expect_grep "status=complete" "$second/.collect"
[ -s "$second/runs/tcp/results.json" ] || fail "the second boot's tcp results are missing"
[ -s "$second/runs/crash/1/status" ] || fail "the second boot's crash run status is missing"
if grep -q "no results disk\|refus" "$second/init.log"; then fail "the second boot refused the disk"; fi
e2fsck -fn "$T/res/results.img" >"$T/fsck2" 2>&1 || { cat "$T/fsck2"; fail "the disk is not clean after the second boot"; }
echo "repair ok"
