# benchboot run --until: two kernels (the pinned kernel under two names), a short netperf
# TCP_STREAM job; boots alternate A, B, A, B and after every boot the interval of the
# throughput's %change is shown, at the confidence that keeps 95% over the looks. (1) --until
# 1000% stops by itself once the interval (2 boots a side at least) is within +/-1000% (wide:
# boot-to-boot spread of this job under TCG is tens of %, and the first looks' intervals have
# one or two degrees of freedom at 99.29%) or excludes 0 by more; (2) --until
# 0.01% --max-boots 2 stops at the limit, saying so. Bad uses of the options are refused
# (exit 100).
# tests/run: alone (it stops when an interval settles)
. tests/lib.sh
bb_need init netperf qemu
kernel=$(ls "$SYSROOT"/boot/vmlinuz-* 2>/dev/null | sed -n 1p)
[ -n "$kernel" ] || skip "no pinned kernel (make fetch)"
cat >"$T/until.yaml" <<'JOB'
suite: netperf
runtime: 3s
iterations: 2
nr_threads: 1
cluster: cs-localhost
netperf:
  test: TCP_STREAM
  send_size: 16K
JOB

until_run() { # NAME EXPECTED_EXIT ARGS...
	local name=$1 want=$2 rc=0
	shift 2
	bb_timeout 1200 nice "$BENCHBOOT" run "$T/until.yaml" --kernel "A=$kernel" --kernel "B=$kernel" \
		--accel tcg --images "$T/images" -o "$T/res-$name" "$@" >"$T/$name.out" 2>&1 || rc=$?
	cat "$T/$name.out"
	expect_eq "$name: exit code" "$rc" "$want"
}

until_run settle 0 --until 1000% --max-boots 10
# 10 boots: an interval from the fourth on, 7 looks, each at 1 - 5%/7
expect_grep "^until 1000%: each interval at 99.29% confidence: 95% spread over the 7 looks that --max-boots 10 allows" "$T/settle.out"
expect_grep "^until 1000%: .*no run with kernel=B yet" "$T/settle.out"
expect_grep "^until 1000%: .*netperf.Throughput_Mbps .*\[no interval yet: 2 boots a side needed\] (1 boot A, 1 boot B): not settled" "$T/settle.out"
expect_grep "^until 1000%: .*netperf.Throughput_Mbps [-+][0-9.]*% \[[-+u].*\] (2 boots A, 2 boots B)" "$T/settle.out"
expect_grep "^until: stopped: netperf.Throughput_Mbps .*: the interval \(is within the target of its estimate\|excludes 0 by more than the target\)" "$T/settle.out"
boots=$(grep -c "^  boot [0-9]*: kernel [AB], group 0: finished" "$T/settle.out")
checks=$(grep "^until 1000%: " "$T/settle.out" | grep -vc "^until 1000%: each interval at")
[ "$boots" -ge 4 ] && [ "$boots" -lt 10 ] || fail "settled after $boots boots (want 4 to 9)"
expect_eq "an interval line after every boot" "$checks" "$boots"
# A, B, A, B
grep "^  boot [0-9]*: kernel" "$T/settle.out" | sed -n 's/^  boot \([0-9]*\): kernel \([AB]\).*/\1\2/p' |
	tr -d '\n' | contains "^1A2B3A4B" || fail "boots do not alternate A, B, A, B"

until_run limit 0 --until 0.01% --max-boots 2
expect_grep "^until: stopped: --max-boots 2 reached; last: .*no interval yet" "$T/limit.out"
expect_grep "^  boot 2: kernel B" "$T/limit.out"

rc=0
"$BENCHBOOT" run "$T/until.yaml" --until 2% -o "$T/res-x" --accel tcg >"$T/x.out" 2>&1 || rc=$?
expect_eq "--until with one kernel: exit code" "$rc" 100
expect_grep "two kernels" "$T/x.out"
rc=0
"$BENCHBOOT" run "$T/until.yaml" --until 2% --repeat 3 >"$T/y.out" 2>&1 || rc=$?
expect_eq "--until with --repeat: exit code" "$rc" 100
rc=0
"$BENCHBOOT" run "$T/until.yaml" --max-boots 3 >"$T/z.out" 2>&1 || rc=$?
expect_eq "--max-boots without --until: exit code" "$rc" 100
