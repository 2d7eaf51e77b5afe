# benchboot run --parallel 2 when one VM of a pair goes wrong: two kernels (the pinned kernel
# under the names A and B), one vCPU each, a short netperf job. (a) B's QEMU dies (SIGKILL,
# as the host's OOM killer would do it) during its boot: that boot is reported failed with
# the reason, the A beside it finishes and its results are collected, run.json says both,
# `run` exits 111 (QEMU failed: a system failure). (b) B's QEMU stops as it starts (SIGSTOP: a
# VM that hangs): its silence is called a hang and the VM is stopped by run (exit 1), the A
# beside it finishes with its results.
# tests/run: alone (VMs pinned to their own host CPUs)
. tests/lib.sh
bb_need init netperf qemu
. tests/qemu/parallel.inc

# partner NAME SIGNAL WHEN [ARGS]: run a pair, send SIGNAL to B's QEMU once its progress has a
# line matching WHEN; the output in $T/NAME.out, the exit code in RC
partner() {
	local name=$1 sig=$2 when=$3 pid qpid="" t
	shift 3
	RC=0
	bb_timeout 900 "$BENCHBOOT" run "$T/par.yaml" --kernel "A=$kernel" --kernel "B=$kernel" \
		--accel tcg --cpus 1 --parallel 2 --images "$T/images" -o "$T/$name" "$@" \
		>"$T/$name.out" 2>&1 &
	pid=$!
	for ((t = 0; t < 600; t++)); do
		if grep -q "$when" "$T/$name.out"; then
			qpid=$(sed -n 's/^boot 2\/2: QEMU pid \([0-9]*\).*/\1/p' "$T/$name.out" | sed -n 1p)
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	[ -n "$qpid" ] || { wait "$pid" || true; cat "$T/$name.out"; fail "$name: no '$when' line for B"; }
	kill -"$sig" "$qpid"
	wait "$pid" || RC=$?
	cat "$T/$name.out"
}

# check NAME WHY RC: B failed for WHY (a pattern), A finished and was collected; run.json says
# both; run exited RC
check() {
	local name=$1 why=$2
	expect_eq "$name: benchboot run exit code" "$RC" "$3"
	expect_grep "^side by side: 2 VMs at once" "$T/$name.out"
	expect_grep "^boot 2/2: FAILED ($why" "$T/$name.out"
	expect_grep "^boot 1/2: run 1/1 TCP_STREAM iteration 2: ok" "$T/$name.out"
	python3 - "$T/$name" <<'PY' || fail "$name: run.json and the results of the A"
import json, os, sys
res = sys.argv[1]
boots = json.load(open(os.path.join(res, "run.json")))["boots"]
assert len(boots) == 2, len(boots)
a, b = boots
assert a["params"]["kernel"] == "A" and b["params"]["kernel"] == "B", (a["params"], b["params"])
assert a["outcome"] == "poweroff", (a["outcome"], a.get("detail"))
assert b["outcome"] != "poweroff", b["outcome"]
assert a["side_by_side"]["partners"], a["side_by_side"]
folder = [d for d in os.listdir(res) if d.endswith(a["boot_id"])]
assert folder, os.listdir(res)
r = json.load(open(os.path.join(res, folder[0], "runs", "TCP_STREAM", "results.json")))
tp = r["netperf.Throughput_Mbps"]
assert len(tp) == 2 and all(v > 0 for v in tp), tp
print("A: poweroff, Throughput_Mbps", tp, "; B:", b["outcome"], b.get("detail", ""))
PY
}

# (a) B's QEMU killed in its first run
partner died KILL "^boot 2/2: run 1/1 TCP_STREAM iteration 1/2"
check died "qemu-failed after [0-9]* s): QEMU killed by signal 9" 111

# (b) B's QEMU stopped as it starts: silent; --silence 20 calls it a hang after 20 s (in a
# run, the run's own allowance: runtime + timeout + 60 s)
partner hung STOP "^boot 2/2: QEMU pid " --silence 20
check hung "hang after" 1
echo "a partner that died or hung: reported, the other side finished and was collected"
