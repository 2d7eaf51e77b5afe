# The results disk is never a scratch disk: a boot told (on its command line) that the results
# disk /dev/vda is its scratch device refuses it at boot for its label, says why on the console
# and in env.json, fails the run that wanted a filesystem with that reason, and writes nothing
# to it but its results: `benchboot run` exits 1 with the reason, the disk passes e2fsck -fn and
# collects again whole. What the VM's memory may not hold (LKP's need_memory, the ramdisks) is
# said before the boot.
. tests/lib.sh
. tests/qemu/job.inc
# two ramdisks of 1 GiB and LKP's need_memory: 4G, more than the VM's 1024 MB: run says so
# before the boot, as check does, and boots
sed -e '/^  - xfs$/d' -e 's/^disk: 1BRD_1G$/disk: 2BRD_1G/' config/jobs/fsmark.yaml >"$T/guard.yaml"
echo "need_memory: 4G" >>"$T/guard.yaml"
rc=0
bb_timeout 600 nice "$BENCHBOOT" run "$T/guard.yaml" --accel tcg --cpus 1 --monitors none \
	--images "$T/images" -o "$T/res" --append "benchboot.disk.devices=/dev/vda" \
	>"$T/run.out" 2>&1 || rc=$?
cat "$T/run.out"
expect_eq "benchboot run with the results disk as the scratch device: exit code" "$rc" 1
expect_grep "run guard: need_memory 4G (4096 MB) is more than a VM of 1024 MB has available" "$T/run.out"
expect_grep "boot group 0: its ramdisks (2brd) take up to 2048 MB of guest memory when written full, more than the VM's 1024 MB: --mem 3072 or more" "$T/run.out"
expect_grep "failed .*disk: /dev/vda carries the results disk's label BENCHBOOT: never made a scratch disk" "$T/run.out"
c=$T/console
tr -d '\r' <"$(ls "$T"/res/console/*.log | sed -n 1p)" >"$c"
expect_grep "^benchboot: scratch disk /dev/vda: /dev/vda carries the results disk's label BENCHBOOT" "$c"
expect_grep "^BENCHBOOT run-end id=guard iter=1 status=failed .*reason=disk:" "$c"
grep -q "mkfs\|^meta-data" "$c" && fail "a mkfs ran: $(grep -m3 'mkfs\|^meta-data' "$c")"
command -v e2fsck >/dev/null || skip "e2fsck (e2fsprogs) is needed to check the results disk"
e2fsck -fn "$T/res/results.img" >"$T/fsck" 2>&1 || fail "e2fsck -fn of the results disk: $(tail -5 "$T/fsck")"
"$BENCHBOOT" collect "$T/res/results.img" -o "$T/again" >"$T/collect" 2>&1 || true
python3 - "$(ls "$T"/again/0*/env.json | sed -n 1p)" <<'PY' || fail "collected env.json: $(cat "$T/collect")"
import json, sys
d = json.load(open(sys.argv[1]))["disk"]
assert d["devices"][0]["path"] == "/dev/vda", d
assert "results disk's label" in d["devices"][0]["refused"], d
print("collected again: env.json disk %s refused: %s" % (d["devices"][0]["path"], d["devices"][0]["refused"]))
PY
