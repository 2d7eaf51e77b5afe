# tests/lib.sh's skip: without CI a test that lacks something skips (exit 77) saying why; under
# CI=true the same skip fails (exit 1) unless the test declared itself optional with its reason
# first (`optional REASON`), and then it skips saying both; tests/run lists skips and their
# reasons after the tests.
. tests/lib.sh
cat >"$T/needs.sh" <<'SH'
. tests/lib.sh
[ -n "${OPT:-}" ] && optional "$OPT"
skip "frobnicator is missing"
SH
one() { # WANT-EXIT WANT-TEXT ENV...
	local want=$1 text=$2 rc=0
	shift 2
	env "$@" bash "$T/needs.sh" >"$T/out" 2>&1 || rc=$?
	expect_eq "exit of a skip with $*" "$rc" "$want"
	expect_grep "$text" "$T/out"
}
one 77 "^skipped: frobnicator is missing$" CI=
one 1 "^FAIL: skipped under CI=true, where only a test declared optional may skip: frobnicator is missing$" CI=true
one 77 "^skipped: frobnicator is missing (optional: needs KVM)$" CI=true "OPT=needs KVM"
echo "skip: 77 without CI, a failure under CI=true, 77 under CI=true when declared optional"
