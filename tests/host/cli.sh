# The CLI: --help lists verbs, an unknown verb is exit 100 with a hint.
. tests/lib.sh
"$BENCHBOOT" --help >"$T/help" || fail "--help failed"
expect_grep "^verbs:" "$T/help"
expect_grep "version" "$T/help"
set +e
"$BENCHBOOT" no-such-verb 2>"$T/err"
rc=$?
set -e
expect_eq "exit code for an unknown verb" $rc 100
expect_grep "unknown verb 'no-such-verb'" "$T/err"
# a mistyped verb gets the nearest one
rc=0
"$BENCHBOOT" chek >"$T/out" 2>"$T/err" || rc=$?
expect_eq "exit code for a mistyped verb" $rc 100
expect_grep "^benchboot: unknown verb 'chek' (did you mean 'check'?); 'benchboot --help' lists them$" "$T/err"
