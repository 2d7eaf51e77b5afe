# A corrupted cached input makes `make fetch` fail naming it; after deleting it, fetch succeeds
# (re-downloading only that file) and the sysroot is intact.
. tests/lib.sh
bb_need sysroot
c="$T/cache"
mkdir -p "$c"
cp -a "$CACHE/debs" "$CACHE/src" "$c/"
mkdir -p "$c/sysroot"
ln -s "$SYSROOT" "$c/sysroot/$(basename "$SYSROOT")"
# the smallest package of the lock
victim=$(awk '$1 == "deb" { print $4, $6 }' config/inputs.lock | sort -n | sed -n 1p | cut -d' ' -f2)
[ -n "$victim" ] || fail "no deb in the lock"
printf 'X' | dd of="$c/debs/$victim" bs=1 seek=100 conv=notrunc status=none
if CACHE="$c" tools/scripts/fetch >"$T/out" 2>&1; then fail "fetch accepted a corrupted $victim"; fi
expect_grep "$victim" "$T/out"
expect_grep "delete it" "$T/out"
rm "$c/debs/$victim"
CACHE="$c" tools/scripts/fetch >"$T/out2" 2>&1 || { cat "$T/out2"; fail "fetch after deleting the bad file failed"; }
expect_grep "fetching 1 pinned inputs" "$T/out2"
want=$(awk -v f="$victim" '$1 == "deb" && $6 == f { print $5 }' config/inputs.lock)
expect_eq "sha256 of refetched $victim" "$(sha256sum "$c/debs/$victim" | cut -d' ' -f1)" "$want"
