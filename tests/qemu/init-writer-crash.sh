# The results writer (the runner's child that owns the results disk) dies and the boot goes
# on: `benchboot run` boots an image with benchboot.debug.crash=writer-3, which makes the
# writer segfault at its third request (1: the first sync with env.json, 2: iteration 1's
# sync, 3: iteration 2's). The runner says `BENCHBOOT writer-died`, gives the disk up, and the
# runs still end ok with their files on the console: iteration 1 stays on the disk, iterations
# 2 and 3 (and everything else) reach the console, the boot ends normally (boot-end, power
# off), no init-crash, and `collect --console` gets the whole boot from the console, as
# `benchboot run` does when it sees the writer's death.
. tests/lib.sh
. tests/qemu/init-image.inc
. tests/qemu/crash.inc

crash_run writer-3
c=$T/console

# the writer's death, said once, between iteration 2's end and its run-end line; the boot goes on
expect_grep "^benchboot: benchboot.debug.crash=writer-3: crashing on purpose" "$c"
expect_eq "writer-died lines" "$(grep -c '^BENCHBOOT writer-died' "$c")" 1
expect_grep "^BENCHBOOT writer-died signal=11 exit=-1 requests=3$" "$c"
expect_grep "^benchboot: the results writer died (Segmentation fault): the results disk is given up" "$c"
for i in 1 2 3; do
	expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=$i status=ok" "$c"
done
[ "$(grep -n '^BENCHBOOT writer-died' "$c" | cut -d: -f1)" -lt \
	"$(grep -n '^BENCHBOOT run-end id=TCP_STREAM iter=2' "$c" | cut -d: -f1)" ] ||
	fail "writer-died after iteration 2's run-end"
expect_grep "^BENCHBOOT boot-end id=.* ok=1 failed=0" "$c"
expect_grep "reboot: Power down" "$c"
! grep -q "^BENCHBOOT init-crash" "$c" || fail "the runner crashed"
! grep -q "Kernel panic" "$c" || fail "kernel panic"

# iteration 1 on the disk only; iterations 2 and 3, env.json and done on the console
boot=$(sed -n 's/^BENCHBOOT-FILE boot=\([^ ]*\) path=env.json .*/\1/p' "$c" | head -n1)
[ -n "$boot" ] || fail "env.json not on the console"
for f in runs/TCP_STREAM/2/status runs/TCP_STREAM/3/status runs/TCP_STREAM/results.json done; do
	expect_grep "^BENCHBOOT-FILE boot=$boot path=$f " "$c"
done
! grep -q "^BENCHBOOT-FILE boot=$boot path=runs/TCP_STREAM/1/status " "$c" ||
	[ "$(grep -n "path=runs/TCP_STREAM/1/status " "$c" | head -n1 | cut -d: -f1)" -gt \
		"$(grep -n '^BENCHBOOT writer-died' "$c" | cut -d: -f1)" ] ||
	fail "iteration 1 on the console before the writer died (it had a disk)"
debugfs -R "ls -p /boots/$boot/runs/TCP_STREAM/1" "$T/out/results.img" 2>/dev/null | grep -q "/status/" ||
	fail "iteration 1 not on the results disk"
! debugfs -R "ls -p /boots/$boot/runs/TCP_STREAM/2" "$T/out/results.img" 2>/dev/null | grep -q "/status/" ||
	fail "iteration 2 on the results disk (the writer died before its sync)"
# the console holds the whole boot: collected from it, complete (its done manifest checked)
"$BENCHBOOT" collect --console "$c" -o "$T/fromconsole" >"$T/collect.out" 2>&1 ||
	{ cat "$T/collect.out"; fail "collect --console"; }
cat "$T/collect.out"
! grep -q INCOMPLETE "$T/collect.out" || fail "the console copy is incomplete"
for i in 1 2 3; do
	expect_grep '"status": "ok"' "$T/fromconsole/$boot/runs/TCP_STREAM/$i/status"
done
expect_eq "iterations in results.json (console)" \
	"$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["netperf.Throughput_Mbps"]))' "$T/fromconsole/$boot/runs/TCP_STREAM/results.json")" 3
[ -s "$T/fromconsole/$boot/env.json" ] || fail "no env.json from the console"
# benchboot run saw the death and collected the console over the disk's part: the whole boot
expect_grep "writer-died signal=11 exit=-1 requests=3: the results go to the console from here" "$T/run.out"
expect_grep "collected boot ${boot#*-} from the console log" "$T/run.out"
expect_eq "benchboot run: exit code" "$rc" 0
folder=$(find "$T/out" -mindepth 1 -maxdepth 1 -type d -name "*-${boot#*-}" | head -n1)
[ -n "$folder" ] || fail "no results folder for $boot in $T/out"
for i in 1 2 3; do
	expect_grep '"status": "ok"' "$folder/runs/TCP_STREAM/$i/status"
done
expect_grep "status=complete" "$folder/.collect"
echo "writer death reported, the runs went on, their results reached the console"
