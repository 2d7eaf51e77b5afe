# The USB stick: disk.img as a USB mass-storage device behind QEMU's xHCI controller. OVMF boots
# \EFI\BOOT\BOOTX64.EFI from the stick's ESP; the init (with the USB storage modules --disk
# adds) must find the results partition on that same stick (sda2) and write the boot there.
. tests/lib.sh
. tests/qemu/media.inc
short_job "$T/usb.yaml"
"$BENCHBOOT" build -o "$T/img" --disk "$T/usb.yaml" >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "benchboot build --disk failed"; }
cp "$T/img/usb/disk.img" "$T/stick.img"
ovmf_setup
bb_qemu 400 "$T/console.txt" "${OVMF[@]}" -device qemu-xhci,id=xhci \
	-drive if=none,id=stick,file="$T/stick.img",format=raw \
	-device usb-storage,bus=xhci.0,drive=stick -net none || true
expect_grep "BdsDxe: starting Boot.*USB" "$T/console.txt"
expect_grep "^BENCHBOOT boot-start " "$T/console.txt"
expect_grep "^BENCHBOOT boot-end " "$T/console.txt"
grep -q "results disk sda2 " "$T/console.txt" || {
	grep -E "sda|results" "$T/console.txt" | tail -n 12
	fail "the init did not find the results partition on the USB stick it booted from"
}
gpt_partition "$T/stick.img" 2 "$T/results.img"
"$BENCHBOOT" collect "$T/results.img" -o "$T/results" >"$T/collect.log" 2>&1 ||
	{ cat "$T/collect.log"; fail "benchboot collect failed"; }
expect_grep "1 boots collected (0 incomplete)" "$T/collect.log"
