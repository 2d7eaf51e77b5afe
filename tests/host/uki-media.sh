# `benchboot build --uki --disk --pxe`: the UKI's sections as objdump reads them, the disk image
# as sgdisk, fsck.fat, mtools and e2fsck/debugfs read it, the PXE tree's scripts, and
# determinism: two builds in different directories, at different times, with the inputs'
# mtimes changed, give identical benchboot.efi and disk.img.
. tests/lib.sh
bb_need sysroot
[ -e "$SYSROOT/usr/lib/systemd/boot/efi/linuxx64.efi.stub" ] || fail "no EFI stub in the sysroot (make fetch)"
for t in objdump sgdisk fsck.fat mcopy e2fsck debugfs; do
	command -v $t >/dev/null || fail "$t missing (tools/scripts/install-deps)"
done
cat >"$T/init" <<'EOF'
#!/bin/sh
echo hello
EOF
chmod +x "$T/init"
# --disk adds benchboot.results.wait=30 to the command line (the init waits for a USB stick's results partition).
build() { # DIR
	(cd "$1" && "$BENCHBOOT" build --name m -o out --busybox --init "$T/init" \
		--cmdline "console=ttyS0 panic=-1 benchboot.boot.group=3" --uki --disk --pxe) >"$1/build.log"
}
mkdir -p "$T/a" "$T/b"
build "$T/a" || { cat "$T/a/build.log"; fail "build --uki --disk --pxe failed"; }
expect_grep "out/m/benchboot.efi: UEFI unified kernel image" "$T/a/build.log"
expect_grep "out/m/disk.img: disk image" "$T/a/build.log"
sleep 1.1
touch -d '2001-02-03 04:05:06' "$T/init"
build "$T/b" || fail "second build failed"
A=$T/a/out/m B2=$T/b/out/m
cmp "$A/benchboot.efi" "$B2/benchboot.efi" || fail "benchboot.efi differs between two builds"
cmp "$A/disk.img" "$B2/disk.img" || fail "disk.img differs between two builds"
diff -r "$A/pxe" "$B2/pxe" || fail "the PXE trees differ between two builds"

