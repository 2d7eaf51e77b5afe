# A kernel that reports a stall, from run to compare: one image, two command lines (as in
# run-repair.sh); with bbstall on it, the run's client first puts an RCU stall report into the
# kernel log (through /dev/kmsg: this kernel has no module that stalls on demand), then runs
# netperf. That boot finishes (a stall report is not a hang), run says so and keeps the
# report in run.json, and compare names that boot, and only that one, in its notes; and shows
# the report as LKP's failure stat (fail:runs), changed when the other side never showed it,
# also from the boot folders alone (the init's kmsg.log).
# Then a boot that leaves no run results (the init's runner crashed on purpose in its network
# step, before anything reached the results disk) is still on its side: counted, and how it
# ended said in the notes.
. tests/lib.sh
. tests/qemu/init-image.inc

{
	printf '%s\n' 'benchboot-plan 1' job=run-stall '' '[run tcp]' suite=netperf \
		param.test=TCP_STREAM iterations=2 runtime=2 grace=30
	netserver_stanza
	sh_client_stanza "if /bin/busybox grep -q bbstall /proc/cmdline; then echo '<3>rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' >/dev/kmsg; fi; exec /usr/bin/netperf -4 -H 127.0.0.1 -t TCP_STREAM -l 2"
	echo client.count=1
} >"$T/plan"
init_image "$T/plan" "$T/img" --module virtio_blk --module virtio_pci
image_with_word "$T/img/img" "$T/stallimg" bbstall
image_with_word "$T/img/img" "$T/crashimg" benchboot.debug.crash=net

run() { # NAME IMAGE [RESULTS [EXIT]]
	local rc=0
	bb_timeout 900 "$BENCHBOOT" run --image "$2" --accel tcg --cpus 1 --deadline 600 \
		-o "${3:-$T/res}" >"$T/$1.out" 2>&1 || rc=$?
	cat "$T/$1.out"
	expect_eq "$1: exit code" "$rc" "${4:-0}"
	[ "${4:-0}" != 0 ] || expect_grep "boot 1/1: finished in" "$T/$1.out"
}

run stall "$T/stallimg"
expect_grep "the kernel reported 2 lockup or stall reports, the first: \[ *[0-9.]*\] rcu: INFO: rcu_preempt detected stalls" "$T/stall.out"
expect_grep "finished (kernel lockup or stall reports: 2)" "$T/stall.out"
run clean "$T/img/img"
if grep -q "lockup or stall" "$T/clean.out"; then fail "clean: a stall report was counted"; fi

stalled=$(cd "$T/res" && ls -d 0001-*)
clean=$(cd "$T/res" && ls -d 0002-*)
[ -n "$stalled" ] && [ -n "$clean" ] || { ls -la "$T/res"; fail "the two boots were not collected"; }
expect_grep '"kernel_stalls": 2' "$T/res/run.json"
bb_compare "$T/cmp.out" "$T/res" --a "boot=$stalled" --b "boot=$clean"
expect_grep "^  boot .*/$stalled: the kernel reported 2 lockup or stall reports during the boot, the first: \[ *[0-9.]*\] rcu: INFO: rcu_preempt detected stalls" "$T/cmp.out"
if grep -q "$clean: the kernel reported" "$T/cmp.out"; then fail "compare: the clean boot has a stall note"; fi
expect_grep "^A: boot=$stalled (1 boot, 1 with kernel lockup or stall reports)$" "$T/cmp.out"
expect_grep "^B: boot=$clean (1 boot)$" "$T/cmp.out"
stat=dmesg.INFO:rcu_preempt_detected_stalls_on_CPUs/tasks
expect_grep "^          1:1 .*% .*:1     $stat$" "$T/cmp.out"
expect_grep "kernel report.* changed by LKP's rule for failure stats" "$T/cmp.out"
# the boot folders alone (as collected from their disks, no run.json, no console log): the
# init's kmsg.log on the results disk gives the same
expect_grep "^\[ *[0-9.]*\] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:$" "$T/res/$stalled/kmsg.log"
expect_grep "^\[ *[0-9.]*\] Run /init as init process$" "$T/res/$clean/kmsg.log"
mkdir "$T/disk-only"
cp -r "$T/res/$stalled" "$T/res/$clean" "$T/disk-only/"
bb_compare "$T/cmp-disk.out" "$T/disk-only" --a "boot=$stalled" --b "boot=$clean"
expect_grep "^          1:1 .*% .*:1     $stat$" "$T/cmp-disk.out"
"$BENCHBOOT" compare "$T/res" --a "boot=$stalled" --b "boot=$clean" --json >"$T/cmp.json" || [ $? = 1 ]
grep -q "$stalled: the kernel reported 2 lockup or stall reports" "$T/cmp.json" ||
	fail "compare --json: no stall note"
python3 - "$T/cmp.json" <<'PY' || fail "compare --json: boots_with_kernel_stalls"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["a"]["boots_with_kernel_stalls"] == 1 and c["b"]["boots_with_kernel_stalls"] == 0, (c["a"], c["b"])
f = [s for s in c["failure_stats"] if s["name"] == "dmesg.INFO:rcu_preempt_detected_stalls_on_CPUs/tasks"]
assert len(f) == 1 and f[0]["a"] == {"fails": 1, "runs": 1} and f[0]["b"]["runs"] == 1, f
assert "rcu: INFO: rcu_preempt detected stalls" in f[0]["first_line"], f
# LKP's rule: changed when the clean boot never showed it (a busy host can stall it too)
assert f[0]["lkp_changed"] == (f[0]["b"]["fails"] == 0), f
PY
# the exit code says a change when a report is new or gone (when the clean boot had none)
rc=0
"$BENCHBOOT" compare "$T/res" --a "boot=$clean" --b "boot=$stalled" >/dev/null || rc=$?
if grep -q "^          1:1 .*%  *:1     $stat$" "$T/cmp.out"; then expect_eq "compare exit code" "$rc" 1; fi

# B: a clean boot and one that left no run results
run clean2 "$T/img/img" "$T/res2"
run crash "$T/crashimg" "$T/res2" 1
expect_grep "benchboot's init crashed" "$T/crash.out"
bb_compare "$T/cmp2.out" "$T/res" "$T/res2"
expect_grep "^B: $T/res2 (1 boot; 1 more without run results)$" "$T/cmp2.out"
expect_grep "^  B: a boot has no run results ($T/res2/run.json entry 2, kernel=[^)]*): init-crash: .*(console log: $T/res2/console/.*)$" "$T/cmp2.out"
"$BENCHBOOT" compare "$T/res" "$T/res2" --json >"$T/cmp2.json" || [ $? = 1 ]
python3 - "$T/cmp2.json" <<'PY' || fail "compare --json: boots_without_results"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["a"]["boots_without_results"] == 0 and c["b"]["boots_without_results"] == 1, (c["a"], c["b"])
# the crashed boot counts among B's boots in fail:runs
for f in c["failure_stats"]:
    assert f["b"]["runs"] == 2, f
PY
echo "stall compare ok"
