# install-deps is quick when all is present and, not being root, prints the sudo command.
. tests/lib.sh
start=$(date +%s%N)
tools/install-deps || fail "install-deps failed with everything installed"
ms=$((($(date +%s%N) - start) / 1000000))
[ $ms -lt 2000 ] || fail "install-deps took ${ms} ms with everything present (limit 2000)"
id nobody >/dev/null 2>&1 || skip "no 'nobody' user to test the non-root path"
command -v setpriv >/dev/null || skip "setpriv missing"
set +e
BB_DEPS_EXTRA=benchboot-no-such-package setpriv --reuid=nobody --regid=nogroup --clear-groups \
	bash tools/install-deps >"$T/out" 2>&1
rc=$?
set -e
expect_eq "exit code as non-root with a missing package" $rc 111
expect_grep "sudo apt-get install -y --no-install-recommends benchboot-no-such-package" "$T/out"