# The UKI: the stub's sections, then ours in order, the kernel's bytes in .linux.
objdump -h "$A/benchboot.efi" >"$T/sections"
expect_grep "pei-x86-64" "$T/sections"
names=$(awk '$2 ~ /^\./ { print $2 }' "$T/sections" | tail -4 | tr '\n' ' ')
expect_eq "last four sections" "$names" ".osrel .cmdline .initrd .linux "
objdump -p "$A/benchboot.efi" | contains 'SectionAlignment.*00000200' || fail "SectionAlignment is not 0x200"
objdump -p "$A/benchboot.efi" | contains 'Time/Date.*1970' || fail "TimeDateStamp is not 0"
off=$(awk '$2 == ".linux" { print $6 }' "$T/sections")
size=$(awk '$2 == ".linux" { print $3 }' "$T/sections")
section() { # OFFSET SIZE (hex, as objdump prints them)
	dd if="$A/benchboot.efi" iflag=skip_bytes,count_bytes bs=1M skip=$((16#$1)) count=$((16#$2)) status=none
}
section "$off" "$size" >"$T/linux"
cmp "$T/linux" "$A/vmlinuz" || fail ".linux is not the image's kernel"
off=$(awk '$2 == ".cmdline" { print $6 }' "$T/sections")
size=$(awk '$2 == ".cmdline" { print $3 }' "$T/sections")
expect_eq ".cmdline" "$(section "$off" "$size")" \
	"console=ttyS0 panic=-1 benchboot.boot.group=3 benchboot.results.wait=30"

# The disk: GPT, the ESP with the UKI as the removable-media boot path, the results partition.
sgdisk -v "$A/disk.img" >"$T/sgdisk" 2>&1 || { cat "$T/sgdisk"; fail "sgdisk -v"; }
expect_grep "No problems found" "$T/sgdisk"
sgdisk -p "$A/disk.img" >"$T/parts"
expect_grep "EF00  benchboot-esp" "$T/parts"
expect_grep "8300  benchboot-results" "$T/parts"
esp=$(sgdisk -i 1 "$A/disk.img" | awk '/^First sector/ { print $3 }')
res=$(sgdisk -i 2 "$A/disk.img" | awk '/^First sector/ { print $3 }')
res_end=$(sgdisk -i 2 "$A/disk.img" | awk '/^Last sector/ { print $3 }')
dd if="$A/disk.img" of="$T/esp.img" bs=512 skip="$esp" count=$((res - esp)) status=none
fsck.fat -n "$T/esp.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "fsck.fat found problems in the ESP"; }
MTOOLS_SKIP_CHECK=1 mcopy -n -i "$T/esp.img" ::/EFI/BOOT/BOOTX64.EFI "$T/bootx64.efi"
cmp "$T/bootx64.efi" "$A/benchboot.efi" || fail "\\EFI\\BOOT\\BOOTX64.EFI is not benchboot.efi"
MTOOLS_SKIP_CHECK=1 minfo -i "$T/esp.img" :: | contains 'disk type="FAT32   "' || fail "the ESP is not FAT32"
dd if="$A/disk.img" of="$T/res.img" bs=512 skip="$res" count=$((res_end - res + 1)) conv=sparse status=none
e2fsck -fn "$T/res.img" >"$T/e2fsck" 2>&1 || { cat "$T/e2fsck"; fail "e2fsck found problems in the results partition"; }
debugfs -R 'cat benchboot-disk' "$T/res.img" 2>/dev/null >"$T/marker"
expect_grep "^benchboot-results-disk 1" "$T/marker"
expect_grep "^id=[0-9a-f]\{32\}$" "$T/marker"
[ "$(e2label "$T/res.img")" = BENCHBOOT ] || fail "results partition label: $(e2label "$T/res.img")"

# The PXE tree: kernel and initrd as built, both scripts with the full command line.
cmp "$A/pxe/vmlinuz" "$A/vmlinuz" || fail "pxe/vmlinuz"
cmp "$A/pxe/initrd.img" "$A/initrd.img" || fail "pxe/initrd.img"
expect_grep "^#!ipxe" "$A/pxe/boot.ipxe"
expect_grep "^kernel vmlinuz initrd=initrd.img console=ttyS0 panic=-1 benchboot.boot.group=3 benchboot.results.wait=30$" "$A/pxe/boot.ipxe"
expect_grep "^initrd initrd.img$" "$A/pxe/boot.ipxe"
expect_grep "^DEFAULT m$" "$A/pxe/pxelinux.cfg/default"
expect_grep "^  APPEND console=ttyS0 panic=-1 benchboot.boot.group=3 benchboot.results.wait=30$" "$A/pxe/pxelinux.cfg/default"

# SOURCE_DATE_EPOCH is the PE TimeDateStamp and every FAT and ext4 timestamp.
mkdir -p "$T/c"
(cd "$T/c" && SOURCE_DATE_EPOCH=1700000000 "$BENCHBOOT" build --name m -o out --busybox --init "$T/init" \
	--uki --disk) >/dev/null || fail "build with SOURCE_DATE_EPOCH failed"
C=$T/c/out/m
objdump -p "$C/benchboot.efi" | contains 'Time/Date.*Nov 14 22:13:20 2023' || fail "TimeDateStamp is not SOURCE_DATE_EPOCH"
MTOOLS_SKIP_CHECK=1 mdir -i "$C/disk.img@@1M" ::/EFI/BOOT >"$T/mdir"
expect_grep "BOOTX64  EFI .* 2023-11-14  22:13" "$T/mdir"
res=$(sgdisk -i 2 "$C/disk.img" | awk '/^First sector/ { print $3 }')
res_end=$(sgdisk -i 2 "$C/disk.img" | awk '/^Last sector/ { print $3 }')
dd if="$C/disk.img" of="$T/res-c.img" bs=512 skip="$res" count=$((res_end - res + 1)) conv=sparse status=none
debugfs -R 'stat benchboot-disk' "$T/res-c.img" 2>/dev/null >"$T/stat"
[ "$(grep -c 'time: 0x6553f100' "$T/stat")" = 4 ] || { cat "$T/stat"; fail "marker times are not SOURCE_DATE_EPOCH"; }

# A stub that cannot be used is bad input (exit 100) naming it; no UKI is left behind.
mkdir -p "$T/badroot/usr/lib/systemd/boot/efi"
ln -s "$SYSROOT/boot" "$T/badroot/boot"
echo "not a PE image" >"$T/badroot/usr/lib/systemd/boot/efi/linuxx64.efi.stub"
set +e
(cd "$T/a" && "$BENCHBOOT" build --name bad -o out --no-init --sysroot "$T/badroot" --uki) >/dev/null 2>"$T/err"
rc=$?
set -e
expect_eq "exit code with a bad stub" $rc 100
expect_grep "linuxx64.efi.stub is not a usable PE image" "$T/err"
[ ! -e "$T/a/out/bad/benchboot.efi" ] || fail "a UKI was written from a bad stub"
echo "benchboot.efi $(stat -c %s "$A/benchboot.efi") bytes, disk.img $(stat -c %s "$A/disk.img") bytes (sparse: $(du -k "$A/disk.img" | cut -f1) KiB)"
