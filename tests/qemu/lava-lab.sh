# A real LAVA lab round trip: tools/scripts/lava-lab-up starts a private LAVA instance from
# Debian's packages (PostgreSQL, lava-server's gunicorn, scheduler and publisher, a
# lava-worker with one QEMU device); `benchboot lava --submit` sends a short netperf job for
# three kernels (A, B, and C whose initramfs is missing), waits, and reports A and B Complete
# and C Incomplete with LAVA's error, without C stopping the others; `benchboot collect --lava`
# brings A's and B's results back from their logs, with the LAVA job id and device recorded;
# `benchboot compare --by kernel` reads them as it reads a local run; lava-lab-down ends every
# service by its PID.
#
# The packages come from tools/scripts/install-deps (make test runs it first); the test skips,
# saying so, only where they are missing and cannot be installed (not root, no apt).
. tests/lib.sh
bb_need sysroot kernel init netperf qemu
. tests/qemu/lava.inc
[ "$(id -u)" = 0 ] || skip "a LAVA lab needs root (PostgreSQL runs as the postgres user, the worker as root)"

# The lab ends with the test, whatever happens (before bb_cleanup removes its folder).
LAB=$T/lab
trap 'tools/scripts/lava-lab-down "$LAB" >/dev/null 2>&1; bb_cleanup' EXIT
t0=$(date +%s)
bb_timeout 300 tools/scripts/lava-lab-up "$LAB" >"$T/up.out" 2>"$T/up.log" ||
	{ cat "$T/up.log"; tail -n 20 "$LAB"/logs/*.log 2>/dev/null; fail "lava-lab-up failed"; }
cat "$T/up.log"
. "$LAB/lab.env"
echo "lab up in $(($(date +%s) - t0)) s: $LAVA_LAB_URL"
expect_eq "lava-lab-up's output" "$(cat "$T/up.out")" "$LAVA_LAB_URL"
for p in gunicorn scheduler publisher worker; do
	kill -0 "$(cat "$LAB/$p.pid")" 2>/dev/null || fail "$p is not running"
done

cat >"$T/lava-lab.yaml" <<'JOB'
suite: netperf
runtime: 2s
nr_threads: 1
cluster: cs-localhost
netperf:
  test: TCP_STREAM
JOB
# Three kernels as `benchboot run --kernel NAME=...` names their images (the pinned kernel
# each time: what matters here is the lab, not the kernels).
for k in A B C; do
	"$BENCHBOOT" build --name "lava-lab.$k" -o "$T/img" "$T/lava-lab.yaml" >"$T/build.log" 2>&1 ||
		{ cat "$T/build.log"; fail "benchboot build --name lava-lab.$k failed"; }
done
# C's initramfs is gone: LAVA refuses the job when it validates it (an Incomplete job).
rm "$T/img/lava-lab.C/initrd.img"

# The token is never on the command line; a wrong one is refused before anything is sent.
rc=0
BENCHBOOT_LAVA_TOKEN=not-the-token "$BENCHBOOT" lava "$T/lava-lab.yaml" --images "$T/img" \
	--flavour qemu --kernel A --submit "$LAVA_LAB_URL" >"$T/wrong.out" 2>&1 || rc=$?
expect_eq "exit code with a wrong token" "$rc" 100
expect_grep "the LAVA server refuses the token: .*Invalid token" "$T/wrong.out"
grep -q "lava-qemu.yaml" "$T/wrong.out" && fail "definitions were written with a wrong token"
grep -q "submitted job" "$T/wrong.out" && fail "a job was submitted with a wrong token"

rc=0
bb_timeout 900 "$BENCHBOOT" lava "$T/lava-lab.yaml" --images "$T/img" --flavour qemu \
	--kernel A --kernel B --kernel C --submit "$LAVA_LAB_URL" --token-file "$LAVA_LAB_TOKEN_FILE" \
	--poll 1 >"$T/submit.out" 2>&1 || rc=$?
cat "$T/submit.out"
expect_eq "benchboot lava --submit's exit code (C Incomplete)" "$rc" 1
expect_grep "^LAVA server $LAVA_LAB_URL, version 20" "$T/submit.out"
expect_grep "^job [0-9]*: lava-lab.A, kernel A: Running on $LAVA_LAB_DEVICE$" "$T/submit.out"
expect_grep "^  job [0-9]* *$LAVA_LAB_DEVICE *lava-lab.A, kernel A: Complete$" "$T/submit.out"
expect_grep "^  job [0-9]* *$LAVA_LAB_DEVICE *lava-lab.B, kernel B: Complete$" "$T/submit.out"
expect_grep "^  job [0-9]* .*lava-lab.C, kernel C: Incomplete: Job error: .*lava-lab.C/initrd.img.*does not exist" "$T/submit.out"
expect_grep "^2 complete, 1 incomplete, 0 canceled, 0 not finished$" "$T/submit.out"
read -r -a ids <<<"$(sed -n 's/^jobs: //p' "$T/submit.out")"
expect_eq "job ids" "${#ids[@]}" 3

# Back from the lab: the token from the environment this time.
rc=0
BENCHBOOT_LAVA_TOKEN=$(cat "$LAVA_LAB_TOKEN_FILE") bb_timeout 300 "$BENCHBOOT" collect \
	--lava "$LAVA_LAB_URL" "${ids[@]}" -o "$T/res" >"$T/collect.out" 2>&1 || rc=$?
cat "$T/collect.out"
expect_eq "collect --lava's exit code (C has no results)" "$rc" 1
expect_grep "^job ${ids[0]} on $LAVA_LAB_DEVICE: Complete; boot 0000-.*, kernel=A$" "$T/collect.out"
expect_grep "^job ${ids[1]} on $LAVA_LAB_DEVICE: Complete; boot 0000-.*, kernel=B$" "$T/collect.out"
expect_grep "job ${ids[2]} (Incomplete: Job error: .*): no result file in its log" "$T/collect.out"
expect_grep "^3 LAVA jobs: 2 collected complete, 1 not" "$T/collect.out"
# Each boot folder is complete (its `done` came back over the console) and run.json says
# which LAVA job and device ran it.
n=0
for d in "$T"/res/0000-*/; do
	[ -e "$d/done" ] || fail "$d has no done file"
	[ -e "$d/env.json" ] || fail "$d has no env.json"
	[ -e "$d/runs/TCP_STREAM/results.json" ] || fail "$d has no TCP_STREAM results"
	n=$((n + 1))
done
expect_eq "boot folders" "$n" 2
/usr/bin/python3 - "$T/res/run.json" "$LAVA_LAB_DEVICE" "$LAVA_LAB_URL" "${ids[@]}" <<'PY' || fail "run.json does not record the LAVA jobs"
import json, os, sys
run, device, url, ids = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4:]
boots = run["boots"]
assert len(boots) == 2, boots
for b, job, kernel in zip(boots, ids, "AB"):
    assert b["params"] == {"kernel": kernel, "lava_job": job, "lava_device": device}, b
    assert b["lava"]["job"] == int(job) and b["lava"]["url"] == url, b
    assert b["lava"]["health"] == "Complete" and b["finished"] is True, b
    assert os.path.isdir(os.path.join(os.path.dirname(sys.argv[1]), b["folder"])), b
    assert b["folder"].endswith("-" + b["boot_id"]), b
    # the kernel's lockup and stall reports in the job's log: a count, the first or null
    assert isinstance(b["kernel_stalls"], int), b
    assert (b["kernel_stalls"] == 0) == (b["kernel_stall"] is None), b
    # every kernel report in the log as LKP's dmesg stat: a stall report is one of them
    assert isinstance(b["dmesg"], dict), b
    assert all(k.startswith("dmesg.") for k in b["dmesg"]), b
    assert (b["kernel_stalls"] == 0) or any("stall" in k for k in b["dmesg"]), b
