# compare: the 0-day tables of the fixture result sets, byte for byte (tests/fixtures/compare).
# The numbers in them were worked out separately (means, population stddev, %change, the
# intervals and LKP's rule; see tests/unit/test_compare.c and test_compare_stats.c).
. tests/lib.sh
F=tests/fixtures/results
G=tests/fixtures/compare
check() { # NAME EXPECTED_EXIT ARGS...
	local name=$1 want=$2 rc
	shift 2
	set +e
	"$BENCHBOOT" compare "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	set -e
	expect_eq "$name: exit code" "$rc" "$want"
	diff -u "$G/$name.out" "$T/$name.out" || fail "$name: output differs from $G/$name.out"
}
check cgroup-by 1 $F/cgroup --by cgroup
check kernels-all 1 $F/kernels/A $F/kernels/B --all
check prsctp-by 1 $F/prsctp --by prsctp_enable --all
check kernels-same 0 $F/kernels/A $F/kernels/A
# the same split given as --a/--b, and by the environment field instead of the boot parameter
"$BENCHBOOT" compare $F/cgroup --a cgroup=v1 --b cgroup=v2 >"$T/ab.out" || [ $? = 1 ]
diff -u "$G/cgroup-by.out" "$T/ab.out" || fail "--a/--b differs from --by"
set +e
"$BENCHBOOT" compare $F/cgroup --by cgroup.mode_requested >"$T/mode.out" 2>"$T/mode.err"
rc=$?
set -e
# cgroup.mode_requested is an environment field: the boot parameter cgroup still differs, so it refuses
expect_eq "--by cgroup.mode_requested exit" $rc 100
expect_grep "they differ in cgroup.mode (A: v1; B: v2)" "$T/mode.err"
"$BENCHBOOT" compare $F/cgroup --by cgroup.mode_requested --axis cgroup.mode >"$T/mode.out" || [ $? = 1 ]
expect_grep "^  cgroup.mode_requested  *v1 | v2$" "$T/mode.out"
expect_grep "^            1101            -9.4%        998.0 " "$T/mode.out"
# a job run with --set is an environment difference (env.json job_overrides, issue 25 item 5)
cp -r $F/kernels/B "$T/set"
python3 - "$T/set/0001-d4c3b2a1/env.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["job_overrides"] = ["runtime=2s", "nr_threads=2"]
json.dump(d, open(p, "w"))
PY
"$BENCHBOOT" compare $F/kernels/A "$T/set" >"$T/set.out" || [ $? = 1 ]
expect_grep "^  job_overrides   only in B: nr_threads=2 runtime=2s$" "$T/set.out"
