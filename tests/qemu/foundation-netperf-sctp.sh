# The pinned inputs work together in a real boot: the pinned Debian kernel (TCG), BusyBox from
# the sysroot, the sctp module chain from the sysroot, and netperf built with SCTP running
# SCTP_STREAM_MANY against netserver inside the guest. The image is packed here with GNU cpio
# from sysroot files only, independently of benchboot's own builder.
. tests/lib.sh
bb_need netperf sysroot qemu
kver=$(basename "$(ls -d "$SYSROOT"/lib/modules/*)")
r="$T/root"
mkdir -p "$r"/{bin,usr/bin,lib/x86_64-linux-gnu,lib64,mods,proc,sys,dev,etc,tmp}
cp "$SYSROOT/bin/busybox" "$r/bin/busybox"
for a in sh mount insmod ip sleep cat poweroff grep echo; do ln -s busybox "$r/bin/$a"; done
cp "$B/netperf/netperf" "$B/netperf/netserver" "$r/usr/bin/"
for l in libsctp.so.1 libm.so.6 libc.so.6 ld-linux-x86-64.so.2; do
	cp -L "$SYSROOT/lib/x86_64-linux-gnu/$l" "$r/lib/x86_64-linux-gnu/" 2>/dev/null ||
		cp -L "$SYSROOT/usr/lib/x86_64-linux-gnu/$l" "$r/lib/x86_64-linux-gnu/"
done
ln -s /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$r/lib64/ld-linux-x86-64.so.2"
printf '127.0.0.1 localhost\n' >"$r/etc/hosts"
printf 'hosts: files\n' >"$r/etc/nsswitch.conf"
for m in crc32c_generic libcrc32c udp_tunnel ip6_udp_tunnel sctp dummy; do
	cp "$(find "$SYSROOT/lib/modules/$kver" -name "$m.ko")" "$r/mods/"
done
cat >"$r/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in crc32c_generic libcrc32c udp_tunnel ip6_udp_tunnel sctp dummy; do
	insmod /mods/$m.ko || echo "MODFAIL $m"
done
ip link set lo up
# loading dummy creates dummy0 already (numdummies=1)
ip link show dummy0 >/dev/null 2>&1 || ip link add dummy0 type dummy
ip addr add 192.0.2.1/24 dev dummy0 && ip link set dummy0 up
netserver -4 -D >/tmp/ns.log 2>&1 &
sleep 1
netperf -4 -H 127.0.0.1 -t SCTP_STREAM_MANY -l 3 -- -m 10K >/tmp/np.out 2>&1
echo "NETPERF_RC=$?"
cat /tmp/np.out
echo FOUNDATION_DONE
poweroff -f
INIT
chmod +x "$r/init"
(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -n >"$T/initrd.img")
bb_qemu 300 "$T/console.txt" -kernel "$SYSROOT/boot/vmlinuz-$kver" -initrd "$T/initrd.img" \
	-append "console=ttyS0 panic=-1 quiet" || true
expect_grep FOUNDATION_DONE "$T/console.txt"
! grep -q MODFAIL "$T/console.txt" || fail "a module failed to load: $(grep MODFAIL "$T/console.txt")"
expect_grep "NETPERF_RC=0" "$T/console.txt"
expect_grep "SCTP 1-TO-MANY STREAM TEST" "$T/console.txt"
# The throughput line: five numeric columns, the last one the throughput, which must be > 0.
tput=$(awk '/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ *$/ { v = $5 } END { print v }' "$T/console.txt")
[ -n "$tput" ] || fail "no throughput line in the netperf output"
awk -v t="$tput" 'BEGIN { exit !(t > 0) }' || fail "throughput $tput is not positive"
echo "SCTP_STREAM_MANY throughput in the guest: $tput 10^6 bits/s"
