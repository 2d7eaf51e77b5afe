# UEFI: OVMF (from the sysroot) boots benchboot.efi given as QEMU's -kernel, the init runs a
# short stress-ng job and writes its results to the results partition of disk.img (attached as
# a virtio disk), and `benchboot collect` reads them from that partition.
. tests/lib.sh
[ -e "$SYSROOT/.complete" ] || fail "sysroot missing (make fetch)"
code=$SYSROOT/usr/share/OVMF/OVMF_CODE.fd
[ -e "$code" ] || fail "no OVMF in the sysroot (make fetch)"
command -v sgdisk >/dev/null || fail "sgdisk missing (tools/install-deps)"
[ -x "$B/init" ] || fail "build/init missing (make)"
cat >"$T/uefi-short.yaml" <<'JOB'
suite: stress-ng
nr_threads: 1
testtime: 3s
iterations: 1
stress-ng:
  test: cpu
JOB
"$BENCHBOOT" build -o "$T/img" --disk "$T/uefi-short.yaml" >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "benchboot build --disk failed"; }
I=$T/img/uefi-short
cp "$SYSROOT/usr/share/OVMF/OVMF_VARS.fd" "$T/vars.fd"
cp "$I/disk.img" "$T/disk.img"
timeout --signal=KILL 300 qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
	-drive if=pflash,format=raw,readonly=on,file="$code" -drive if=pflash,format=raw,file="$T/vars.fd" \
	-kernel "$I/benchboot.efi" -drive file="$T/disk.img",format=raw,if=virtio -net none \
	>"$T/console.log" 2>&1 </dev/null &
BB_PIDS+=($!)
wait $! || true
tr -d '\r' <"$T/console.log" >"$T/console.txt"
expect_grep "EFI stub: " "$T/console.txt"
expect_grep "^BENCHBOOT boot-start " "$T/console.txt"
expect_grep "results disk vda2 " "$T/console.txt"
expect_grep "^BENCHBOOT boot-end " "$T/console.txt"
expect_grep "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=cpu RESULT=" "$T/console.txt"

# The results partition of the disk image, as a stick's /dev/sdX2 would be read.
first=$(sgdisk -i 2 "$T/disk.img" | awk '/^First sector/ { print $3 }')
last=$(sgdisk -i 2 "$T/disk.img" | awk '/^Last sector/ { print $3 }')
dd if="$T/disk.img" of="$T/results.img" bs=512 skip="$first" count=$((last - first + 1)) conv=sparse status=none
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
