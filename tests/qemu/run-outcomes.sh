# benchboot run on hand-made busybox initramfs images (GNU cpio): a boot that powers off, one
# whose kernel panics (sysrq crash), one that hangs (no console output), one past its
# deadline, one that powers off before its plan ends, one whose kernel reports a stall and
# goes on, one whose kernel reports a stall and then panics, one whose kernel reports a stall
# and then only repeats it: each reported as such, with its console log; exit codes; no VM
# left behind.
# tests/run: alone (boots held to 30 s silence limits)
. tests/lib.sh
bb_need qemu
. tests/qemu/busybox-init.inc

busybox_initramfs ok 'echo "BENCHBOOT boot-start id=tiny-ok runs=1 iterations=1 job=tiny cpus=2"
echo "BENCHBOOT run-start id=r1 iter=1/1 runtime=1 clients=1"
sleep 1
echo "benchboot: r1 iteration 1: tiny.value = 42 ops"
echo "BENCHBOOT run-end id=r1 iter=1 status=ok elapsed=1.00 init_ticks=0 init_cpu_us=0 reason=-"
echo "BENCHBOOT boot-end id=tiny-ok ok=1 failed=0"
poweroff -f'
busybox_initramfs panic 'echo "BENCHBOOT boot-start id=tiny-panic runs=1 iterations=1 job=tiny cpus=2"
echo c > /proc/sysrq-trigger'
busybox_initramfs hang 'echo "BENCHBOOT boot-start id=tiny-hang runs=1 iterations=1 job=tiny cpus=2"
echo "hanging now"
sleep 100000'
busybox_initramfs early 'echo "BENCHBOOT boot-start id=tiny-early runs=1 iterations=1 job=tiny cpus=2"
poweroff -f'
# a stall report as the kernel prints it (through /dev/kmsg, so it comes out timestamped, as a
# kernel line): no kernel here stalls on demand (no rcutorture, lkdtm or test_lockup modules)
stall='mount -t devtmpfs dev /dev
echo "<3>rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:" >/dev/kmsg'
busybox_initramfs stall "echo 'BENCHBOOT boot-start id=tiny-stall runs=1 iterations=1 job=tiny cpus=2'
$stall
echo '<3>rcu: 	1-...!: (0 ticks this GP) idle=f4c/0/0x0 softirq=0/0 fqs=0' >/dev/kmsg
echo 'BENCHBOOT run-start id=r1 iter=1/1 runtime=1 clients=1'
echo 'benchboot: r1 iteration 1: tiny.value = 42 ops'
echo 'BENCHBOOT run-end id=r1 iter=1 status=ok elapsed=1.00 init_ticks=0 init_cpu_us=0 reason=-'
echo 'BENCHBOOT boot-end id=tiny-stall ok=1 failed=0'
poweroff -f"
busybox_initramfs stuck "echo 'BENCHBOOT boot-start id=tiny-stuck runs=1 iterations=1 job=tiny cpus=2'
echo 'last word from user space'
$stall
while true; do sleep 3; echo '<3>rcu: 	(detected by 0, t=5252 jiffies, g=1, q=1)' >/dev/kmsg; done"
busybox_initramfs stallpanic "echo 'BENCHBOOT boot-start id=tiny-stallpanic runs=1 iterations=1 job=tiny cpus=2'
$stall
echo c >/proc/sysrq-trigger"
busybox_initramfs slow 'echo "BENCHBOOT boot-start id=tiny-slow runs=1 iterations=1 job=tiny cpus=2"
while true; do echo still working; sleep 2; done'

boot() { # NAME EXPECTED_EXIT ARGS...
	local name=$1 want=$2 rc=0
	shift 2
	bb_timeout 600 "$BENCHBOOT" run --initrd "$T/$name.cpio.gz" --no-disk --accel tcg \
		-o "$T/out-$name" "$@" >"$T/$name.out" 2>&1 || rc=$?
	cat "$T/$name.out"
	expect_eq "$name: exit code" "$rc" "$want"
	if pgrep -f -- "$T/$name.cpio.gz" >/dev/null; then
		fail "$name: a QEMU is still running"
	fi
}
# Two rounds of boots side by side, the checks after them: first the five held only to the
# default silence limit (the boot allowance), five TCG VMs at once; then the three held to
# tight ones (hang 60 s, stuck 30 s, slow 50 s), beside each other only: a boot's first console
# line may take over 30 s when more TCG VMs share the host's CPUs. A boot's lines go to
# $T/NAME.bg, shown when its round ends.
declare -A bg_pid=()
boot_bg() { # NAME EXPECTED_EXIT ARGS...
	(boot "$@") >"$T/$1.bg" 2>&1 &
	bg_pid[$1]=$!
}
boot_wait() { # NAME
	local rc=0
	wait "${bg_pid[$1]}" || rc=$?
	cat "$T/$1.bg"
	[ "$rc" = 0 ] || fail "$1: see above"
}
boot_bg ok 0 --deadline 400
boot_bg panic 1 --deadline 400
boot_bg stall 0 --deadline 400
boot_bg stallpanic 1 --deadline 400
boot_bg early 1 --deadline 400
for name in ok panic stall stallpanic early; do boot_wait $name; done
# silence: long enough for a slow TCG boot to print its first lines, then the init hangs
boot_bg hang 1 --deadline 400 --silence 60
boot_bg stuck 1 --deadline 400 --silence 30
boot_bg slow 1 --deadline 60 --silence 50
for name in hang stuck slow; do boot_wait $name; done

