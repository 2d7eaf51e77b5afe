# The Debian kernel boots an image made by `benchboot build` (TCG): a shell /init given with
# --file loads /etc/benchboot/modules.order with BusyBox insmod, checks that sctp is loaded and
# netperf runs with the image's libraries, prints a marker with the image id, powers off.
# Twice: gzip, then zstd with an early cpio in front (its file must be in the root too).
. tests/lib.sh
bb_need netperf sysroot qemu

cat >"$T/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
while read -r m; do
	insmod "$m" || echo "insmod $m failed"
done </etc/benchboot/modules.order
grep -q '^sctp ' /proc/modules && echo "BUILD-TEST sctp loaded"
[ -c /dev/null ] && [ -c /dev/console ] && echo "BUILD-TEST device nodes ok"
/usr/bin/netperf -V | sed 's/^/BUILD-TEST /'
[ -e /kernel/x86/microcode/GenuineIntel.bin ] && echo "BUILD-TEST early $(cat /kernel/x86/microcode/GenuineIntel.bin)"
echo "BUILD-TEST marker id=$(cat /etc/benchboot/image-id)"
poweroff -f
INIT
chmod 755 "$T/init"
mkdir -p "$T/early/kernel/x86/microcode"
echo not-really-microcode >"$T/early/kernel/x86/microcode/GenuineIntel.bin"
(cd "$T/early" && find kernel | sort | cpio -o -H newc --quiet >"$T/early.cpio")

# boot NAME [build options]: build, boot under TCG with a hard timeout, check the console
boot() {
	local name=$1
	shift
	"$BENCHBOOT" build --name "$name" -o "$T/out" --busybox --module sctp \
		--binary "$B/netperf/netperf" --file "$T/init:/init" "$@" >"$T/build.log"
	cat "$T/build.log"
	local id rc=0 log=$T/$name.console
	id=$(sha256sum <"$T/out/$name/manifest" | cut -c1-64)
	bb_qemu 300 "$log" -kernel "$T/out/$name/vmlinuz" -initrd "$T/out/$name/initrd.img" \
		-append "$(cat "$T/out/$name/cmdline")" || rc=$?
	[ $rc = 0 ] || { boot_log_tail "$log" 30; fail "$name: qemu exit $rc (timeout or crash)"; }
	expect_grep "Run /init as init process" "$log"
	expect_grep "^BUILD-TEST sctp loaded" "$log"
	expect_grep "^BUILD-TEST device nodes ok" "$log"
	expect_grep "^BUILD-TEST Netperf version 2.7" "$log"
	expect_grep "^BUILD-TEST marker id=$id\$" "$log"
	expect_grep "reboot: Power down" "$log"
}
boot gzip
! grep -q "BUILD-TEST early" "$T/gzip.console" || fail "gzip: an early file without an early cpio"
boot zstd --compress zstd --level 3 --early-cpio "$T/early.cpio"
expect_grep "^BUILD-TEST early not-really-microcode" "$T/zstd.console"
echo ok
