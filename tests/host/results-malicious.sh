# Malicious and damaged disks for collect: names with '/' or '..', absolute and relative
# symlinks, device files, fifos, a 1 TiB sparse file, a boot folder that is not one, a symlink
# planted in DIR, a corrupted superblock, a truncated image, random bytes. collect gives clear
# messages, collects the good files, and writes nothing outside DIR.
. tests/lib.sh
. tests/host/src/results-common.sh
build_writer

# A results disk without metadata_csum, so directory entries can be patched in place.
truncate -s 64M "$T/evil.img"
mke2fs -q -F -t ext4 -O ^metadata_csum -L BENCHBOOT -b 4096 "$T/evil.img"
printf 'benchboot-results-disk 1\nid=%s\n' 0123456789abcdef0123456789abcdef >"$T/marker"
debugfs -w -R "write $T/marker benchboot-disk" "$T/evil.img" >/dev/null 2>&1
debugfs -w -R "mkdir boots" "$T/evil.img" >/dev/null 2>&1
fake_disk "$T/root" vda "$T/evil.img"
make_stage "$T/s1" good 1
mkdir -p "$T/local"
"$T/writer" "$T/root" evil "$T/local" "$T/s1" >"$T/w.out" 2>&1 || fail "writer failed"
expect_grep "open=0 bootdir=0001-evil" "$T/w.out"
echo "secret" >"$T/payload"
b=boots/0001-evil
{
	echo "symlink $b/abs /etc/passwd"
	echo "symlink $b/runs/good/rel ../../../../../outside"
	echo "cd $b"
	echo "mknod disk b 8 0"
	echo "mknod fifo p"
	echo "cd /"
	echo "write $T/payload $b/huge"
	echo "sif $b/huge size 0x10000000000"
	echo "write $T/payload $b/SLASHY"
	echo "write $T/payload $b/runs/good/DD"
	echo "mkdir boots/notaboot"
	echo "mkdir boots/0002-x"
	echo "symlink boots/0003-link /etc"
	echo "write $T/payload boots/0002-x/Zdotdot"
} >"$T/cmds"
debugfs -w -f "$T/cmds" "$T/evil.img" >"$T/debugfs.out" 2>&1 || { cat "$T/debugfs.out"; fail "debugfs"; }
# SLASHY -> "../../" (a '/' in a name); DD -> ".." (a second ".." entry, pointing to a file)
python3 - "$T/evil.img" <<'PY'
import sys
p = sys.argv[1]
data = bytearray(open(p, 'rb').read())
for old, new in ((b'SLASHY', b'../../'), (b'\x02\x01DD', b'\x02\x01..')):
    i = data.find(old)
    assert i > 0 and data.find(old, i + 1) < 0, old
    data[i:i + len(old)] = new
open(p, 'wb').write(data)
PY
# collect runs in $T/w with DIR = $T/w/out; nothing else under $T/w may change
mkdir -p "$T/w/outside" "$T/w/out"
cp "$T/payload" "$T/w/"
ln -s "$T/w/outside" "$T/w/out/0002-x" # planted: collect must not write through it
snap() { (cd "$T/w" && find . -path ./out -prune -o -print | sort && sha256sum payload); }
snap >"$T/before"

rc=0
(cd "$T/w" && "$BENCHBOOT" collect "$T/evil.img" -o out) >"$T/c.out" 2>&1 || rc=$?
cat "$T/c.out"
expect_eq "collect exit (problems found)" "$rc" 1
expect_grep "refusing abs: a symbolic link" "$T/c.out"
expect_grep "refusing runs/good/rel: a symbolic link" "$T/c.out"
expect_grep "refusing disk: a device" "$T/c.out"
expect_grep "refusing fifo: a device, fifo" "$T/c.out"
expect_grep "refusing huge: too large (1099511627776 bytes" "$T/c.out"
expect_grep "refusing ../../: a '/' inside a name" "$T/c.out"
expect_grep "boots: refusing notaboot: not a boot folder name" "$T/c.out"
expect_grep "boots: refusing 0003-link: not a folder" "$T/c.out"
expect_grep "0002-x: out/0002-x exists and was not made by collect: left alone" "$T/c.out"
snap >"$T/after"
diff "$T/before" "$T/after" || fail "something was written outside DIR"
[ -z "$(ls -A "$T/w/outside")" ] || fail "collect wrote through a planted symlink"
# the good files are there and right
for f in runs/good/1/client.0.out runs/good/results.json env.json; do
	cmp "$T/s1/$f" "$T/w/out/0001-evil/$f" || fail "$f"
done
[ -z "$(find "$T/w/out/0001-evil" -type l -o -type b -o -type c -o -type p)" ] || fail "special files collected"

# a damaged primary superblock: the backup is used
"$BENCHBOOT" mkdisk "$T/good.img" --size 256M >/dev/null || fail "mkdisk"
fake_disk "$T/root2" vda "$T/good.img"
mkdir -p "$T/local2"
"$T/writer" "$T/root2" sb "$T/local2" "$T/s1" >/dev/null 2>&1 || fail "writer"
cp "$T/good.img" "$T/badsb.img"
dd if=/dev/zero of="$T/badsb.img" bs=1024 seek=1 count=1 conv=notrunc status=none
rc=0
"$BENCHBOOT" collect "$T/badsb.img" -o "$T/out2" >"$T/c2.out" 2>&1 || rc=$?
cat "$T/c2.out"
expect_eq "collect with a damaged superblock" "$rc" 1
expect_grep "primary superblock is damaged: reading with the backup at block 32768" "$T/c2.out"
cmp "$T/s1/runs/good/results.json" "$T/out2/0001-sb/runs/good/results.json" || fail "backup sb read"

# a truncated image: a clear error or problems, never a crash
for cut in 40M 1M 3000; do
	cp "$T/good.img" "$T/trunc.img"
	truncate -s "$cut" "$T/trunc.img"
	rc=0
	"$BENCHBOOT" collect "$T/trunc.img" -o "$T/out3-$cut" >"$T/c3.out" 2>&1 || rc=$?
	cat "$T/c3.out"
	case $rc in 0 | 1 | 100 | 111) ;; *) fail "collect of an image truncated to $cut: exit $rc" ;; esac
	[ $rc = 0 ] || [ -s "$T/c3.out" ] || fail "no message for a truncated image"
done

# random bytes: not a results disk
head -c 4M /dev/urandom >"$T/random.img"
rc=0
"$BENCHBOOT" collect "$T/random.img" -o "$T/out4" >"$T/c4.out" 2>&1 || rc=$?
expect_eq "collect of random bytes" "$rc" 100
expect_grep "not a benchboot results disk" "$T/c4.out"
# an unmarked ext4 disk: refused the same way
truncate -s 16M "$T/plain.img"
mke2fs -q -F -t ext4 "$T/plain.img"
rc=0
"$BENCHBOOT" collect "$T/plain.img" -o "$T/out5" >"$T/c5.out" 2>&1 || rc=$?
expect_eq "collect of an unmarked disk" "$rc" 100
echo "malicious disks ok"
