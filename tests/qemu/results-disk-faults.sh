# Disk faults: QEMU's blkdebug fails one write or one flush of the results disk (EIO) at a point
# of a boot of 3 iterations of a 1 s netperf TCP_STREAM, booted by `benchboot run --blkdebug`.
# The points are chosen from a reference boot of the same image, not fixed counts: with
# benchboot.debug.disk_stat=1 the results writer prints the disk's flush requests so far at the
# start and the end of each sync and around the close (`BENCHBOOT disk-stat`), and blkdebug
# counts the same requests (its flush_to_os event, raised for every flush, through a chain of
# set-state rules). Faults: (a) a write in the first sync (env.json), (b) a write in the middle
# of iteration 2's sync, (c) a flush in the middle of iteration 2's sync, (d) the last flush of
# the close. Each boot names the fault on the console, once, within the sync it was aimed at
# (`results disk: I/O error (EIO) while ...`, `BENCHBOOT results-disk-error`), gives the disk up
# and goes on with console results: every iteration ends ok, boot-end, power down; `benchboot
# run` says it, records it in run.json and collects the whole boot from the console; `collect`
# of the disk afterwards reports the boot incomplete (complete after the close's fault: `done`
# was written before it) and has every iteration whose run-end line came before the fault (an
# iteration is synced before its run-end line).
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

# blkdebug_conf N IOTYPE FILE: rules that fail, once, with EIO: the Nth flush request of the
# guest (IOTYPE flush), or the first write after it (IOTYPE write)
blkdebug_conf() {
	local n=$1 k
	for ((k = 1; k < n; k++)); do
		printf '[set-state]\nstate = "%d"\nevent = "flush_to_os"\nnew_state = "%d"\n\n' "$k" $((k + 1))
	done >"$3"
	printf '[inject-error]\nevent = "flush_to_os"\nstate = "%d"\niotype = "%s"\nerrno = "5"\nonce = "on"\n' "$n" "$2" >>"$3"
}
APPEND="benchboot.console.lava=0 benchboot.debug.disk_stat=1"

# the reference boot: no fault (blkdebug with no rule, the same path for the requests)
: >"$T/none.conf"
bb_timeout 600 "$BENCHBOOT" run --image "$T/img/img" --accel tcg -o "$T/ref" --blkdebug "$T/none.conf" \
	--append "$APPEND" >"$T/ref.out" 2>&1 || { cat "$T/ref.out"; fail "the reference boot failed"; }
tr -d '\r' <"$(ls "$T"/ref/console/*.log | sed -n 1p)" >"$T/ref.console"
# flushes AT SYNC: the flushes so far at that disk-stat line of the reference boot
flushes() {
	sed -n "s/^BENCHBOOT disk-stat at=$1 sync=$2 writes=[0-9]* flushes=\([0-9]*\)$/\1/p" "$T/ref.console"
}
# iteration 2's sync: the first sync started after its run-start line
sync2=$(sed -n '/^BENCHBOOT run-start id=TCP_STREAM iter=2\//,$p' "$T/ref.console" |
	sed -n 's/^BENCHBOOT disk-stat at=sync-start sync=\([0-9]*\) .*/\1/p' | sed -n 1p)
s1=$(flushes sync-start 1) s2a=$(flushes sync-start "$sync2") s2b=$(flushes sync-end "$sync2")
closing=$(sed -n 's/^BENCHBOOT disk-stat at=close-end sync=[0-9]* writes=[0-9]* flushes=\([0-9]*\)$/\1/p' "$T/ref.console")
[ -n "$s1" ] && [ -n "$sync2" ] && [ -n "$s2a" ] && [ -n "$s2b" ] && [ -n "$closing" ] ||
	fail "no disk-stat lines in the reference boot: $(grep 'disk-stat' "$T/ref.console" | head)"
[ $((s2b - s2a)) -ge 2 ] || fail "iteration 2's sync (sync $sync2) made $((s2b - s2a)) flushes: no middle"
mid=$(((s2a + s2b) / 2 + 1))
echo "reference boot: sync 1 from flush $s1; iteration 2's sync $sync2: flushes $s2a..$s2b; the close ends at $closing"

