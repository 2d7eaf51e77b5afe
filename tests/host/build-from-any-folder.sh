# The image does not depend on where benchboot was built: benchboot (host tool, init, musl
# libext2fs) built from a copy of the source in a folder of another name and depth builds the
# same job, with the same lock, into the same image id and bytes as the build this test runs
# from ($BB_TOP/$B, which make test has just built: one build here, not two). The image's /init
# is stripped; the unstripped init.debug names no build folder in its DWARF.
. tests/lib.sh
bb_need sysroot netperf
command -v readelf >/dev/null || skip "readelf is missing (binutils)"

copy() { # DIR: the committed source tree (and any uncommitted edits) at DIR
	mkdir -p "$1"
	git -C "$BB_TOP" ls-files -z --cached |
		(cd "$BB_TOP" && xargs -0 cp --parents -t "$1" 2>/dev/null) || true
	[ -e "$1/Makefile" ] || fail "copying the source to $1 failed"
}
build_in() { # DIR: benchboot and its init built there, then the job's image
	(cd "$1" && make -s -j2 B=build build/benchboot build/init >build.log 2>&1) ||
		{ tail -n 20 "$1/build.log"; fail "make in $1 failed"; }
	(cd "$1" && build/benchboot build config/jobs/netperf-tcp-stream-short.yaml \
		-o "$1/images" --binary "$BB_TOP/$B/netperf/netperf:/usr/bin/netperf") >"$1/image.log" 2>&1 ||
		{ cat "$1/image.log"; fail "benchboot build in $1 failed"; }
}
# a: this checkout's own build; b: a copy elsewhere, built there
a="$T/one/benchboot"
b="$T/second/checkout/of/bb-src"
mkdir -p "$a"
ln -s "$BB_TOP/$B" "$a/build"
(cd "$BB_TOP" && "$BB_TOP/$B/benchboot" build config/jobs/netperf-tcp-stream-short.yaml \
	-o "$a/images" --binary "$BB_TOP/$B/netperf/netperf:/usr/bin/netperf") >"$a/image.log" 2>&1 ||
	{ cat "$a/image.log"; fail "benchboot build in $BB_TOP failed"; }
copy "$b"
build_in "$b"
ida=$(sed -n 's/.*: image id \([0-9a-f]*\),.*/\1/p' "$a/image.log")
idb=$(sed -n 's/.*: image id \([0-9a-f]*\),.*/\1/p' "$b/image.log")
[ ${#ida} = 64 ] || { cat "$a/image.log"; fail "no image id in benchboot build's output"; }
echo "image id from $a: $ida"
echo "image id from $b: $idb"
expect_eq "image id from two build folders" "$idb" "$ida"
cmp "$a/images/netperf-tcp-stream-short/initrd.img" "$b/images/netperf-tcp-stream-short/initrd.img" ||
	fail "initrd.img differs"
cmp "$a/build/init" "$b/build/init" || fail "build/init differs between the two folders"
# /init in the image is the stripped one
[ -z "$(readelf -S "$a/build/init" | grep -E '\.debug_|\.symtab')" ] || fail "build/init is not stripped"
readelf -S "$a/build/init.debug" | contains '\.debug_info' || fail "build/init.debug has no DWARF"
for d in "$a/build" "$b/build"; do
	! readelf --debug-dump=info "$d/init.debug" 2>/dev/null |
		grep -q -e "$T" -e "$BB_TOP" -e /tmp/e2fsprogs ||
		fail "$d/init.debug's DWARF names a build folder"
	! strings "$d/init" | contains -e "$T" -e "$BB_TOP" || fail "$d/init names its build folder"
done
echo "init: $(stat -c %s "$a/build/init") bytes stripped, $(stat -c %s "$a/build/init.debug") unstripped"
