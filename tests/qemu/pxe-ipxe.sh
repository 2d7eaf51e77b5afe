# PXE: QEMU's built-in TFTP serves the tree of `benchboot build --pxe`; SeaBIOS and the iPXE
# ROM of virtio-net fetch boot.ipxe (DHCP bootfile), which loads the kernel and initramfs with
# the image's command line; the init runs a short job and writes to an attached results disk
# (benchboot mkdisk), which `benchboot collect` reads.
. tests/lib.sh
. tests/qemu/media.inc
[ -e /usr/lib/ipxe/qemu/efi-virtio.rom ] || [ -e /usr/share/qemu/efi-virtio.rom ] ||
	fail "no iPXE ROM for virtio-net (ipxe-qemu; tools/scripts/install-deps)"
short_job "$T/pxe-short.yaml" "kernel_cmdline: benchboot.console.lava=1"
"$BENCHBOOT" build -o "$T/img" --module virtio_blk --module virtio_pci --pxe "$T/pxe-short.yaml" \
	>"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "benchboot build --pxe failed"; }
P=$T/img/pxe-short/pxe
cmdline=$(cat "$T/img/pxe-short/cmdline")
expect_grep "^kernel vmlinuz initrd=initrd.img $cmdline\$" "$P/boot.ipxe"
expect_grep "^  APPEND $cmdline\$" "$P/pxelinux.cfg/default"
"$BENCHBOOT" mkdisk "$T/results.img" --size 64M >/dev/null
bb_qemu 300 "$T/console.txt" -boot n -netdev user,id=n0,tftp="$P",bootfile=boot.ipxe \
	-device virtio-net-pci,netdev=n0 -drive file="$T/results.img",format=raw,if=virtio || true
expect_grep "iPXE" "$T/console.txt"
expect_grep "Command line: initrd=initrd.img $cmdline" "$T/console.txt"
expect_grep "^BENCHBOOT boot-start " "$T/console.txt"
expect_grep "results disk vda " "$T/console.txt"
expect_grep "^BENCHBOOT boot-end " "$T/console.txt"
"$BENCHBOOT" collect "$T/results.img" -o "$T/results" >"$T/collect.log" 2>&1 ||
	{ cat "$T/collect.log"; fail "benchboot collect failed"; }
expect_grep "1 boots collected (0 incomplete)" "$T/collect.log"
boot=$(ls -d "$T"/results/0001-*)
[ -e "$boot/runs/cpu/1/status" ] || fail "no status of run cpu on the results disk"
expect_grep "benchboot.console.lava=1" "$boot/env.json"
echo "run cpu: $(sed -n 's/.*"status": "\(.*\)".*/\1/p' "$boot/runs/cpu/1/status")"