# fault_boot NAME N IOTYPE SYNC WHILE: boot with the fault; the console names it (WHILE, a
# pattern), inside sync SYNC (or the close: SYNC close)
fault_boot() {
	local name=$1 n=$2 iotype=$3 at=$4 what=$5 out=$T/$1 c i boot folder rc=0 before
	blkdebug_conf "$n" "$iotype" "$T/$name.conf"
	bb_timeout 600 "$BENCHBOOT" run --image "$T/img/img" --accel tcg -o "$out" \
		--blkdebug "$T/$name.conf" --append "$APPEND" >"$T/$name.out" 2>&1 || rc=$?
	cat "$T/$name.out"
	c=$T/$name.console
	tr -d '\r' <"$(ls "$out"/console/*.log | sed -n 1p)" >"$c"
	# the console names the fault, once, where it was aimed; the boot goes on and ends cleanly
	grep -Eq "^benchboot: results disk: I/O error \(EIO\) while $what.*: the results disk is given up" "$c" ||
		fail "$name: no fault while $what on the console; it has: $(grep -E 'results disk|results-disk-error|results: (writing|flushing|closing)' "$c")"
	expect_eq "$name: results-disk-error lines" "$(grep -c '^BENCHBOOT results-disk-error errno=EIO ' "$c")" 1
	before=$(sed '/^BENCHBOOT results-disk-error /q' "$c" | grep '^BENCHBOOT disk-stat ' | tail -n1)
	if [ "$at" = close ]; then
		contains "at=close-start" <<<"$before" || fail "$name: the fault was not in the close (last disk-stat: $before)"
	else
		contains "at=sync-start sync=$at " <<<"$before" || fail "$name: the fault was not in sync $at (last disk-stat: $before)"
	fi
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
	folder=$(find "$out" -mindepth 1 -maxdepth 1 -type d -name "*-$boot" | sed -n 1p)
	[ -n "$folder" ] || fail "$name: no results folder for $boot"
	for i in 1 2 3; do
		expect_grep '"status": "ok"' "$folder/runs/TCP_STREAM/$i/status"
	done
	expect_grep "status=complete" "$folder/.collect"
	# the disk itself (run repaired it: e2fsck -p): collect reports the boot incomplete and has
	# every iteration whose run-end line came before the fault
	e2fsck -fn "$out/results.img" >"$T/$name.fsck" 2>&1 || { cat "$T/$name.fsck"; fail "$name: e2fsck -fn after run's repair"; }
	rc=0
	"$BENCHBOOT" collect "$out/results.img" -o "$T/$name.disk" >"$T/$name.collect" 2>&1 || rc=$?
	cat "$T/$name.collect"
	expect_eq "$name: collect of the disk, exit code" "$rc" 0
	# (the close's fault comes after `done` was written: that boot is complete)
	local state=incomplete n=1
	[ "$at" != close ] || state=complete n=0
	expect_grep "1 boots collected ($n incomplete)" "$T/$name.collect"
	DISKBOOT=$(find "$T/$name.disk" -mindepth 1 -maxdepth 1 -type d -name "*-$boot" | sed -n 1p)
	expect_grep "status=$state" "$DISKBOOT/.collect"
	for i in $(sed '/^BENCHBOOT results-disk-error /q' "$c" |
		sed -n 's/^BENCHBOOT run-end id=TCP_STREAM iter=\([0-9]*\) status=ok.*/\1/p'); do
		expect_grep '"status": "ok"' "$DISKBOOT/runs/TCP_STREAM/$i/status"
	done
	[ "$(disk_iterations)" -ge "$(sed '/^BENCHBOOT results-disk-error /q' "$c" | grep -c '^BENCHBOOT run-end id=TCP_STREAM ')" ] ||
		fail "$name: the disk's results.json lost an iteration whose run-end came before the fault"
}

# disk_iterations: the iterations of TCP_STREAM in the disk's results.json
disk_iterations() {
	[ -e "$DISKBOOT/runs/TCP_STREAM/results.json" ] || { echo 0; return; }
	python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["netperf.Throughput_Mbps"]))' \
		"$DISKBOOT/runs/TCP_STREAM/results.json"
}

# (a) a write of the first sync (env.json, init.log): nothing of the boot's results on the disk
fault_boot first-sync-write $((s1 + 1)) write 1 "(writing|flushing the disk after writing) "
expect_eq "first-sync-write: iterations on the disk" "$(disk_iterations)" 0

# (b) a write in the middle of iteration 2's files; iteration 1 was synced before it
fault_boot mid-iteration-write "$mid" write "$sync2" "(writing|flushing the disk after writing) runs/TCP_STREAM/2/"
expect_grep '"status": "ok"' "$DISKBOOT/runs/TCP_STREAM/1/status"
[ -s "$DISKBOOT/env.json" ] || fail "mid-iteration-write: no env.json on the disk"
expect_eq "mid-iteration-write: iterations on the disk" "$(disk_iterations)" 1

# (c) a flush in the middle of iteration 2's files
fault_boot mid-iteration-flush "$mid" flush "$sync2" "(writing|flushing the disk after writing) runs/TCP_STREAM/2/"
expect_eq "mid-iteration-flush: iterations on the disk" "$(disk_iterations)" 1

# (d) the last flush of the close: every iteration was synced before it
fault_boot final-close "$closing" flush close "closing the disk"
for i in 1 2 3; do
	expect_grep '"status": "ok"' "$DISKBOOT/runs/TCP_STREAM/$i/status"
done
expect_eq "final-close: iterations on the disk" "$(disk_iterations)" 3
echo "disk faults (writes and flushes, at points of a reference boot: sync 1 from flush $s1, iteration 2's sync at flush $mid, the close at $closing): named where aimed, the boot went on, nothing synced lost, collect reported the boots incomplete"
