# benchboot run of a two-host job with one host missing or dying (TCG): (1) --only client, the
# server host never comes up: the client host reports it (peer status=timeout), its runs fail
# with that reason, it powers off in bounded time, run ends with exit 1; (2) the client host's
# QEMU killed (by its pid) during its run: the server host reports it (peer status=lost), fails
# the iteration and powers off; run says which host died and ends with exit 111 (a QEMU was
# killed), the server host's results collected; (3) with --repeat 2, the server host's QEMU
# killed: the run ends after that two-host boot, as a one-host run ends when QEMU fails.
# Nothing runs past its deadline.
. tests/lib.sh
bb_need init netperf qemu
cat >"$T/job.yaml" <<'JOB'
suite: netperf
cluster: cs-qemu-pair
runtime: 20s
timeout: 5s
nr_threads: 1
if role server:
  netserver:
if role client:
  netperf:
    test: TCP_STREAM
JOB

# (1) the server host missing
rc=0
start=$(date +%s)
bb_timeout 300 "$BENCHBOOT" run "$T/job.yaml" --accel tcg --images "$T/images" -o "$T/miss" \
	--only client --append benchboot.cluster.wait=10 >"$T/miss.out" 2>&1 || rc=$?
cat "$T/miss.out"
expect_eq "server host missing: exit code" $rc 1
expect_grep "^boot 1/1 server: not booted (--only client): host bb-server is elsewhere" "$T/miss.out"
expect_grep "^boot 1/1 client: peer status=timeout" "$T/miss.out"
expect_grep "^boot 1/1 client: run 1/1 TCP_STREAM iteration 1: failed .*peer" "$T/miss.out"
expect_grep "^boot 1/1 client: finished in" "$T/miss.out"
expect_grep "client host finished (failed runs)" "$T/miss.out"
expect_vcpu_warning "$T/miss.out" "$T/miss/run.json" 2 # --only: one VM runs
B=$(find "$T/miss" -mindepth 1 -maxdepth 1 -name '0*-*' -type d)
expect_grep '"status": "failed"' "$B"/runs/TCP_STREAM/1/status
echo "server host missing: $(($(date +%s) - start)) s"

# (2) the client host killed mid-run
"$BENCHBOOT" run "$T/job.yaml" --accel tcg --images "$T/images" -o "$T/kill" \
	>"$T/kill.out" 2>&1 &
run=$!
BB_PIDS+=("$run")
pid=
for _ in $(seq 600); do
	pid=$(sed -n 's/^boot 1\/1 client: QEMU pid \([0-9]*\),.*/\1/p' "$T/kill.out")
	grep -q "^boot 1/1 client: run 1/1 TCP_STREAM iteration 1/1" "$T/kill.out" && break
	kill -0 "$run" 2>/dev/null || break
	sleep 0.5
done
[ -n "$pid" ] || { cat "$T/kill.out"; fail "no client QEMU pid"; }
grep -q "^boot 1/1 client: run 1/1 TCP_STREAM iteration 1/1" "$T/kill.out" ||
	{ cat "$T/kill.out"; fail "the client's run never started"; }
sleep 3
killed=$(date +%s)
kill -KILL "$pid"
rc=0
bb_timeout 200 tail --pid="$run" -f /dev/null || true
wait "$run" || rc=$?
cat "$T/kill.out"
echo "run ended $(($(date +%s) - killed)) s after the client host was killed"
expect_eq "client host killed: exit code" $rc 111
expect_grep "^boot 1/1 client: FAILED (qemu-failed after .*QEMU killed by signal 9" "$T/kill.out"
expect_grep "^boot 1/1 server: peer status=lost" "$T/kill.out"
expect_grep "^boot 1/1 server: run 1/1 TCP_STREAM iteration 1: failed" "$T/kill.out"
expect_grep "^boot 1/1 server: finished in" "$T/kill.out"
expect_grep "server host finished (failed runs), server-host/0" "$T/kill.out"
ls "$T"/kill/server-host/0*-*/runs/TCP_STREAM/1/status >/dev/null || fail "the server host's side is not collected"
if pgrep -f -- "$T/images" >/dev/null; then fail "a QEMU is still running"; fi

# (3) --repeat 2 with the server host's QEMU killed as it starts: as for one host, a QEMU that
# fails ends the run (either host's): the client host reports its missing peer and powers off,
# run ends with exit 111 after boot 1/2, no second two-host boot
"$BENCHBOOT" run "$T/job.yaml" --accel tcg --images "$T/images" -o "$T/srv" --repeat 2 \
	--append benchboot.cluster.wait=10 >"$T/srv.out" 2>&1 &
run=$!
BB_PIDS+=("$run")
pid=
for _ in $(seq 600); do
	pid=$(sed -n 's/^boot 1\/2 server: QEMU pid \([0-9]*\),.*/\1/p' "$T/srv.out")
	[ -n "$pid" ] && break
	kill -0 "$run" 2>/dev/null || break
	sleep 0.2
done
[ -n "$pid" ] || { cat "$T/srv.out"; fail "no server host QEMU pid"; }
kill -KILL "$pid"
rc=0
bb_timeout 200 tail --pid="$run" -f /dev/null || true
wait "$run" || rc=$?
cat "$T/srv.out"
expect_eq "server host killed, --repeat 2: exit code" $rc 111
expect_grep "^boot 1/2 server: FAILED (qemu-failed after .*QEMU killed by signal 9" "$T/srv.out"
expect_grep "^boot 1/2 client: peer status=timeout" "$T/srv.out"
expect_grep "^boot 1/2 client: finished in" "$T/srv.out"
if grep -q "^boot 2/2 " "$T/srv.out"; then fail "a second two-host boot after the server host's QEMU failed"; fi
expect_grep "server host qemu-failed: QEMU killed by signal 9" "$T/srv.out"
if pgrep -f -- "$T/images" >/dev/null; then fail "a QEMU is still running"; fi
