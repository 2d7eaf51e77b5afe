# install-deps is quick when all is present and, not being root, prints the sudo command.
. tests/lib.sh
# With everything present it succeeds without calling apt-get (a recording apt-get stand-in
# first on PATH would notice). Its speed is measured in bench/install-deps.sh.
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "$@" >>"%s/apt-called"\nexit 1\n' "$T" >"$T/bin/apt-get"
chmod +x "$T/bin/apt-get"
PATH="$T/bin:$PATH" tools/scripts/install-deps || fail "install-deps failed with everything installed"
[ ! -e "$T/apt-called" ] || fail "install-deps called apt-get with everything present: $(cat "$T/apt-called")"
PATH="$T/bin:$PATH" tools/scripts/install-deps demo || fail "install-deps demo failed with everything installed"
# the demo's set is the build's and QEMU's: a subset of the test set, without the LAVA lab,
# clang or the kernel build's tools
tools/scripts/install-deps demo --print >"$T/demo" || fail "install-deps demo --print failed"
tools/scripts/install-deps --print >"$T/test" || fail "install-deps --print failed"
expect_grep "^qemu-system-x86$" "$T/demo"
expect_grep "^musl-tools$" "$T/demo"
for p in lava-server postgresql clang flex; do
	! grep -qx "$p" "$T/demo" || fail "the demo's set has $p"
	expect_grep "^$p$" "$T/test"
done
[ -z "$(comm -23 <(sort "$T/demo") <(sort "$T/test"))" ] || fail "the demo needs packages the test set lacks"
rc=0
tools/scripts/install-deps nonsense >"$T/out" 2>&1 || rc=$?
expect_eq "install-deps with an unknown target: exit" "$rc" 100
echo "demo: $(wc -l <"$T/demo") packages, test: $(wc -l <"$T/test")"
id nobody >/dev/null 2>&1 || skip "no 'nobody' user to test the non-root path"
command -v setpriv >/dev/null || skip "setpriv missing"
set +e
BB_DEPS_EXTRA=benchboot-no-such-package setpriv --reuid=nobody --regid=nogroup --clear-groups \
	bash tools/scripts/install-deps >"$T/out" 2>&1
rc=$?
set -e
expect_eq "exit code as non-root with a missing package" $rc 111
expect_grep "sudo apt-get install -y --no-install-recommends benchboot-no-such-package" "$T/out"
