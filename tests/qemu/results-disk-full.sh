# A results disk that fills up, booted: three runs of a 1 s netperf TCP_STREAM on a 4 MB disk,
# the second of which writes 6 MB to its stderr. The init reports the full disk on the console,
# fails that iteration with the reason (run-end line, status) and goes on; the third run keeps
# its results on the disk (the big file is retried after its files); the boot ends cleanly.
# `benchboot run` exits 1 (a run failed) with the reason in its progress; the disk stays
# consistent (e2fsck -fn) and `collect` of it has the first and third runs, and the second's
# failed status without the file that did not fit, which it reports (exit 1).
. tests/lib.sh
. tests/qemu/init-image.inc
{
	cat <<'PLAN'
benchboot-plan 1
job=diskfull
modules.boot=sctp dummy virtio_blk

[run first]
suite=netperf
runtime=1
grace=20
PLAN
	netperf_stanza TCP_STREAM 1
	printf '\n[run big]\nsuite=netperf\nruntime=1\ngrace=20\n'
	netserver_stanza
	sh_client_stanza "/usr/bin/netperf -4 -H 127.0.0.1 -t TCP_STREAM -l 1; yes benchboot | head -c 6000000 >&2"
	printf '\n[run next]\nsuite=netperf\nruntime=1\ngrace=20\n'
	netperf_stanza TCP_STREAM 1
} >"$T/plan"
init_image "$T/plan" "$T/img" --module virtio_blk --module virtio_pci
"$BENCHBOOT" mkdisk "$T/tiny.img" --size 4M >/dev/null || fail "mkdisk --size 4M"
rc=0
bb_timeout 600 "$BENCHBOOT" run --image "$T/img/img" --accel tcg -o "$T/out" --disk "$T/tiny.img" \
	--append "benchboot.console.lava=0" >"$T/run.out" 2>&1 || rc=$?
cat "$T/run.out"
c=$T/console
tr -d '\r' <"$(ls "$T"/out/console/*.log | sed -n 1p)" >"$c"
expect_grep "^benchboot: results: writing [^ ]*/runs/big/1/client.0.err failed: No space left on device" "$c"
expect_grep "^BENCHBOOT run-end id=first iter=1 status=ok " "$c"
expect_grep "^BENCHBOOT run-end id=big iter=1 status=failed .*reason=results not written to the results disk: No space left on device" "$c"
expect_grep "^BENCHBOOT run-end id=next iter=1 status=ok " "$c"
expect_grep "^BENCHBOOT boot-end id=.* ok=2 failed=1" "$c"
expect_grep "reboot: Power down" "$c"
! grep -q "^BENCHBOOT init-crash\|^BENCHBOOT writer-died\|^BENCHBOOT results-disk-error" "$c" ||
	fail "a crash or a disk given up on a full disk"
expect_eq "benchboot run exit code (a run failed)" "$rc" 1
expect_grep "run 2/3 big iteration 1: failed .*results not written to the results disk: No space left on device" "$T/run.out"
e2fsck -fn "$T/tiny.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck -fn of the full disk"; }
rc=0
"$BENCHBOOT" collect "$T/tiny.img" -o "$T/disk" >"$T/collect.out" 2>&1 || rc=$?
cat "$T/collect.out"
expect_eq "collect of the full disk: exit code (a file was not written)" "$rc" 1
expect_grep "runs/big/1/client.0.err (6000000 bytes) was not written to the results disk (full; see its iteration's status)" "$T/collect.out"
d=$(find "$T/disk" -mindepth 1 -maxdepth 1 -type d -name "0001-*" | sed -n 1p)
[ -n "$d" ] || fail "collect: no boot folder"
for r in first next; do
	expect_grep '"status": "ok"' "$d/runs/$r/1/status"
	python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["netperf.Throughput_Mbps"]; assert len(v) == 1 and v[0] > 0, v' \
		"$d/runs/$r/results.json" || fail "$r: no throughput in the disk's results.json"
done
expect_grep '"reason": "results not written to the results disk: No space left on device' "$d/runs/big/1/status"
[ ! -e "$d/runs/big/1/client.0.err" ] || fail "the file that did not fit is on the disk"
echo "a full results disk: the big run failed with the reason, the runs around it kept their results"
