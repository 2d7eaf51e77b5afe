# A run longer than the silence allowed outside runs is not a hang: `--silence 25` (what the
# boot allowance is by default: 60 s under KVM) and a 32 s run that prints a line 2 s in (as
# the init's BENCHBOOT proc lines and kernel messages do) and then nothing for 28 s. The
# run-start line raises the silence limit to runtime + grace + 60 s and that limit holds until
# the run-end line, whatever is printed in between; after run-end the 25 s are the limit again
# (a boot silent after its run is a hang). 25 s, not less: a loaded 2-core machine may take
# over 10 s to print the kernel's first line under TCG.
# tests/run: alone (a 25 s silence limit against a 28 s silent stretch)
. tests/lib.sh
bb_need qemu
. tests/qemu/busybox-init.inc

run_body='echo "BENCHBOOT boot-start id=long-run runs=1 iterations=1 job=tiny cpus=2"
echo "BENCHBOOT run-start id=r1 iter=1/1 runtime=32 clients=1"
sleep 2
echo "BENCHBOOT proc pid=99 comm=netperf state=S"
sleep 28
echo "benchboot: r1 iteration 1: tiny.value = 42 ops"
echo "BENCHBOOT run-end id=r1 iter=1 status=ok elapsed=32.00 init_ticks=0 init_cpu_us=0 reason=-"'
busybox_initramfs long "$run_body
echo \"BENCHBOOT boot-end id=long-run ok=1 failed=0\"
poweroff -f"
busybox_initramfs after "$run_body
echo \"silent after the run\"
sleep 100000"

boot() { # NAME EXPECTED_EXIT
	local rc=0
	bb_timeout 400 "$BENCHBOOT" run --initrd "$T/$1.cpio.gz" --no-disk --accel tcg \
		--silence 25 --deadline 300 -o "$T/out-$1" >"$T/$1.out" 2>&1 || rc=$?
	cat "$T/$1.out"
	expect_eq "$1: exit code" "$rc" "$2"
}
# the two boots side by side (two TCG VMs on a 2-core machine: each its CPU's worth)
(boot long 0) >"$T/long.bg" 2>&1 &
long_pid=$!
(boot after 1) >"$T/after.bg" 2>&1 &
after_pid=$!
for name in long after; do
	pid=${name}_pid
	rc=0
	wait "${!pid}" || rc=$?
	cat "$T/$name.bg"
	[ "$rc" = 0 ] || fail "$name: see above"
done
expect_grep "run 1/1 r1 iteration 1: ok in 32.0 s, tiny.value = 42 ops" "$T/long.out"
expect_grep "boot 1/1: finished in" "$T/long.out"
expect_grep "run 1/1 r1 iteration 1: ok in 32.0 s" "$T/after.out"
expect_grep "FAILED (hang after .*no console output for 25 s (last line: silent after the run)" "$T/after.out"