print("run.json: jobs", ids[:2], "on", device)
PY
# Collecting again finds the boots there already.
BENCHBOOT_LAVA_TOKEN=$(cat "$LAVA_LAB_TOKEN_FILE") bb_timeout 300 "$BENCHBOOT" collect \
	--lava "$LAVA_LAB_URL" "${ids[0]}" -o "$T/res" >"$T/again.out" 2>&1 ||
	{ cat "$T/again.out"; fail "collecting job ${ids[0]} again failed"; }
expect_grep "0 boots collected (0 incomplete), 1 already there" "$T/again.out"

rc=0
"$BENCHBOOT" compare "$T/res" --by kernel >"$T/compare.out" 2>&1 || rc=$?
cat "$T/compare.out"
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "benchboot compare --by kernel exited $rc"
expect_grep "^A: kernel=A (1 boot)" "$T/compare.out"
expect_grep "^B: kernel=B (1 boot)" "$T/compare.out"
expect_grep "^run .*test=TCP_STREAM" "$T/compare.out"

tools/scripts/lava-lab-down "$LAB" 2>"$T/down.log" || { cat "$T/down.log"; fail "lava-lab-down failed"; }
for p in gunicorn scheduler publisher worker; do
	[ ! -e "$LAB/$p.pid" ] || fail "$p.pid is still there after lava-lab-down"
done
[ ! -e "$LAB/pg" ] || fail "the PostgreSQL cluster $(cat "$LAB/pg") is still there after lava-lab-down"
[ ! -e "/etc/lava-server/dispatcher.d/$LAVA_LAB_WORKER.yaml" ] || fail "the worker's dispatcher configuration is left behind"
echo "round trip in $(($(date +%s) - t0)) s"
