# The sources are as .clang-format writes them (make format-check, with the pinned clang-format
# 14.0.6 that tools/scripts/install-deps installs): a file that differs fails make check and
# make test, named with the way out (make format).
. tests/lib.sh
command -v clang-format >/dev/null || fail "clang-format is missing (tools/scripts/install-deps test)"
make -s format-check >"$T/out" 2>&1 || { cat "$T/out"; fail "make format-check failed"; }
# and it can fail: a copy of the Makefile and .clang-format beside a file with its indentation
# broken names that file
mkdir -p "$T/tree/lib"
cp Makefile .clang-format "$T/tree/"
sed 's/^\t/  /' lib/hex.c >"$T/tree/lib/hex.c"
rc=0
make -s -C "$T/tree" format-check >"$T/bad" 2>&1 || rc=$?
[ $rc != 0 ] || fail "make format-check passed a file with its tabs turned into blanks"
expect_grep "not formatted as .clang-format says (make format): lib/hex.c$" "$T/bad"
echo "the sources are as .clang-format writes them; a badly indented file is named"
