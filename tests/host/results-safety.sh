# Disks without the label and marker are never written: the init's writer, given a fake
# /sys/class/block with an unmarked ext4 disk, an ext4 disk labelled BENCHBOOT but without the
# marker and a raw disk, finds no results disk and leaves all three byte-identical. mkdisk
# refuses to overwrite a non-empty file without --force and refuses what is not a file or a
# block device.
. tests/lib.sh
. tests/host/src/results-common.sh
build_writer
truncate -s 32M "$T/plain.img" "$T/labelled.img"
mke2fs -q -F -t ext4 -L data "$T/plain.img"
mke2fs -q -F -t ext4 -L BENCHBOOT "$T/labelled.img"
head -c 8M /dev/urandom >"$T/raw.img"
fake_disk "$T/root" vda "$T/plain.img"
fake_disk "$T/root" vdb "$T/labelled.img"
fake_disk "$T/root" vdc "$T/raw.img"
sha256sum "$T"/*.img >"$T/before"

make_stage "$T/s1" r1 1
mkdir -p "$T/local"
"$T/writer" "$T/root" b1 "$T/local" "$T/s1" >"$T/w.out" 2>&1 || fail "writer failed"
cat "$T/w.out"
expect_grep "no results disk: results go to the console only" "$T/w.out"
expect_grep "open=-19 bootdir=0000-b1" "$T/w.out"
# without a disk, every file goes to the console
expect_grep "BENCHBOOT-FILE boot=0000-b1 path=runs/r1/results.json" "$T/w.out"
expect_grep "BENCHBOOT-FILE boot=0000-b1 path=done" "$T/w.out"
sha256sum -c --quiet "$T/before" || fail "a disk that is not a results disk was modified"

# mkdisk refusals
echo "precious" >"$T/precious"
rc=0
"$BENCHBOOT" mkdisk "$T/precious" >"$T/m.out" 2>&1 || rc=$?
expect_eq "mkdisk on a non-empty file" "$rc" 100
expect_grep "the file exists and is not empty" "$T/m.out"
expect_eq "file kept" "$(cat "$T/precious")" "precious"
rc=0
"$BENCHBOOT" mkdisk "$T" >"$T/m.out" 2>&1 || rc=$?
expect_eq "mkdisk on a directory" "$rc" 100
rc=0
"$BENCHBOOT" mkdisk "$T/x.img" --size 12Q >"$T/m.out" 2>&1 || rc=$?
expect_eq "bad size" "$rc" 100
"$BENCHBOOT" mkdisk "$T/precious" --force --size 16M >"$T/m.out" 2>&1 || fail "mkdisk --force"
expect_eq "size" "$(stat -c %s "$T/precious")" $((16 << 20))
# a block device needs --force; this one is likely in use, so --force is refused too
dev=$(findmnt -n -o SOURCE / 2>/dev/null || true)
if [ -b "$dev" ]; then
	rc=0
	"$BENCHBOOT" mkdisk "$dev" >"$T/m.out" 2>&1 || rc=$?
	expect_eq "mkdisk on a block device without --force" "$rc" 100
	expect_grep "add --force" "$T/m.out"
	rc=0
	"$BENCHBOOT" mkdisk "$dev" --force >"$T/m.out" 2>&1 || rc=$?
	expect_eq "mkdisk on the mounted root device" "$rc" 100
	expect_grep "mounted on /" "$T/m.out"
else
	echo "(no block device behind /: block device refusals not checked here)"
fi
echo "safety ok"
