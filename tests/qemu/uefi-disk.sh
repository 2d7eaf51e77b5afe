# UEFI from the disk image alone, as from a USB stick: OVMF finds \EFI\BOOT\BOOTX64.EFI on the
# ESP of disk.img (no -kernel), the init finds the results partition on the same disk, runs a
# short job, and `benchboot collect` reads the boot from the disk's results partition. A second
# boot of the same disk adds a second boot folder (take the stick back, boot again).
. tests/lib.sh
. tests/qemu/media.inc
short_job "$T/stick.yaml"
"$BENCHBOOT" build -o "$T/img" --disk "$T/stick.yaml" >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "benchboot build --disk failed"; }
cp "$T/img/stick/disk.img" "$T/disk.img"
ovmf_setup
boot() { # N
	bb_qemu 300 "$T/console$1.txt" "${OVMF[@]}" -drive file="$T/disk.img",format=raw,if=virtio \
		-net none || true
	expect_grep "BdsDxe: starting Boot.*PciRoot" "$T/console$1.txt"
	expect_grep "^BENCHBOOT boot-start " "$T/console$1.txt"
	expect_grep "results disk vda2 " "$T/console$1.txt"
	expect_grep "^BENCHBOOT boot-end " "$T/console$1.txt"
}
boot 1
boot 2
gpt_partition "$T/disk.img" 2 "$T/results.img"
"$BENCHBOOT" collect "$T/results.img" -o "$T/results" >"$T/collect.log" 2>&1 ||
	{ cat "$T/collect.log"; fail "benchboot collect failed"; }
expect_grep "2 boots collected (0 incomplete)" "$T/collect.log"
# The whole disk image, as a user collects a stick: collect finds the GPT's results partition
# and reads the same boots, byte for byte.
"$BENCHBOOT" collect "$T/disk.img" -o "$T/whole" >"$T/whole.log" 2>&1 ||
	{ cat "$T/whole.log"; fail "benchboot collect of the whole disk image failed"; }
expect_grep "GPT disk: collecting its results partition 2" "$T/whole.log"
expect_grep "2 boots collected (0 incomplete)" "$T/whole.log"
diff -r "$T/results" "$T/whole" >"$T/whole.diff" || { head -20 "$T/whole.diff"; fail "the whole-disk collect differs from the partition's"; }
for b in "$T"/results/000[12]-*; do
	[ -e "$b/runs/cpu/1/status" ] || fail "no status of run cpu in $(basename "$b")"
done
# The ESP was not written to: the boot loader's file is still the UKI built.
MTOOLS_SKIP_CHECK=1 mcopy -n -i "$T/disk.img@@1M" ::/EFI/BOOT/BOOTX64.EFI "$T/bootx64.efi"
cmp "$T/bootx64.efi" "$T/img/stick/benchboot.efi" || fail "BOOTX64.EFI changed"
echo "boots: $(ls "$T/results" | tr '\n' ' ')"
