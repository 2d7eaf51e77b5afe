# The unit-test harness (tests/unit/harness.c) as tests/run reads it: a case that passes, one
# that skips because a tool is absent (a failure under CI=true, as the shell tests' skips are),
# one that fails with its reason, and one killed at its time limit (BB_TEST_TIMEOUT).
. tests/lib.sh
cc -std=gnu11 -D_GNU_SOURCE -Itests/unit -o "$T/cases" tests/host/src/harness_cases.c \
	tests/unit/harness.c || fail "the harness does not build"
start=$(date +%s)
(unset CI; BB_TEST_TIMEOUT=2 "$T/cases") >"$T/out" && fail "a failing case exited 0"
expect_grep "^PASS cases:passes$" "$T/out"
expect_grep "^SKIP cases:needs_an_absent_tool: benchboot-no-such-tool not installed (package none; " "$T/out"
expect_grep "^FAIL cases:fails: tests/host/src/harness_cases.c:[0-9]*: on purpose: 42$" "$T/out"
expect_grep "^FAIL cases:sleeps_past_the_limit: timed out after 2 s (BB_TEST_TIMEOUT)$" "$T/out"
[ $(($(date +%s) - start)) -lt 20 ] || fail "the time limit did not stop the sleeping case"
CI=true BB_TEST_TIMEOUT=2 "$T/cases" >"$T/ci" && fail "a failing case exited 0 under CI=true"
expect_grep "^FAIL cases:needs_an_absent_tool: skipped under CI=true (CI has all a test needs): benchboot-no-such-tool not installed" "$T/ci"
! grep -q "^SKIP" "$T/ci" || fail "a SKIP line under CI=true"
