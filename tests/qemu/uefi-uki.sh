# UEFI: OVMF (from the sysroot) boots benchboot.efi given as QEMU's -kernel, the init runs a
# short stress-ng job and writes its results to the results partition of disk.img (attached as
# a virtio disk), and `benchboot collect` reads them from that partition.
. tests/lib.sh
. tests/qemu/media.inc
short_job "$T/uefi-short.yaml"
"$BENCHBOOT" build -o "$T/img" --disk "$T/uefi-short.yaml" >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "benchboot build --disk failed"; }
I=$T/img/uefi-short
ovmf_setup
cp "$I/disk.img" "$T/disk.img"
bb_qemu 300 "$T/console.txt" "${OVMF[@]}" -kernel "$I/benchboot.efi" \
	-drive file="$T/disk.img",format=raw,if=virtio -net none || true
expect_grep "EFI stub: " "$T/console.txt"
expect_grep "^BENCHBOOT boot-start " "$T/console.txt"
expect_grep "results disk vda2 " "$T/console.txt"
expect_grep "^BENCHBOOT boot-end " "$T/console.txt"
expect_grep "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=cpu RESULT=" "$T/console.txt"

# The results partition of the disk image, as a stick's /dev/sdX2 would be read.
gpt_partition "$T/disk.img" 2 "$T/results.img"
"$BENCHBOOT" collect "$T/results.img" -o "$T/results" >"$T/collect.log" 2>&1 ||
	{ cat "$T/collect.log"; fail "benchboot collect failed"; }
expect_grep "1 boots collected (0 incomplete)" "$T/collect.log"
boot=$(ls -d "$T"/results/0001-*)
expect_grep "^status=complete" "$boot/.collect"
[ -e "$boot/runs/cpu/1/status" ] || fail "no status of run cpu on the results partition"
expect_grep '"exit_code": 0' "$boot/runs/cpu/1/status"
[ -e "$boot/runs/cpu/results.json" ] || fail "no results.json of run cpu on the results partition"
expect_grep '"stress-ng.cpu.ops_per_sec"' "$boot/runs/cpu/results.json"
expect_grep "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=cpu.stress-ng.cpu.ops_per_sec RESULT=pass UNITS=" "$T/console.txt"
echo "run cpu: $(sed -n 's/.*"status": "\(.*\)".*/\1/p' "$boot/runs/cpu/1/status"); boot $(basename "$boot")"
