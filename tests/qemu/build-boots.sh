# The Debian kernel boots an image made by `benchboot build` (TCG): a shell /init given with
# --file loads /etc/benchboot/modules.order with BusyBox insmod, checks that sctp is loaded and
# netperf runs with the image's libraries, prints a marker with the image id, powers off.
. tests/lib.sh
[ -e "$SYSROOT/.complete" ] || skip "sysroot missing (make fetch)"
[ -x "$B/netperf/netperf" ] || skip "netperf not built (make netperf)"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 missing"

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
echo "BUILD-TEST marker id=$(cat /etc/benchboot/image-id)"
poweroff -f
INIT
chmod 755 "$T/init"
"$BENCHBOOT" build --name boot -o "$T/out" --busybox --module sctp \
	--binary "$B/netperf/netperf" --file "$T/init:/init" >"$T/build.log"
cat "$T/build.log"
id=$(sha256sum <"$T/out/boot/manifest" | cut -c1-64)
timeout --signal=KILL 300 qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
	-kernel "$T/out/boot/vmlinuz" -initrd "$T/out/boot/initrd.img" \
	-append "$(cat "$T/out/boot/cmdline")" >"$T/console.raw" 2>&1 </dev/null &
pid=$!
BB_PIDS+=("$pid")
rc=0
wait "$pid" || rc=$?
tr -d '\r' <"$T/console.raw" >"$T/console"
[ $rc = 0 ] || { tail -n 30 "$T/console"; fail "qemu exit $rc (timeout or crash)"; }
expect_grep "Run /init as init process" "$T/console"
expect_grep "^BUILD-TEST sctp loaded" "$T/console"
expect_grep "^BUILD-TEST device nodes ok" "$T/console"
expect_grep "^BUILD-TEST Netperf version 2.7" "$T/console"
expect_grep "^BUILD-TEST marker id=$id\$" "$T/console"
expect_grep "reboot: Power down" "$T/console"
echo ok
