# benchboot build: GNU cpio reads the image; the extracted files equal their sources; device
# nodes are there; modules.order is what modprobe --show-depends computes after our own
# depmod -b; every line of the manifest matches the extracted tree and its digest is the id.
. tests/lib.sh
bb_need sysroot netperf
o=$T/out/img
printf 'benchboot-plan 1\njob=t\n' >"$T/plan"
mkdir -p "$T/extra/sub" && echo data >"$T/extra/sub/f" && ln -s sub/f "$T/extra/link"
"$BENCHBOOT" build --name img -o "$T/out" --busybox --module sctp --module dummy \
	--binary "$B/netperf/netperf" --binary /usr/bin/stress-ng --file "$T/extra:/opt/extra" \
	--plan "$T/plan" --no-init --cmdline "console=ttyS0 quiet" >"$T/log"
cat "$T/log"
for f in vmlinuz initrd.img manifest cmdline; do [ -s "$o/$f" ] || fail "$o/$f missing"; done
cmp "$o/vmlinuz" "$SYSROOT"/boot/vmlinuz-* || fail "vmlinuz is not the sysroot's kernel"
expect_eq cmdline "$(cat "$o/cmdline")" "console=ttyS0 quiet"

# GNU cpio lists and extracts it
zcat "$o/initrd.img" >"$T/initrd.cpio"
TZ=UTC cpio -itv --quiet <"$T/initrd.cpio" >"$T/list"
grep -q '^crw------- .* 5, *1 .* dev/console$' "$T/list" || fail "no dev/console c 5 1"
grep -q '^crw-rw-rw- .* 1, *3 .* dev/null$' "$T/list" || fail "no dev/null c 1 3"
for d in proc sys dev tmp run; do grep -q "^d.* $d\$" "$T/list" || fail "no /$d directory"; done
grep -q '^drwxrwxrwt .* tmp$' "$T/list" || fail "/tmp is not 1777"
[ "$(awk '$3 != "root" || $4 != "root"' "$T/list" | wc -l)" = 0 ] || fail "an entry is not owned by root"
x=$T/x
mkdir "$x"
nodev=()
[ "$(id -u)" = 0 ] || nodev=(--nonmatching 'dev/*')
(cd "$x" && cpio -idm --quiet "${nodev[@]+"${nodev[@]}"}" <"$T/initrd.cpio")
cmp "$x/usr/bin/netperf" "$B/netperf/netperf" || fail "netperf differs"
cmp "$x/usr/bin/stress-ng" "$SYSROOT/usr/bin/stress-ng" || fail "stress-ng differs"
cmp "$x/usr/lib/x86_64-linux-gnu/libsctp.so.1" "$SYSROOT/usr/lib/x86_64-linux-gnu/libsctp.so.1" ||
	fail "libsctp differs"
expect_eq "ld.so link" "$(readlink "$x/lib64/ld-linux-x86-64.so.2")" \
	"$(readlink "$SYSROOT/lib64/ld-linux-x86-64.so.2")"
cmp "$x/bin/busybox" "$SYSROOT/bin/busybox" || fail "busybox differs"
expect_eq "sh applet" "$(readlink "$x/bin/sh")" /bin/busybox
expect_eq "insmod applet" "$(readlink "$x/sbin/insmod")" /bin/busybox
for f in hosts nsswitch.conf protocols services passwd group; do
	cmp "$x/etc/$f" "rootfs/etc/$f" || fail "etc/$f differs from rootfs/"
done
cmp "$x/etc/benchboot/plan" "$T/plan" || fail "the plan differs"
cmp "$x/opt/extra/sub/f" "$T/extra/sub/f" || fail "--file directory content differs"
expect_eq "--file directory link" "$(readlink "$x/opt/extra/link")" sub/f
[ ! -e "$x/init" ] || fail "--no-init still gave an /init"
# every library a binary in the image needs is there, as the sysroot's loader resolves it
for bin in usr/bin/netperf usr/bin/stress-ng; do
	"$(bb_sysroot_glibc)/ld-linux-x86-64.so.2" --inhibit-cache \
		--library-path "$x/lib/x86_64-linux-gnu:$x/usr/lib/x86_64-linux-gnu" --list "$x/$bin" \
		>"$T/ldlist" 2>&1 || { cat "$T/ldlist"; fail "$bin: libraries missing from the image"; }
	! grep -q 'not found' "$T/ldlist" || fail "$bin: $(grep 'not found' "$T/ldlist")"
