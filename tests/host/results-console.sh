# Console round trip: the init's writer without a results disk prints every file in the console
# encoding; `benchboot collect --console` gets them back from a log with CRs, kernel messages and
# noise in between. With a disk and dump_console, disk and console give the same boot folder.
# Names that would escape DIR are refused; a damaged file is reported, never written.
. tests/lib.sh
. tests/host/src/results-common.sh
build_writer
make_stage "$T/s1" "r.a=1" 1 100000
echo "line one" >"$T/s1/init.log"
make_stage "$T/s2" "r.a=2" 2
{ echo "line one"; echo "line two"; } >"$T/s2/init.log"
mkdir -p "$T/root/sys/class/block" "$T/local"
"$T/writer" "$T/root" cons1 "$T/local" "$T/s1" "$T/s2" >"$T/console.raw" 2>&1 || fail "writer"
expect_grep "no results disk: results go to the console only" "$T/console.raw"
# what a serial console makes of it
awk 'NR % 7 == 0 { print "[   12.345678] sctp: Hash tables configured\r" } { print $0 "\r" }' \
	"$T/console.raw" >"$T/console.log"
"$BENCHBOOT" collect --console "$T/console.log" -o "$T/out" >"$T/c.out" 2>&1 || { cat "$T/c.out"; fail "collect --console"; }
cat "$T/c.out"
expect_grep "^0000-cons1: collected, complete" "$T/c.out"
diff -r --exclude=.collect --exclude=done "$T/local" "$T/out/0000-cons1" || fail "console round trip differs"
expect_grep "^source=console" "$T/out/0000-cons1/.collect"
# again: nothing new
"$BENCHBOOT" collect --console "$T/console.log" -o "$T/out" >"$T/c2.out" 2>&1 || fail "second collect"
expect_grep "^0 boots collected (0 incomplete), 1 already there" "$T/c2.out"

# disk and console together: the same tree from both
"$BENCHBOOT" mkdisk "$T/disk.img" --size 32M >/dev/null || fail "mkdisk"
fake_disk "$T/root2" vda "$T/disk.img"
mkdir -p "$T/local2"
"$T/writer" "$T/root2" both "$T/local2" --dump "$T/s1" "$T/s2" >"$T/both.log" 2>&1 || fail "writer"
"$BENCHBOOT" collect --console "$T/both.log" -o "$T/fromcons" >/dev/null || fail "collect --console"
"$BENCHBOOT" collect "$T/disk.img" -o "$T/fromdisk" >/dev/null || fail "collect disk"
diff -r --exclude=.collect "$T/fromcons" "$T/fromdisk" || fail "console and disk differ"

# damage: a lost data line and a kernel message inside a data line
# (the first file with a 4th data line loses it; the second with a 6th gets a kernel message)
first=$(grep -n '^BENCHBOOT-DATA 3 ' "$T/console.raw" | sed -n 1p | cut -d: -f1)
last=$(grep -n '^BENCHBOOT-DATA 5 ' "$T/console.raw" | sed -n 2p | cut -d: -f1)
awk -v first="$first" -v last="$last" 'NR == first { next }
     NR == last { print substr($0, 1, 30) "[ 1.0] oops" substr($0, 31); next }
     { print }' "$T/console.raw" >"$T/damaged.log"
rc=0
"$BENCHBOOT" collect --console "$T/damaged.log" -o "$T/out3" >"$T/c3.out" 2>&1 || rc=$?
cat "$T/c3.out"
expect_eq "collect of a damaged log" "$rc" 1
expect_grep "lost on the console: data line 3 missing" "$T/c3.out"
expect_grep "lost on the console: data line 5 garbled" "$T/c3.out"
# each loss names the log and its line (the one where it was found)
expect_grep "^$T/damaged.log:[0-9][0-9]*: [^:]*: [^:]*: lost on the console: data line 3 missing" "$T/c3.out"
expect_grep "^$T/damaged.log:[0-9][0-9]*: [^:]*: [^:]*: lost on the console: data line 5 garbled" "$T/c3.out"
expect_grep "is in the done manifest but was not collected" "$T/c3.out"

# escaping names in a forged log
{
	printf 'BENCHBOOT-FILE boot=0001-x path=../../escape size=2 sha256=%s\nBENCHBOOT-DATA 0 aGk=\nBENCHBOOT-END boot=0001-x path=../../escape lines=1\n' \
		"$(printf hi | sha256sum | cut -d' ' -f1)"
	printf 'BENCHBOOT-FILE boot=0001-x path=/tmp/abs size=2 sha256=%s\nBENCHBOOT-DATA 0 aGk=\nBENCHBOOT-END boot=0001-x path=/tmp/abs lines=1\n' \
		"$(printf hi | sha256sum | cut -d' ' -f1)"
	printf 'BENCHBOOT-FILE boot=../x path=ok size=2 sha256=%s\nBENCHBOOT-DATA 0 aGk=\nBENCHBOOT-END boot=../x path=ok lines=1\n' \
		"$(printf hi | sha256sum | cut -d' ' -f1)"
	printf 'BENCHBOOT-FILE boot=0001-x path=runs/.tmp.x size=2 sha256=%s\nBENCHBOOT-DATA 0 aGk=\nBENCHBOOT-END boot=0001-x path=runs/.tmp.x lines=1\n' \
		"$(printf hi | sha256sum | cut -d' ' -f1)"
} >"$T/evil.log"
mkdir -p "$T/w"
rc=0
(cd "$T/w" && "$BENCHBOOT" collect --console "$T/evil.log" -o out) >"$T/c4.out" 2>&1 || rc=$?
cat "$T/c4.out"
expect_eq "collect of a forged log" "$rc" 1
expect_grep "refusing ../../escape: a '.' or '..' name would escape" "$T/c4.out"
expect_grep "refusing /tmp/abs: an absolute path" "$T/c4.out"
expect_grep "refusing boot folder name '../x'" "$T/c4.out"
expect_grep "refusing runs/.tmp.x: a name starting with '.'" "$T/c4.out"
[ "$(cd "$T/w" && find . | sort | tr '\n' ' ')" = ". ./out ./out/0001-x ./out/0001-x/.collect " ] ||
	fail "unexpected files: $(cd "$T/w" && find .)"
[ ! -e /tmp/abs ] || [ "$(cat /tmp/abs)" != hi ] || fail "wrote /tmp/abs"
rc=0
"$BENCHBOOT" collect --console /dev/null -o "$T/out5" >"$T/c5.out" 2>&1 || rc=$?
expect_eq "collect of a log without results" "$rc" 100
echo "console ok"
