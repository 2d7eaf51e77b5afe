# The USB stick: disk.img as a USB mass-storage device behind QEMU's xHCI controller. OVMF boots
# \EFI\BOOT\BOOTX64.EFI from the stick's ESP; the init (with the USB storage modules --disk
# adds) must find the results partition on that same stick (sda2) and write the boot there.
. tests/lib.sh
[ -e "$SYSROOT/.complete" ] || fail "sysroot missing (make fetch)"
code=$SYSROOT/usr/share/OVMF/OVMF_CODE.fd
[ -e "$code" ] || fail "no OVMF in the sysroot (make fetch)"
command -v sgdisk >/dev/null || fail "sgdisk missing (tools/install-deps)"
[ -x "$B/init" ] || fail "build/init missing (make)"
cat >"$T/usb.yaml" <<'JOB'
suite: stress-ng
nr_threads: 1
testtime: 2s
iterations: 1
stress-ng:
  test: cpu
JOB
"$BENCHBOOT" build -o "$T/img" --disk "$T/usb.yaml" >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "benchboot build --disk failed"; }
cp "$T/img/usb/disk.img" "$T/stick.img"
cp "$SYSROOT/usr/share/OVMF/OVMF_VARS.fd" "$T/vars.fd"
timeout --signal=KILL 400 qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
	-drive if=pflash,format=raw,readonly=on,file="$code" -drive if=pflash,format=raw,file="$T/vars.fd" \
	-device qemu-xhci,id=xhci -drive if=none,id=stick,file="$T/stick.img",format=raw \
	-device usb-storage,bus=xhci.0,drive=stick -net none >"$T/console.log" 2>&1 </dev/null &
BB_PIDS+=($!)
wait $! || true
tr -d '\r' <"$T/console.log" >"$T/console.txt"
expect_grep "BdsDxe: starting Boot.*USB" "$T/console.txt"
expect_grep "^BENCHBOOT boot-start " "$T/console.txt"
expect_grep "^BENCHBOOT boot-end " "$T/console.txt"
grep -q "results disk sda2 " "$T/console.txt" || {
	grep -E "sda|results" "$T/console.txt" | tail -n 12
	fail "the init did not find the results partition on the USB stick it booted from"
}
first=$(sgdisk -i 2 "$T/stick.img" | awk '/^First sector/ { print $3 }')
last=$(sgdisk -i 2 "$T/stick.img" | awk '/^Last sector/ { print $3 }')
dd if="$T/stick.img" of="$T/results.img" bs=512 skip="$first" count=$((last - first + 1)) conv=sparse status=none
"$BENCHBOOT" collect "$T/results.img" -o "$T/results" >"$T/collect.log" 2>&1 ||
	{ cat "$T/collect.log"; fail "benchboot collect failed"; }
expect_grep "1 boots collected (0 incomplete)" "$T/collect.log"
