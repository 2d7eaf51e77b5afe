# tests/run says when the build it would test is older than its sources (or missing): before
# the tests and again before the summary; under CI=true that fails the run. With the build
# that make check / make test just made, it says nothing.
. tests/lib.sh

mkdir -p "$T/empty"
B="$T/empty" CI= tests/run no-such-test >"$T/out" 2>&1 || { cat "$T/out"; fail "tests/run failed on a stale build without CI"; }
cat "$T/out"
expect_eq "warnings (start and end)" "$(grep -c "^tests/run: WARNING: older than its sources, or missing: the unit test binaries or $T/empty/benchboot" "$T/out")" 2
expect_eq "summary" "$(tail -n1 "$T/out")" "0 passed, 0 failed, 0 skipped"

rc=0
B="$T/empty" CI=true tests/run no-such-test >"$T/out" 2>&1 || rc=$?
[ $rc != 0 ] || { cat "$T/out"; fail "CI=true: a stale build passed"; }
expect_grep "FAIL tests/run: the build is older than its sources (CI=true)" "$T/out"
expect_eq "summary (CI)" "$(tail -n1 "$T/out")" "0 passed, 1 failed, 0 skipped"

tests/run no-such-test >"$T/out" 2>&1 || { cat "$T/out"; fail "tests/run failed on the current build"; }
! grep -q "WARNING" "$T/out" || { cat "$T/out"; fail "the current build is called stale (run make all units first)"; }
echo "stale builds are said, and fail under CI"
