# PXE for a job with two boot groups (cgroup v1 and v2): `benchboot build --pxe JOB` writes one
# tree for both (JOB.pxe: a boot.ipxe menu, one script per group, pxelinux.cfg/default with one
# LABEL each, each command line with its benchboot.boot.group). QEMU's TFTP hands out group 1's
# script; the init runs group 1's plan, in the cgroup mode of group 1, as the results disk says.
. tests/lib.sh
. tests/qemu/media.inc
short_job "$T/groups.yaml" "cgroup: [v1, v2]"
"$BENCHBOOT" build -o "$T/img" --module virtio_blk --module virtio_pci --pxe "$T/groups.yaml" \
	>"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "benchboot build --pxe failed"; }
P=$T/img/groups.pxe
expect_grep "groups.pxe/: network boot tree of all 2 boot groups" "$T/build.log"
for g in 0 1; do
	cmp "$P/groups.boot$g/vmlinuz" "$T/img/groups.boot$g/vmlinuz" || fail "group $g kernel"
	cmp "$P/groups.boot$g/initrd.img" "$T/img/groups.boot$g/initrd.img" || fail "group $g initrd"
	expect_grep "^kernel groups.boot$g/vmlinuz initrd=initrd.img .* benchboot.boot.group=$g\$" "$P/groups.boot$g.ipxe"
	expect_grep "^  APPEND .* benchboot.boot.group=$g\$" "$P/pxelinux.cfg/default"
	expect_grep "^item groups.boot$g boot group $g: groups.boot$g\$" "$P/boot.ipxe"
done
expect_grep "^DEFAULT groups.boot0$" "$P/pxelinux.cfg/default"
"$BENCHBOOT" mkdisk "$T/results.img" --size 64M >/dev/null
bb_qemu 300 "$T/console.txt" -boot n -netdev user,id=n0,tftp="$P",bootfile=groups.boot1.ipxe \
	-device virtio-net-pci,netdev=n0 -drive file="$T/results.img",format=raw,if=virtio || true
expect_grep "Command line: initrd=initrd.img .* benchboot.boot.group=1" "$T/console.txt"
expect_grep "^BENCHBOOT cgroup mode=v2 " "$T/console.txt"
expect_grep "^BENCHBOOT boot-end " "$T/console.txt"
"$BENCHBOOT" collect "$T/results.img" -o "$T/results" >"$T/collect.log" 2>&1 ||
	{ cat "$T/collect.log"; fail "benchboot collect failed"; }
boot=$(ls -d "$T"/results/0001-*)
expect_grep "benchboot.boot.group=1" "$boot/env.json"
echo "group 1 booted over PXE: $(grep -o 'BENCHBOOT cgroup mode=[a-z0-9]*' "$T/console.txt")"
