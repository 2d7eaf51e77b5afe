# collect of an image that cannot be a results disk: cut short (the first MB of a 128 MB disk),
# empty, or random bytes. Each is bad input (exit 100) said once, in benchboot's words (the
# truncated one with its size and the size its filesystem has), and a failed collect leaves no
# output folder behind; the whole disk still collects (exit 0).
. tests/lib.sh
"$BENCHBOOT" mkdisk "$T/disk.img" --size 128M >/dev/null || fail "mkdisk failed"
head -c 1048576 "$T/disk.img" >"$T/cut.img"
: >"$T/empty.img"
head -c 2097152 /dev/urandom >"$T/noise.img"
one() { # IMAGE WANT-MESSAGE
	local rc=0
	"$BENCHBOOT" collect "$T/$1" -o "$T/out-$1" >"$T/$1.out" 2>"$T/$1.err" || rc=$?
	cat "$T/$1.out" "$T/$1.err"
	expect_eq "collect $1: exit" "$rc" 100
	expect_grep "^benchboot collect: fatal: unable to collect $T/$1: $2" "$T/$1.err"
	expect_eq "collect $1: lines of output" "$(cat "$T/$1.out" "$T/$1.err" | wc -l)" 1
	[ ! -e "$T/out-$1" ] || fail "collect $1 failed and left $T/out-$1 behind"
}
one cut.img "the image is truncated: 1048576 bytes, its filesystem has 134217728 (a copy cut short? copy the whole disk again)$"
one empty.img "the image is empty (0 bytes): "
one noise.img "not a benchboot results disk "
"$BENCHBOOT" collect "$T/disk.img" -o "$T/whole" >"$T/whole.out" 2>&1 || { cat "$T/whole.out"; fail "collect of the whole disk failed"; }
echo "a truncated, an empty and a foreign image: exit 100, one line each, no folder left"
