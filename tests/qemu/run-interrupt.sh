# Ctrl-C during a boot: benchboot run stops the VM cleanly (no QEMU left), says so, exits 1.
. tests/lib.sh
. tests/qemu/busybox-init.inc
busybox_initramfs int 'echo "BENCHBOOT boot-start id=tiny-int runs=1 iterations=1 job=tiny cpus=2"
echo waiting for ctrl-c
sleep 100000'

timeout --signal=KILL 600 "$BENCHBOOT" run --initrd "$T/int.cpio.gz" --no-disk --accel tcg \
	--deadline 500 -o "$T/out" >"$T/run.out" 2>&1 &
pid=$!
BB_PIDS+=("$pid")
for _ in $(seq 1 300); do
	grep -q "waiting for ctrl-c" "$T"/out/console/*.log 2>/dev/null && break
	sleep 1
done
grep -q "waiting for ctrl-c" "$T"/out/console/*.log || fail "the guest did not get to its init"
pgrep -f -- "$T/int.cpio.gz" | grep -v "^$pid\$" >/dev/null || fail "no QEMU running before the interrupt"
start=$(date +%s)
kill -INT "$pid"
set +e
wait "$pid"
rc=$?
set -e
took=$(($(date +%s) - start))
cat "$T/run.out"
expect_eq "exit code after Ctrl-C" $rc 1
[ "$took" -le 15 ] || fail "benchboot took $took s to stop the VM"
expect_grep "FAILED (interrupted after" "$T/run.out"
expect_grep "interrupted: the VM was stopped" "$T/run.out"
expect_grep '"outcome": "interrupted"' "$T/out/run.json"
if pgrep -f -- "$T/int.cpio.gz" >/dev/null; then fail "a QEMU is still running"; fi
