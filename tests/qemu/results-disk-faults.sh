# Disk faults: QEMU's blkdebug fails one flush of the results disk (EIO) at a chosen point of a
# boot of 3 iterations of a 1 s netperf TCP_STREAM, booted by `benchboot run --blkdebug`: (a)
# the first sync (env.json), (b) the middle of iteration 2's files, (c) the final close. Each
# boot names the fault on the console (`results disk: I/O error (EIO) while ...` and
# `BENCHBOOT results-disk-error`), gives the disk up and goes on with console results: every
# iteration ends ok, boot-end, power down; `benchboot run` says it and records it in run.json
# and collects the whole boot from the console; `collect` of the disk afterwards reads every
# iteration synced before the fault.
#
# The point is the Nth flush request of the guest: blkdebug counts them with its flush_to_os
# event (raised for every flush, unlike flush_to_disk, which QEMU skips when nothing was
# written since the last one) through a chain of states, and fails the Nth with EIO. Of the
# 119 flushes of such a boot: 1-8 open the disk and make the boot folder, 9-14 the first sync
# (env.json, init.log), 47-71 iteration 2's sync (8 files), 119 the last of the close.
. tests/lib.sh
. tests/qemu/init-image.inc
{
	cat <<'PLAN'
benchboot-plan 1
job=faults
modules.boot=sctp dummy virtio_blk

[run TCP_STREAM]
suite=netperf
iterations=3
runtime=1
grace=20
PLAN
	netperf_stanza TCP_STREAM 1
} >"$T/plan"
init_image "$T/plan" "$T/img" --module virtio_blk --module virtio_pci

# blkdebug_conf N FILE: rules that fail the guest's Nth flush request with EIO, once
blkdebug_conf() {
	local n=$1 k
	for ((k = 1; k < n; k++)); do
		printf '[set-state]\nstate = "%d"\nevent = "flush_to_os"\nnew_state = "%d"\n\n' "$k" $((k + 1))
	done >"$2"
	printf '[inject-error]\nevent = "flush_to_os"\nstate = "%d"\niotype = "flush"\nerrno = "5"\nonce = "on"\n' "$n" >>"$2"
}

# fault_boot NAME N WHILE: boot with the Nth flush failing; the console names WHILE
fault_boot() {
	local name=$1 n=$2 what=$3 out=$T/$1 c i boot folder rc=0
	blkdebug_conf "$n" "$T/$name.conf"
	bb_timeout 600 "$BENCHBOOT" run --image "$T/img/img" --accel tcg -o "$out" \
		--blkdebug "$T/$name.conf" --append "benchboot.console.lava=0" >"$T/$name.out" 2>&1 || rc=$?
	cat "$T/$name.out"
	c=$T/$name.console
	tr -d '\r' <"$(ls "$out"/console/*.log | head -n1)" >"$c"
	# the console names the fault, once; the boot goes on and ends cleanly
	grep -q "^benchboot: results disk: I/O error (EIO) while $what.*: the results disk is given up" "$c" ||
		fail "$name: no fault while $what on the console; it has: $(grep -E 'results disk|results-disk-error|results: (writing|flushing|closing)' "$c")"
	expect_eq "$name: results-disk-error lines" "$(grep -c '^BENCHBOOT results-disk-error errno=EIO ' "$c")" 1
	for i in 1 2 3; do
		expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=$i status=ok" "$c"
	done
	expect_grep "^BENCHBOOT boot-end id=.* ok=1 failed=0" "$c"
	expect_grep "reboot: Power down" "$c"
	! grep -q "^BENCHBOOT init-crash\|^BENCHBOOT writer-died" "$c" || fail "$name: the runner or the writer died"
	# benchboot run: said, in the summary and run.json; the whole boot collected (console)
	expect_eq "$name: benchboot run exit code" "$rc" 0
	expect_grep "results-disk-error errno=EIO .*: the results disk was given up" "$T/$name.out"
	expect_grep "^          results disk I/O error (results-disk-error errno=EIO " "$T/$name.out"
	python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["boots"][0]["results_disk_error"]; assert e.startswith("results-disk-error errno=EIO"), e' \
		"$out/run.json" || fail "$name: run.json has no results_disk_error"
	boot=$(sed -n 's/^BENCHBOOT boot-start id=\([^ ]*\) .*/\1/p' "$c")
	folder=$(find "$out" -mindepth 1 -maxdepth 1 -type d -name "*-$boot" | head -n1)
	[ -n "$folder" ] || fail "$name: no results folder for $boot"
	for i in 1 2 3; do
		expect_grep '"status": "ok"' "$folder/runs/TCP_STREAM/$i/status"
	done
	expect_grep "status=complete" "$folder/.collect"
	# the disk itself: what was synced before the fault (run repaired it: e2fsck -p)
	e2fsck -fn "$out/results.img" >"$T/$name.fsck" 2>&1 || { cat "$T/$name.fsck"; fail "$name: e2fsck -fn after run's repair"; }
	"$BENCHBOOT" collect "$out/results.img" -o "$T/$name.disk" >"$T/$name.collect" 2>&1 || true
	cat "$T/$name.collect"
	DISKBOOT=$(find "$T/$name.disk" -mindepth 1 -maxdepth 1 -type d -name "*-$boot" | head -n1)
}

# disk_iterations: the iterations of TCP_STREAM in the disk's results.json
disk_iterations() {
	[ -e "$DISKBOOT/runs/TCP_STREAM/results.json" ] || { echo 0; return; }
	python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["netperf.Throughput_Mbps"]))' \
		"$DISKBOOT/runs/TCP_STREAM/results.json"
}

# (a) the first sync: env.json's first flush
fault_boot first-sync 9 "writing env.json"
[ ! -e "$DISKBOOT/env.json" ] || fail "first-sync: env.json on the disk (the fault was before it was whole)"
expect_eq "first-sync: iterations on the disk" "$(disk_iterations)" 0

# (b) the middle of iteration 2's files; iteration 1 was synced before it
fault_boot mid-iteration 59 "writing runs/TCP_STREAM/2/.* (iteration 2 of TCP_STREAM)"
expect_grep '"status": "ok"' "$DISKBOOT/runs/TCP_STREAM/1/status"
[ -s "$DISKBOOT/env.json" ] || fail "mid-iteration: no env.json on the disk"
expect_eq "mid-iteration: iterations on the disk" "$(disk_iterations)" 1

# (c) the final close: its last flush; every iteration was synced before it
fault_boot final-close 119 "closing the disk"
for i in 1 2 3; do
	expect_grep '"status": "ok"' "$DISKBOOT/runs/TCP_STREAM/$i/status"
done
expect_eq "final-close: iterations on the disk" "$(disk_iterations)" 3
echo "disk faults at the first sync, in an iteration and at the close: named, the boot went on, nothing synced lost"
