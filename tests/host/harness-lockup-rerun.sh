# The QEMU tests' one rerun (tests/qemu/job.inc's job_run, tests/lib.sh's kernel_lockup_note):
# a run that failed with the guest kernel's own lockup report in a console log is run once
# more, and a NOTE: line names the report and where the CPU was; a run that failed without
# one, or locked up twice, fails the test. `benchboot run` is played by a script here: what is
# tested is the harness's decision, on the console text of a real 6.1 soft lockup report.
. tests/lib.sh
. tests/qemu/job.inc

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

# fake_run MODES...: BENCHBOOT is a script whose Nth call plays MODES[N]: lockup (a console log
# with the report, exit 1), fail (a console log without one, exit 1), ok (exit 0)
fake_run() {
	printf '%s\n' "$@" >"$T/modes"
	: >"$T/calls"
	cat >"$T/benchboot" <<EOF
#!/bin/bash
echo call >>"$T/calls"
mode=\$(sed -n "\$(wc -l <"$T/calls")p" "$T/modes")
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && res=\$2; shift; done
mkdir -p "\$res/console"
case \$mode in
lockup) cat "$T/lock.log" >"\$res/console/boot1.log"; echo "boot 1/1: FAILED (hang)"; exit 1 ;;
fail) cp "$T/clean.log" "\$res/console/boot1.log"; echo "boot 1/1: FAILED (crash)"; exit 1 ;;
ok) echo "boot 1/1: ok"; exit 0 ;;
esac
EOF
	chmod +x "$T/benchboot"
	BENCHBOOT=$T/benchboot
	rm -rf "$T/res" "$T/res.lockup"
}

fake_run lockup ok
(job_run "$T/job.yaml") >"$T/once" 2>&1 || { cat "$T/once"; fail "a run that locked up once, then passed, failed the test"; }
expect_eq "runs after one lockup" "$(wc -l <"$T/calls")" 2
expect_grep "^NOTE: benchboot run $T/job.yaml (run once more): the guest kernel locked up: .*soft lockup - CPU#0 .*RIP: 0010:kmem_cache_alloc_bulk" "$T/once"
expect_grep "^boot 1/1: ok" "$T/once"
[ -d "$T/res.lockup/console" ] || fail "the locked-up run's folder was not kept beside the new one"

fake_run lockup lockup
(job_run "$T/job.yaml") >"$T/twice" 2>&1 && fail "two lockups in a row passed"
expect_eq "runs after two lockups" "$(wc -l <"$T/calls")" 2
expect_grep "exit code: got '1', expected '0'" "$T/twice"

fake_run fail ok
(job_run "$T/job.yaml") >"$T/plain" 2>&1 && fail "a failed run without a lockup was run again and passed"
expect_eq "runs after a failure without a lockup" "$(wc -l <"$T/calls")" 1
grep -q "^NOTE:" "$T/plain" && fail "a NOTE: for a failure without a lockup"
echo "job_run: a lockup is run once more with a NOTE:, two lockups or another failure fail"
