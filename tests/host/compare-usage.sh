# compare: usage errors and refusals are exit 100 with a clear message; no change is exit 0.
. tests/lib.sh
F=tests/fixtures/results
run() { # EXPECTED_EXIT ARGS...
	local want=$1 rc
	shift
	set +e
	"$BENCHBOOT" compare "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	expect_eq "compare $*: exit code" "$rc" "$want"
}
run 0 --help
expect_grep "usage: benchboot compare" "$T/out"
run 100
expect_grep "which results?" "$T/err"
run 100 $F/cgroup
expect_grep "say how to split it" "$T/err"
run 100 $F/cgroup --bogus
expect_grep "unknown option" "$T/err"
run 100 $F/cgroup --a cgroup
expect_grep "KEY=VALUE expected" "$T/err"
run 100 $T/nonexistent $F/cgroup
expect_grep "^benchboot compare: unable to read results: .*nonexistent: No such file" "$T/err"
run 100 $F $F
expect_grep "no results here" "$T/err"
run 100 $F/cgroup --by nr_threads
expect_grep "has 1 value (2), nothing to compare" "$T/err"
run 100 $F/cgroup --by boot
expect_grep "has 6 values (0001-8f3c2a1b, .*); choose two with --a boot=X --b boot=Y" "$T/err"
run 100 $F/cgroup --by no_such_key
expect_grep "no run in .* has a parameter or environment field 'no_such_key'" "$T/err"
run 100 $F/cgroup --a cgroup=v3 --b cgroup=v2
expect_grep "no run in .* matches cgroup=v3" "$T/err"
# two folders whose runs differ in a parameter: refused unless the axis is named
run 100 $F/prsctp $F/prsctp --a prsctp_enable=0 --b prsctp_enable=1
expect_grep "they differ in prsctp_enable (A: 0; B: 1)" "$T/err"
expect_grep "say so with --axis KEY" "$T/err"
run 1 $F/prsctp $F/prsctp --a prsctp_enable=0 --b prsctp_enable=1 --axis prsctp_enable
expect_grep "^1 significant change: 0 by benchboot.s interval (I), 1 by LKP.s rule (L)" "$T/out"
# one boot folder against another: same results, no change
run 0 $F/kernels/A/0001-a1b2c3d4 $F/kernels/A
expect_grep "^0 significant changes" "$T/out"
# bad JSON in a results folder: named with its place
mkdir -p "$T/bad/0001-x/runs/R"
echo '{"kernel": 1}' >"$T/bad/0001-x/env.json"
printf '{"s": [1, 2,]}\n' >"$T/bad/0001-x/runs/R/results.json"
run 100 "$T/bad" $F/kernels/A
expect_grep "bad/0001-x/runs/R/results.json: line 1 col 13: " "$T/err"
