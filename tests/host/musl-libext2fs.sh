# The init's static musl libext2fs works: a static musl program writes a file into an ext4
# image; e2fsck -fn finds it clean and debugfs reads the file back.
. tests/lib.sh
lib="$B/libext2fs-musl"
[ -e "$lib/lib/libext2fs.a" ] || fail "$lib not built (make)"
musl-gcc -static -O2 -I"$lib/include" -o "$T/probe" tests/host/src/ext2fs_musl_probe.c \
	"$lib/lib/libext2fs.a" "$lib/lib/libcom_err.a" || fail "linking against musl libext2fs failed"
! readelf -l "$T/probe" | grep -q INTERP || fail "probe is not static (it has a program interpreter)"
mke2fs -q -t ext4 -F "$T/disk.img" 16M
"$T/probe" "$T/disk.img" || fail "probe failed to write"
e2fsck -fn "$T/disk.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck -fn found errors"; }
expect_eq "file read back by debugfs" "$(debugfs -R 'cat /hello.txt' "$T/disk.img" 2>/dev/null)" "hello from musl libext2fs"
