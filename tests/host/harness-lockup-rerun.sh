# The QEMU tests' one rerun (tests/run, tests/lockup.inc, tests/lib.sh's kernel_lockup_note):
# a boot test that failed with the guest kernel's own lockup report in its output is run once
# more, with a RERUN line and a NOTE: naming the report; one that failed without one, that
# locked up twice, or a host test, fails. tests/run runs here on a tree of its own whose tests
# play the outcomes; kernel_lockup_note reads the console text of a real 6.1 soft lockup.
. tests/lib.sh

lockup_log() { # FILE: a console log whose kernel locked up
	cat >"$1" <<'LOG'
[    2.812345] Run /init as init process
BENCHBOOT boot-start id=1
[   48.416900] watchdog: BUG: soft lockup - CPU#0 stuck for 45s! [init:86]
[   48.417100] CPU: 0 PID: 86 Comm: init Not tainted 6.1.0-57-amd64 #1  Debian 6.1.192-3
[   48.417300] RIP: 0010:kmem_cache_alloc_bulk+0x1a4/0x2f0
[   48.417400] Call Trace:
LOG
}

# no lockup anywhere: 1, nothing printed
printf '[    1.0] Run /init as init process\nBENCHBOOT boot-start id=1\n' >"$T/clean.log"
out=$(kernel_lockup_note "clean" "$T/clean.log" "$T/absent.log") && fail "a clean log was taken for a lockup"
expect_eq "kernel_lockup_note's output for a clean log" "$out" ""
# a soft lockup, with CRs as the serial console writes them
lockup_log "$T/lock.log"
sed -i 's/$/\r/' "$T/lock.log"
out=$(kernel_lockup_note "boot 1" "$T/clean.log" "$T/lock.log") || fail "the soft lockup was not seen"
expect_eq "the note" "$out" "NOTE: boot 1: the guest kernel locked up: [   48.416900] watchdog: BUG: soft lockup - CPU#0 stuck for 45s! [init:86]; RIP: 0010:kmem_cache_alloc_bulk+0x1a4/0x2f0; console: $T/lock.log"
printf '[   22.7] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n' >"$T/rcu.log"
kernel_lockup_note "rcu" "$T/rcu.log" | contains -F "rcu_preempt detected stalls on CPUs/tasks:; no RIP: line" ||
	fail "an RCU stall without a RIP: line"

# tests/run in a tree of its own: fake tests that count their runs in $BB_FAKE and print what
# a failed boot test prints, with or without benchboot run's line for the kernel's reports
tree=$T/tree
mkdir -p "$tree/tests/qemu" "$tree/tests/host" "$tree/config" "$T/fake"
cp tests/run tests/lib.sh tests/lockup.inc "$tree/tests/"
cp config/inputs.lock "$tree/config/"
fake() { # NAME DIR SCRIPT: a test that counts its run, then runs SCRIPT
	printf 'echo run >>"$BB_FAKE/%s"\nn=$(wc -l <"$BB_FAKE/%s")\n%s\n' "$1" "$1" "$3" >"$tree/tests/$2/$1.sh"
}
report='    boot 2/4: the kernel reported 11 lockup or stall reports, the first: [   48.416900] watchdog: BUG: soft lockup - CPU#0 stuck for 45s! [init:86]'
fake lockup-once qemu "[ \$n = 2 ] && { echo NOTE: second run; exit 0; }; echo '$report'; exit 1"
fake lockup-twice qemu "echo '$report'; exit 1"
fake plain-fail qemu "echo 'boot 1/1: FAILED (crash)'; exit 1"
fake host-lockup host "echo '$report'; exit 1"
(cd "$tree" && BB_FAKE=$T/fake SYSROOT=$T B=build tests/run --lanes 1 lockup-once lockup-twice plain-fail host-lockup) >"$T/run.out" 2>&1 &&
	fail "tests/run passed with tests that fail"
cat "$T/run.out"
expect_eq "runs of a test that locked up once" "$(wc -l <"$T/fake/lockup-once")" 2
expect_eq "runs of a test that locked up twice" "$(wc -l <"$T/fake/lockup-twice")" 2
expect_eq "runs of a test that failed without a lockup" "$(wc -l <"$T/fake/plain-fail")" 1
expect_eq "runs of a host test with a lockup line" "$(wc -l <"$T/fake/host-lockup")" 1
expect_grep "^RERUN tests/qemu/lockup-once.sh (exit 1 after [0-9]*s): the guest kernel locked up: boot 2/4: the kernel reported 11 lockup or stall reports, the first: .*soft lockup - CPU#0" "$T/run.out"
expect_grep "^PASS tests/qemu/lockup-once.sh " "$T/run.out"
expect_grep "^    NOTE: run twice, the first time failed with the guest kernel's lockup: boot 2/4: " "$T/run.out"
expect_grep "^    NOTE: second run$" "$T/run.out"
expect_grep "^FAIL tests/qemu/lockup-twice.sh " "$T/run.out"
expect_grep "^FAIL tests/qemu/plain-fail.sh " "$T/run.out"
expect_grep "^FAIL tests/host/host-lockup.sh " "$T/run.out"
grep -q "^RERUN tests/\(qemu/plain-fail\|host/host-lockup\)" "$T/run.out" && fail "a test rerun without a boot test's lockup"
expect_grep "^1 passed, 3 failed, 0 skipped$" "$T/run.out"
echo "tests/run: a boot test's lockup is run once more with a RERUN line and a NOTE:; two lockups, another failure or a host test fail"
