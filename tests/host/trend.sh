# benchboot trend: a stat across the kernels of the store, its change points. Synthetic boots
# shaped like collected ones (tests/host/src/trend-series.py: 12 kernels x 3 boots, 1% noise):
# a -5% step from kernel K09 on is found between K08 and K09 with its %change and interval,
# the sparkline and the bisection to run (a kernels file of the two kernels, the job's name
# where the store has no job file; with --tree: tests/host/trend-tree.sh); a flat series has none (exit 0); --json says the same;
# a job the store does not have is exit 100.
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is needed to make the series"
fixture=$(ls -d tests/fixtures/results/kernels/A/0*)
python3 tests/host/src/trend-series.py "$fixture" "$T/step" 12 3 9 -5 || fail "series"
python3 tests/host/src/trend-series.py "$fixture" "$T/flat" 12 3 0 0 2 || fail "series"
db=$T/s.db
"$BENCHBOOT" store add "$T/step" --db "$db" >"$T/out" 2>&1 || fail "store add: $(cat "$T/out")"
expect_grep ": 36 new boots" "$T/out"
rc=0
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$db" --run 'SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=0' >"$T/out" 2>"$T/err" || rc=$?
cat "$T/out" "$T/err"
expect_eq "trend with a step: exit code" "$rc" 1
expect_grep "^run SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=0, netperf.Throughput_Mbps: 12 kernels, 36 boots$" "$T/out"
expect_grep "^  change between K08 and K09 (kernel 9 of 12): -[45].[0-9]% \[-[0-9.]*, -[0-9.]*\] (p " "$T/out"
# the bisection: the kernels file (no vmlinuz recorded: VMLINUZ; the user's words of the kernel's
# command line after the image's own, "quiet" in the fixture), the job's name (no job file)
expect_grep "^K08 VMLINUZ - quiet$" "$T/out"
expect_grep "^benchboot bisect netperf-sctp-cgroup --kernels kernels-K08-K09 --stat netperf.Throughput_Mbps$" "$T/out"
expect_grep "^(netperf-sctp-cgroup: the job's name; the store records no job file of it: give its file)$" "$T/out"
[ "$(grep -c '^  change between' "$T/out")" = 1 ] || fail "more than the one change point"
# the sparkline: 12 bars
python3 -c 'import sys; l = open(sys.argv[1]).read().split("\n")[3].split()[0]; assert len(l) == 12, l' "$T/out" ||
	fail "no sparkline of 12 kernels: $(sed -n 4p "$T/out")"
# both runs of the job, --json
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$db" --json >"$T/j" || [ $? = 1 ] || fail "trend --json"
python3 - "$T/j" <<'PY' || fail "trend --json"
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["series"]) == 2, [s["run"] for s in j["series"]]
for s in j["series"]:
    assert len(s["kernels"]) == 12 and s["kernels"][0]["kernel"] == "K01" and s["kernels"][0]["boots"] == 3, s["kernels"][0]
    cp = s["change_points"]
    assert len(cp) == 1 and cp[0]["before"] == "K08" and cp[0]["after"] == "K09", cp
    assert -6.5 < cp[0]["change_percent"] < -3.5 and cp[0]["high_percent"] < 0 and cp[0]["p"] < 1e-4, cp
PY
# --order: the kernels newest first, K05 left out: the step is now a rise between K09 and K08
{ echo "# newest first"; for k in 12 11 10 09 08 07 06 04 03 02 01; do echo "K$k"; done; } >"$T/order"
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$db" --order "$T/order" --run 'SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=0' >"$T/out" 2>&1 || [ $? = 1 ] ||
	fail "trend --order: $(cat "$T/out")"
expect_grep "12 kernels\|11 kernels, 33 boots" "$T/out"
expect_grep "^  change between K09 and K08 (kernel 5 of 11): +[45].[0-9]% " "$T/out"
# LKP's result trees (tests/host/src/lkp-result-tree.py: 12 commits x 3 runs, -5% from the
# 9th): added as boots, each commit a kernel (12 hex digits), in commit order by --order
python3 tests/host/src/lkp-result-tree.py "$T/lkp" 12 3 9 -5 || fail "LKP tree"
"$BENCHBOOT" store add "$T/lkp" --db "$T/lkp.db" >"$T/out" 2>&1 || fail "store add of an LKP tree: $(cat "$T/out")"
expect_grep ": 36 new boots (36 runs, 108 values)" "$T/out"
python3 -c 'import hashlib; [print(hashlib.sha1(b"commit %d" % c).hexdigest()[:12]) for c in range(1, 13)]' >"$T/commits"
"$BENCHBOOT" trend netperf --db "$T/lkp.db" --order "$T/commits" >"$T/out" 2>&1 || [ $? = 1 ] || fail "trend of LKP's results: $(cat "$T/out")"
cat "$T/out"
expect_grep "^run performance-ipv4-300s-200%-SCTP_STREAM_MANY-cs-localhost, netperf.Throughput_Mbps: 12 kernels, 36 boots$" "$T/out"
expect_grep "^  change between $(sed -n 8p "$T/commits") and $(sed -n 9p "$T/commits") (kernel 9 of 12): -[456].[0-9]% " "$T/out"
"$BENCHBOOT" store list --db "$T/lkp.db" >"$T/out"
expect_grep "^  $(sed -n 1p "$T/commits") *6.1.0-rc1 *3 *$" "$T/out"
# a flat series: no change point, exit 0
"$BENCHBOOT" store add "$T/flat" --db "$T/flat.db" >/dev/null 2>&1 || fail "store add flat"
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$T/flat.db" >"$T/out" 2>&1 || fail "trend of a flat series: $(cat "$T/out")"
expect_grep "no change point (max p 0.0001, at least 2 kernels a side)" "$T/out"
rc=0
"$BENCHBOOT" trend nosuchjob --db "$db" >"$T/out" 2>&1 || rc=$?
expect_eq "trend of a job the store does not have: exit code" "$rc" 100
expect_grep "has no boot of the job 'nosuchjob'" "$T/out"
echo "trend ok"