expect_grep "booted (.*), boot id tiny-ok, 1 run" "$T/ok.out"
expect_grep "run 1/1 r1 iteration 1: ok in 1.0 s, tiny.value = 42 ops" "$T/ok.out"
expect_grep "boot 1/1: finished in" "$T/ok.out"
expect_grep '"outcome": "poweroff"' "$T/out-ok/run.json"
expect_grep '"finished": true' "$T/out-ok/run.json"
expect_grep "BENCHBOOT boot-end id=tiny-ok" "$T"/out-ok/console/*.log

expect_grep "FAILED (panic after .*Kernel panic - not syncing: sysrq triggered crash" "$T/panic.out"
expect_grep '"outcome": "panic"' "$T/out-panic/run.json"
expect_grep "Kernel panic - not syncing" "$T"/out-panic/console/*.log

expect_grep "FAILED (hang after .*no console output for 60 s (last line: hanging now)" "$T/hang.out"
expect_grep '"outcome": "hang"' "$T/out-hang/run.json"

# a stall report, then user space goes on: the boot finishes, the report is kept
expect_grep "the kernel reported 1 lockup or stall report, the first: \[ *[0-9.]*\] rcu: INFO: rcu_preempt detected stalls" "$T/stall.out"
expect_grep "boot 1/1: finished in" "$T/stall.out"
expect_grep "finished (kernel lockup or stall reports: 1)" "$T/stall.out"
expect_grep '"outcome": "poweroff"' "$T/out-stall/run.json"
expect_grep '"kernel_stalls": 1' "$T/out-stall/run.json"
expect_grep '"kernel_stall": "\[ *[0-9.]*\] rcu: INFO: rcu_preempt detected stalls' "$T/out-stall/run.json"
expect_grep '"kernel_stalls": 0' "$T/out-ok/run.json"
# and every report as LKP's dmesg stat, with its first line; none in a clean boot
dmesg_of() { # RUN.JSON: the boot's "dmesg", one "STAT: LINE" a line (none: nothing)
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["boots"][0]["dmesg"]
assert isinstance(d, dict), d
for k, v in d.items(): print(k + ": " + v)' "$1"
}
dmesg_of "$T/out-stall/run.json" >"$T/stall.dmesg"
expect_grep '^dmesg.INFO:rcu_preempt_detected_stalls_on_CPUs/tasks: \[ *[0-9.]*\] rcu: INFO: rcu_preempt detected stalls' "$T/stall.dmesg"
dmesg_of "$T/out-ok/run.json" >"$T/ok.dmesg"
[ ! -s "$T/ok.dmesg" ] || { cat "$T/ok.dmesg"; fail "ok: kernel reports in a clean boot"; }

# a stall report, then a panic (as in a boot whose vCPU the busy host did not run): the panic
expect_grep "FAILED (panic after .*Kernel panic - not syncing: sysrq triggered crash" "$T/stallpanic.out"
expect_grep '"kernel_stalls": 1' "$T/out-stallpanic/run.json"
dmesg_of "$T/out-stallpanic/run.json" >"$T/stallpanic.dmesg"
expect_grep '^dmesg.Kernel_panic-not_syncing:sysrq_triggered_crash: \[ *[0-9.]*\] Kernel panic - not syncing: sysrq triggered crash' "$T/stallpanic.dmesg"

# a stall report, then only the kernel's lines: a hang once the silence limit has passed,
# though the console never goes quiet
expect_grep "FAILED (hang after .*nothing but kernel reports for 30 s since: \[ *[0-9.]*\] rcu: INFO: rcu_preempt detected stalls" "$T/stuck.out"
[ "$(grep -c "detected by 0" "$T"/out-stuck/console/*.log)" -ge 3 ] ||
	fail "stuck: the kernel's repeated lines did not reach the console"

# talks all the time but never ends: the deadline stops it
expect_grep "FAILED (deadline after 6[0-9] s): still running after the deadline of 60 s" "$T/slow.out"
expect_grep "still working" "$T"/out-slow/console/*.log

# powered off before the end of the plan: a failed boot too
expect_grep "FAILED (poweroff after .*the VM stopped before the init reported boot-end" "$T/early.out"

# QEMU itself failing (a kernel that does not exist) is a system failure
set +e
"$BENCHBOOT" run --initrd "$T/ok.cpio.gz" --kernel "$T/no-such-vmlinuz" --no-disk -o "$T/out-x" >"$T/x.out" 2>&1
rc=$?
set -e
expect_eq "missing kernel: exit code" $rc 100
expect_grep "unable to read .*no-such-vmlinuz" "$T/x.out"
