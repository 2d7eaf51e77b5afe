# Ctrl-C during a boot: benchboot run stops the VM cleanly (no QEMU left), says so, exits 1.
# tests/run: alone (two VMs side by side, pinned)
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

# Ctrl-C during two boots side by side (--parallel 2, one vCPU each, so both fit on a 2-CPU
# host): both VMs stop, neither QEMU process (the pids the run names) is left, exit 1.
timeout --signal=KILL 600 "$BENCHBOOT" run --initrd "$T/int.cpio.gz" --no-disk --accel tcg \
	--deadline 500 --cpus 1 --repeat 2 --parallel 2 -o "$T/par" >"$T/par.out" 2>&1 &
pid=$!
BB_PIDS+=("$pid")
for _ in $(seq 1 300); do
	[ "$(grep -l "waiting for ctrl-c" "$T"/par/console/*.log 2>/dev/null | wc -l)" = 2 ] && break
	sleep 1
done
[ "$(grep -l "waiting for ctrl-c" "$T"/par/console/*.log 2>/dev/null | wc -l)" = 2 ] ||
	{ cat "$T/par.out"; fail "the two guests did not both get to their init"; }
mapfile -t qpids < <(sed -n 's/^boot [12]\/2: QEMU pid \([0-9]*\)$/\1/p' "$T/par.out")
[ "${#qpids[@]}" = 2 ] || { cat "$T/par.out"; fail "QEMU pids named: ${#qpids[@]}, not 2"; }
for q in "${qpids[@]}"; do
	kill -0 "$q" 2>/dev/null || fail "QEMU $q is not running before the interrupt"
done
kill -INT "$pid"
set +e
wait "$pid"
rc=$?
set -e
cat "$T/par.out"
expect_eq "side by side: exit code after Ctrl-C" $rc 1
expect_grep "interrupted: the VMs were stopped" "$T/par.out"
expect_eq "side by side: boots interrupted" "$(grep -c '"outcome": "interrupted"' "$T/par/run.json")" 2
for q in "${qpids[@]}"; do
	if kill -0 "$q" 2>/dev/null; then fail "QEMU $q is still running after Ctrl-C"; fi
done
