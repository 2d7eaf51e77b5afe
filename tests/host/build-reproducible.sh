# benchboot build is reproducible: two builds from copies of the inputs in different
# directories, at different times, with shuffled input mtimes, another umask and time zone,
# give byte-identical initrd.img (gzip, zstd, none). SOURCE_DATE_EPOCH sets every mtime.
# An early cpio goes first, uncompressed.
. tests/lib.sh
bb_need sysroot netperf

inputs() { # DIR: a copy of the host-side inputs
	mkdir -p "$1/files/d"
	cp "$B/netperf/netperf" "$1/netperf"
	printf '#!/bin/sh\necho hello\n' >"$1/files/init"
	chmod 755 "$1/files/init"
	echo one >"$1/files/d/one"
	echo two >"$1/files/d/two"
	printf 'benchboot-plan 1\n' >"$1/plan"
}
build() { # DIR NAME [options]: build from DIR as the working directory
	local dir=$1 name=$2
	shift 2
	(cd "$dir" && "$BENCHBOOT" build --name "$name" -o out --busybox --module sctp \
		--binary netperf --binary /usr/bin/stress-ng --file files/init:/init \
		--file files/d:/opt/d --plan plan "$@") >"$dir/$name.log" ||
		{ cat "$dir/$name.log"; fail "build $name in $dir failed"; }
}

inputs "$T/a"
inputs "$T/b"
touch -d '2001-02-03 04:05:06' "$T/b/netperf" "$T/b/files/init" "$T/b/plan"
touch -d '1999-12-31 23:59:59' "$T/b/files/d/one" "$T/b/files/d" "$T/b/files"
touch -d '@1' "$T/b/files/d/two"
chmod 700 "$T/b/files/d/one" # an execute bit: 0755 in the image, on both sides it is not
chmod 644 "$T/b/files/d/one"
build "$T/a" img
sleep 1
(umask 077 && TZ=Asia/Tokyo build "$T/b" img)
for f in initrd.img manifest cmdline vmlinuz; do
	cmp "$T/a/out/img/$f" "$T/b/out/img/$f" || fail "$f differs between the two builds"
done
grep -q ' mtime=0 ' "$T/a/out/img/manifest" || fail "default mtime is not 0"

# the same with zstd and no compression; both readable by the reference tools
for c in zstd none; do
	build "$T/a" "img-$c" --compress "$c" --level 3
	build "$T/b" "img-$c" --compress "$c" --level 3
	cmp "$T/a/out/img-$c/initrd.img" "$T/b/out/img-$c/initrd.img" || fail "$c: the builds differ"
done
# (the manifests differ only in the initrd line, so the archives differ in it and the id)
cpio -it --quiet <"$T/a/out/img-none/initrd.img" >"$T/none.list"
zstd -dc "$T/a/out/img-zstd/initrd.img" | cpio -it --quiet | diff - "$T/none.list" ||
	fail "zstd -d | cpio -it does not list the same archive"
gzip -dc "$T/a/out/img/initrd.img" | cpio -it --quiet | diff - "$T/none.list" ||
	fail "gzip -d | cpio -it does not list the same archive"
diff <(grep -v '^initrd ' "$T/a/out/img/manifest") <(grep -v '^initrd ' "$T/a/out/img-zstd/manifest") ||
	fail "the compression changed the content"
# gzip -n style header: no name, mtime 0
expect_eq "gzip header" "$(head -c 10 "$T/a/out/img/initrd.img" | od -An -tx1 | tr -d ' \n')" \
	1f8b0800000000000003

# SOURCE_DATE_EPOCH: every entry gets it, and only the mtimes change
(export SOURCE_DATE_EPOCH=1700000000 && build "$T/a" img-sde)
cmp -s "$T/a/out/img/initrd.img" "$T/a/out/img-sde/initrd.img" && fail "SOURCE_DATE_EPOCH changed nothing"
gzip -dc "$T/a/out/img-sde/initrd.img" | TZ=UTC cpio -itv --quiet >"$T/list"
n=$(wc -l <"$T/list")
expect_eq "entries dated 2023-11-14" "$(grep -c ' Nov 14  2023 ' "$T/list")" "$n"
diff <(grep -v '^initrd ' "$T/a/out/img/manifest") <(grep -v '^initrd ' "$T/a/out/img-sde/manifest") ||
	fail "SOURCE_DATE_EPOCH changed the content"
grep -q ' mtime=1700000000 ' "$T/a/out/img-sde/manifest" || fail "the manifest does not record the mtime"

# an early cpio (microcode style) is put first, uncompressed, padded to 512
mkdir -p "$T/early/kernel/x86/microcode"
echo fake-microcode >"$T/early/kernel/x86/microcode/GenuineIntel.bin"
(cd "$T/early" && find kernel | sort | cpio -o -H newc --quiet >"$T/early.cpio")
build "$T/a" img-early --early-cpio "$T/early.cpio"
size=$(stat -c %s "$T/early.cpio")
padded=$(((size + 511) / 512 * 512))
cmp -n "$size" "$T/early.cpio" "$T/a/out/img-early/initrd.img" || fail "the early cpio is not first"
expect_eq "early cpio padding" "$(tail -c +$((size + 1)) "$T/a/out/img-early/initrd.img" |
	head -c $((padded - size)) | tr -d '\0' | wc -c)" 0
tail -c +$((padded + 1)) "$T/a/out/img-early/initrd.img" | gzip -dc | cpio -it --quiet |
	diff - "$T/none.list" || fail "the main archive after the early cpio differs"
grep -q " early-cpio=$(sha256sum <"$T/early.cpio" | cut -c1-64)\$" "$T/a/out/img-early/manifest" ||
	fail "the manifest does not record the early cpio"
cpio -it --quiet <"$T/a/out/img-early/initrd.img" | contains GenuineIntel.bin ||
	fail "cpio does not read the early archive"
echo ok
