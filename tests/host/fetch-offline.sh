# With a full cache, fetch does no network access: it succeeds with no network at all.
. tests/lib.sh
bb_need sysroot
command -v unshare >/dev/null || skip "unshare not available"
if ! unshare -n true 2>/dev/null; then
	[ "$(id -u)" = 0 ] && fail "unshare -n failed as root: no network namespace for the offline fetch"
	skip "cannot create a network namespace here (needs root)"
fi
unshare -n tools/scripts/fetch >"$T/out" 2>&1 || { cat "$T/out"; fail "fetch with a full cache needed the network"; }
expect_grep "pinned inputs verified" "$T/out"
# --offline with a missing input fails clearly instead of downloading.
c="$T/cache"
mkdir -p "$c"
if CACHE="$c" tools/scripts/fetch --offline >"$T/out2" 2>&1; then fail "--offline fetch into an empty cache succeeded"; fi
expect_grep "missing" "$T/out2"
