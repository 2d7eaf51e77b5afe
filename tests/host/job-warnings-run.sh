# `benchboot run` prints a job's warnings (keys LKP would drop, with a did-you-mean) and its
# LKP keys not acted on before anything else, the same lines `build` prints (one shared
# printer, lib/host/job/jobwarnings.c), and `check` reports the same warning.
. tests/lib.sh
cat >"$T/typo.yaml" <<'YAML'
suite: stress-ng
testcase: stress-ng
testtmie: 2s
repeat_to: 3
stress-ng:
  test: cpu
YAML
set +e
# a kernel that is not there: run stops before building or booting anything
"$BENCHBOOT" run "$T/typo.yaml" --kernel "$T/no-such-vmlinuz" -o "$T/out" >"$T/run.out" 2>"$T/run.err"
rc=$?
"$BENCHBOOT" check "$T/typo.yaml" >"$T/check.out" 2>"$T/check.err"
set -e
[ "$rc" != 0 ] || fail "run with a missing kernel succeeded"
expect_grep "^benchboot run: warning: $T/typo.yaml:3:1: unknown key 'testtmie' at the top level (did you mean 'testtime'?)" "$T/run.err"
expect_grep "^benchboot run: not acted on (LKP keys, recorded with the results as lkp.KEY):$" "$T/run.err"
expect_grep "^benchboot run:   LKP queue, result and scheduling metadata: repeat_to$" "$T/run.err"
expect_grep "^benchboot check: warning: $T/typo.yaml:3:1: unknown key 'testtmie'" "$T/check.err"
# the same lines as check's, verb aside
expect_eq "run's warning is check's" "$(sed -n 's/^benchboot run: warning: //p' "$T/run.err")" \
	"$(sed -n 's/^benchboot check: warning: //p' "$T/check.err")"
# the warnings come before run's own error
[ "$(grep -n 'warning:' "$T/run.err" | sed -n 1p | cut -d: -f1)" -lt "$(grep -n 'fatal\|no-such-vmlinuz' "$T/run.err" | sed -n 1p | cut -d: -f1)" ] ||
	fail "warnings after the error: $(cat "$T/run.err")"
# a clean job: no warning lines
printf 'suite: stress-ng\nstress-ng:\n  test: cpu\n' >"$T/clean.yaml"
set +e
"$BENCHBOOT" run "$T/clean.yaml" --kernel "$T/no-such-vmlinuz" -o "$T/out2" >/dev/null 2>"$T/clean.err"
set -e
if grep -q 'warning:\|not acted on' "$T/clean.err"; then fail "warnings for a clean job: $(cat "$T/clean.err")"; fi
