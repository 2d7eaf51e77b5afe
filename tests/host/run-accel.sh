# The accelerator on a machine whose KVM runs firmware but not Linux (nested virtualisation):
# a fake qemu-system-x86_64 first on PATH prints firmware lines and then nothing under
# `-accel kvm`, and runs the real QEMU otherwise. BENCHBOOT_KVM_DEVICE names a file of the
# test as the KVM device, so this runs the same with or without a /dev/kvm.
#   1. the probe sees firmware but no kernel line: TCG, with the reason, and the boot finishes;
#   2. the probe sees the kernel (the fake prints a kernel line for its first KVM start only)
#      but the boot is silent under KVM: run stops it, switches to TCG, boots the same image
#      again; the boot is not counted as failed;
#   3. no KVM device at all: TCG, the device's error as the reason.
# Under TCG (2: after the switch) the default 2 vCPUs are warned about, once, when they are as
# many as the host's CPUs; 3 boots 1 vCPU.
. tests/lib.sh
command -v cpio >/dev/null || skip "GNU cpio is needed"
real_qemu=$(command -v qemu-system-x86_64) || skip "qemu-system-x86_64 is needed"
[ -x "$SYSROOT/bin/busybox" ] || skip "no sysroot busybox (make fetch)"
kernel=$(ls "$SYSROOT"/boot/vmlinuz-* 2>/dev/null | sed -n 1p)
[ -n "$kernel" ] || skip "no pinned kernel in the sysroot (make fetch)"

mkdir -p "$T/bin" "$T/root/bin" "$T/root/proc"
cat >"$T/bin/qemu-system-x86_64" <<EOF
#!/bin/bash
# fake QEMU: under -accel kvm, firmware output then silence (a kernel line first when
# \$T/kernel-once exists, once); the real QEMU otherwise
kvm=0
prev=
for a in "\$@"; do
	[ "\$prev" = -accel ] && [ "\$a" = kvm ] && kvm=1
	prev=\$a
done
[ \$kvm = 1 ] || exec "$real_qemu" "\$@"
echo "\$*" >>"$T/kvm-starts"
echo "SeaBIOS (version 1.16.2-debian-1.16.2-1)"
echo "Booting from ROM.."
echo "Probing EDD (edd=off to disable)... ok"
if [ -e "$T/kernel-once" ]; then
	rm -f "$T/kernel-once"
	echo "[    0.000000] Linux version 6.1.0-fake (fake@benchboot) #1 SMP"
fi
exec sleep 300
EOF
chmod +x "$T/bin/qemu-system-x86_64"
: >"$T/kvm"

cp "$SYSROOT/bin/busybox" "$T/root/bin/busybox"
cat >"$T/root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
echo "BENCHBOOT boot-start id=accel-ok runs=1 iterations=1 job=tiny cpus=2"
echo "BENCHBOOT run-start id=r1 iter=1/1 runtime=1 clients=1"
echo "benchboot: r1 iteration 1: tiny.value = 42 ops"
echo "BENCHBOOT run-end id=r1 iter=1 status=ok elapsed=1.00 init_ticks=0 init_cpu_us=0 reason=-"
echo "BENCHBOOT boot-end id=accel-ok ok=1 failed=0"
poweroff -f
EOF
chmod +x "$T/root/init"
(cd "$T/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -n) >"$T/ok.cpio.gz"

run() { # NAME EXPECTED_EXIT [OPTION...]: benchboot run with the fake QEMU first on PATH
	local name=$1 want=$2 rc=0
	shift 2
	PATH="$T/bin:$PATH" bb_timeout 600 "$BENCHBOOT" run --initrd "$T/ok.cpio.gz" \
		--kernel "$kernel" --no-disk -o "$T/out-$name" --deadline 400 "$@" >"$T/$name.out" 2>&1 ||
		rc=$?
	cat "$T/$name.out"
	expect_eq "$name: exit code" "$rc" "$want"
	if pgrep -f -- "$T/ok.cpio.gz" >/dev/null || pgrep -f -- "$T/bin/qemu" >/dev/null; then
		fail "$name: a QEMU is still running"
	fi
}

# 1. firmware runs under KVM, the kernel does not: the probe says so, TCG boots it
export BENCHBOOT_KVM_DEVICE="$T/kvm"
run probe 0
expect_grep "^accelerator: TCG (KVM: firmware ran but the kernel printed nothing in 5 s)" "$T/probe.out"
expect_grep "boot 1/1: kernel .*, TCG," "$T/probe.out"
expect_grep "boot 1/1: finished in" "$T/probe.out"
expect_eq "probe: KVM starts (the probe only)" "$(wc -l <"$T/kvm-starts")" 1
grep -q -- "-kernel $kernel" "$T/kvm-starts" || fail "the probe did not boot the job's kernel: $(cat "$T/kvm-starts")"
grep -q -- "-initrd" "$T/kvm-starts" && fail "the probe booted an initramfs: $(cat "$T/kvm-starts")"
expect_grep '"accel": "tcg"' "$T/out-probe/run.json"
expect_vcpu_warning "$T/probe.out" "$T/out-probe/run.json" 2

# 2. the probe sees a kernel line, the boot then prints nothing under KVM: switched mid-run
rm -f "$T/kvm-starts"
: >"$T/kernel-once"
run switch 0
expect_grep '^accelerator: KVM (the kernel printed "Linux version 6.1.0-fake" under KVM' "$T/switch.out"
expect_grep "boot 1/1: kernel .*, KVM," "$T/switch.out"
expect_grep "boot 1/1: no kernel output within 10 s (last line: Probing EDD (edd=off to disable)... ok) under KVM: stopped; .* TCG for the rest of this run, booting again" "$T/switch.out"
expect_grep "boot 1/1: kernel .*, TCG," "$T/switch.out"
expect_grep "boot 1/1: finished in" "$T/switch.out"
expect_grep "boot 1: kernel .*: finished" "$T/switch.out"
grep -q FAILED "$T/switch.out" && fail "the KVM boot was counted as failed"
expect_eq "switch: KVM starts (probe and one boot)" "$(wc -l <"$T/kvm-starts")" 2
expect_grep '"accel": "tcg"' "$T/out-switch/run.json"
expect_grep '"outcome": "poweroff"' "$T/out-switch/run.json"
# KVM chose at first: the warning comes with the switch to TCG, once
expect_vcpu_warning "$T/switch.out" "$T/out-switch/run.json" 2

# 3. no KVM device: the reason is the device's error, QEMU is not started under KVM; one vCPU
# (no warning unless the host has a single CPU)
rm -f "$T/kvm-starts"
export BENCHBOOT_KVM_DEVICE="$T/no-such-kvm"
run nokvm 0 --cpus 1
expect_vcpu_warning "$T/nokvm.out" "$T/out-nokvm/run.json" 1
expect_grep "^accelerator: TCG (KVM: $T/no-such-kvm: No such file or directory)" "$T/nokvm.out"
[ ! -e "$T/kvm-starts" ] || fail "QEMU was started under KVM without a KVM device"
echo "probe and mid-run switch to TCG checked"
