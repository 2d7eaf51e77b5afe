# The init's static musl libext2fs works: a static musl program writes a file into an ext4
# image; e2fsck -fn finds it clean and debugfs reads the file back.
. tests/lib.sh
lib="$B/libext2fs-musl"
[ -e "$lib/lib/libext2fs.a" ] || fail "$lib not built (make)"
probe="$B/tests/progs/ext2fs-musl-probe" # make test-progs
[ -x "$probe" ] || fail "$probe not built (make test-progs)"
cp "$probe" "$T/probe"
! readelf -l "$T/probe" | contains INTERP || fail "probe is not static (it has a program interpreter)"
mke2fs -q -t ext4 -F "$T/disk.img" 16M
"$T/probe" "$T/disk.img" || fail "probe failed to write"
e2fsck -fn "$T/disk.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck -fn found errors"; }
expect_eq "file read back by debugfs" "$(debugfs -R 'cat /hello.txt' "$T/disk.img" 2>/dev/null)" "hello from musl libext2fs"
