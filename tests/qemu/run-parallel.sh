# benchboot run --parallel 2 --until: two kernels (the pinned kernel under two names, A and B),
# one vCPU each so that two VMs fit on a 2-CPU host, a short netperf TCP_STREAM job. The boots
# run in pairs, an A and a B side by side, each VM pinned to its own host CPU and writing its
# own results disk; the A is on each CPU set once over the two pairs (the rotation); run.json
# names each boot's host CPUs and its partner; --until checks after each pair and stops at
# --max-boots; compare reads the folder as any other, pairing the boots that ran together.
# With 2-vCPU guests on a host too small for two, --parallel 2 says why it boots one at a time.
# tests/run: alone (VMs pinned to their own host CPUs)
. tests/lib.sh
bb_need init netperf qemu
. tests/qemu/busybox-init.inc
. tests/qemu/parallel.inc "cluster: cs-localhost"

rc=0
bb_timeout 1200 nice "$BENCHBOOT" run "$T/par.yaml" --kernel "A=$kernel" --kernel "B=$kernel" \
	--accel tcg --cpus 1 --parallel 2 --until 100% --max-boots 4 --images "$T/images" \
	-o "$T/res" >"$T/par.out" 2>&1 || rc=$?
cat "$T/par.out"
expect_eq "exit code" "$rc" 0
expect_grep "^side by side: 2 VMs at once, each pinned to its own host CPUs: " "$T/par.out"
# progress of both VMs, each with its QEMU and CPUs
expect_grep "^boot 1/4: kernel A, .*host CPUs [0-9]" "$T/par.out"
expect_grep "^boot 2/4: kernel B, .*host CPUs [0-9]" "$T/par.out"
expect_grep "^boot 2/4: QEMU pid [0-9]" "$T/par.out"
# --until after each pair, not after each boot: it stops by itself or at the limit
checks=$(grep "^until 100%: " "$T/par.out" | grep -vc "^until 100%: each interval at")
expect_eq "an interval line after each pair" "$checks" 2
expect_grep "^until: stopped: " "$T/par.out"
python3 - "$T/res/run.json" <<'PY' || fail "run.json: side-by-side pairs"
import json, sys
boots = json.load(open(sys.argv[1]))["boots"]
assert len(boots) == 4, len(boots)
by_id = {b["boot_id"]: b for b in boots}
sides = {}
for i, b in enumerate(boots):
    s = b["side_by_side"]
    assert b["outcome"] == "poweroff", (i, b["outcome"], b.get("detail"))
    assert s["group"] == i // 2, (i, s)
    assert b["params"]["kernel"] == "AB"[i % 2], (i, b["params"])
    (p,) = s["partners"]
    other = boots[i ^ 1]
    assert p == other["boot_id"], (i, p)
    # the partner: the other side, same group, the other CPU set
    assert other["side_by_side"]["group"] == s["group"]
    assert other["side_by_side"]["host_cpus"] != s["host_cpus"], (s, other)
    assert other["side_by_side"]["slot"] != s["slot"]
    sides.setdefault(b["params"]["kernel"], []).append(s["host_cpus"])
# balanced: each side once on each CPU set
for k, cpus in sides.items():
    assert len(set(cpus)) == 2, (k, cpus)
print("run.json: pairs", [(b["params"]["kernel"], b["side_by_side"]["host_cpus"]) for b in boots])
PY
# the results folder is a sequential run's: a boot folder per boot
expect_eq "boot folders" "$(find "$T/res" -maxdepth 2 -name env.json | wc -l)" 4
[ -e "$T/res/results-2.img" ] || fail "no second results disk"
bb_compare "$T/cmp.out" "$T/res" --by kernel
expect_grep "per-boot means of 2 and 2 boots, paired by the boots that ran side by side" "$T/cmp.out"

# 2-vCPU guests asked for (--cpus 2): where two do not fit, the run says so (the reason and a
# --cpus that fits) and boots one at a time; without --cpus, --parallel chooses the VM shape
# that fits (1 vCPU each on a 2-CPU host), says so and boots side by side
if [ "$(nproc)" -lt 4 ]; then
	busybox_initramfs off 'poweroff -f'
	rc=0
	bb_timeout 300 "$BENCHBOOT" run --initrd "$T/off.cpio.gz" --no-disk --accel tcg --deadline 200 \
		--parallel 2 --cpus 2 -o "$T/off" >"$T/off.out" 2>&1 || rc=$?
	cat "$T/off.out"
	expect_grep "^benchboot run: --parallel 2: 2 VMs of 2 vCPUs need 4 host CPUs .*: 1 fit; booting one VM at a time (with --cpus 1, 2 would fit)" "$T/off.out"
	if grep -q "^side by side" "$T/off.out"; then fail "side by side on a host too small"; fi
	if [ "$(nproc)" = 2 ]; then
		rc=0
		bb_timeout 300 "$BENCHBOOT" run --initrd "$T/off.cpio.gz" --no-disk --accel tcg \
			--deadline 200 --parallel 2 -o "$T/shape" >"$T/shape.out" 2>&1 || rc=$?
		cat "$T/shape.out"
		expect_grep "^VM shape: 1 vCPU per VM, not 2: 2 VMs of 2 vCPUs under TCG would crowd this 2-CPU host" "$T/shape.out"
		expect_grep "^side by side: 2 VMs at once" "$T/shape.out"
	fi
fi