done

# modules: the order our own depmod + modprobe computes, the same bytes as the sysroot's
mods=$(ls -d "$SYSROOT"/lib/modules/*)
ver=$(basename "$mods")
mkdir -p "$T/root/lib/modules/$ver"
ln -s "$mods/kernel" "$T/root/lib/modules/$ver/kernel"
cp "$mods"/modules.builtin* "$mods/modules.order" "$T/root/lib/modules/$ver/"
depmod -b "$T/root" "$ver"
mkdir "$T/noconf"
modprobe -C "$T/noconf" -a --show-depends -S "$ver" -d "$T/root" sctp dummy | sed -n "s|^insmod $T/root||p" |
	sed 's/ *$//' | awk '!seen[$0]++' >"$T/want.order"
diff "$T/want.order" "$x/etc/benchboot/modules.order" || fail "modules.order differs from modprobe's"
grep -q "^/lib/modules/$ver/kernel/crypto/crc32c_generic.ko$" "$x/etc/benchboot/modules.order" ||
	fail "the crc32c softdep of libcrc32c is missing"
while read -r m; do cmp "$x$m" "$mods/${m#/lib/modules/$ver/}" || fail "$m differs"; done \
	<"$x/etc/benchboot/modules.order"

# the manifest: beside the image and in it, its digest the id; each line matches the tree
cmp "$o/manifest" "$x/etc/benchboot/manifest" || fail "the manifests differ"
id=$(sha256sum <"$o/manifest" | cut -c1-64)
expect_eq "image-id" "$(cat "$x/etc/benchboot/image-id")" "$id"
grep -q "image id $id" "$T/log" || fail "the printed id is not the manifest's digest"
# (in bulk: one sha256sum for all files, one find for modes and sizes)
awk '$1 ~ /^10/ {print $3 "  ." $4}' "$o/manifest" >"$T/sums"
(cd "$x" && sha256sum -c --quiet "$T/sums") || fail "file digests differ from the manifest"
awk '$1 ~ /^[0-9]+$/ && $1 !~ /^02/ {printf "%s %s %s\n", $1, ($1 ~ /^04/ ? 0 : $2), $4}' \
	"$o/manifest" | sort >"$T/want.modes"
(cd "$x" && find . -mindepth 1 ! -path ./dev/console ! -path ./dev/null \
	! -path ./etc/benchboot/manifest ! -path ./etc/benchboot/image-id \
	-printf '%y %m %s %p\n') | awk '{
		t = $1 == "f" ? "10" : $1 == "d" ? "04" : $1 == "l" ? "12" : "??"
		printf "%s%04d %s %s\n", t, $2, ($1 == "d" ? 0 : $3), substr($4, 2) }' |
	sort >"$T/got.modes"
diff "$T/want.modes" "$T/got.modes" || fail "modes or sizes of the tree differ from the manifest"
(cd "$x" && find . -type l -printf '%l\n') | sort -u | while IFS= read -r target; do
	printf '%s %s\n' "$(printf %s "$target" | sha256sum | cut -c1-64)" "$target"
done >"$T/targets"
(cd "$x" && find . -type l -printf '%p\t%l\n') | sort >"$T/links"
awk -F'\t' 'NR == FNR { split($0, a, " "); sum[substr($0, 66)] = a[1]; next }
	{ print substr($1, 2), sum[$2] }' "$T/targets" "$T/links" | sort >"$T/got.links"
awk '$1 ~ /^12/ { print $4, $3 }' "$o/manifest" | sort >"$T/want.links"
diff "$T/want.links" "$T/got.links" || fail "symlink targets differ from the manifest"
n=$(grep -c '^[0-9]' "$o/manifest")
total=$(wc -l <"$T/list")
expect_eq "manifest entries (the archive less manifest and image-id)" "$n" $((total - 2))
grep -q "^kernel $(stat -c %s "$o/vmlinuz") $(sha256sum <"$o/vmlinuz" | cut -c1-64)\$" "$o/manifest" ||
	fail "the kernel line does not match vmlinuz"
echo "ok: $total entries, $(stat -c %s "$o/initrd.img") bytes"
