# config/jobs/fsmark.yaml end to end (TCG): one brd ramdisk of 1 GiB, loaded with LKP's rd_nr
# and rd_size; xfs and ext4 made on it afresh for the iteration with LKP's mkfs options and
# mounted at /fs/ram0 (xfs with LKP's inode64); fs_mark, as LKP's run script starts it, writes
# 4096 files of 8 KiB with an fsync each: LKP's fsmark.files_per_sec and fsmark.app_overhead
# > 0; env.json records the disk (its size, rotational, scheduler, brd's parameters) and each
# run's filesystem as the kernel mounted it; mkfs's own output is kept with the iteration.
. tests/lib.sh
. tests/qemu/job.inc
# one vCPU and no monitors: the boot leaves the QEMU test in the other lane its CPU
JOB_RUN_OPTS="--cpus 1 --monitors none" job_run fsmark
job_check "$T/res" fsmark.files_per_sec fsmark.app_overhead fsmark.time.elapsed_time \
	>"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
for fs in xfs ext4; do
	dir=$(ls -d "$T"/res/0*/runs/fsmark.fs-$fs/1 | sed -n 1p)
	[ -d "$dir" ] || fail "no iteration of the $fs run in $T/res"
	# LKP's command line: one writer's directory, 16 x 256, 32M / 8K files, fsyncBeforeClose
	expect_grep "^#  /usr/bin/fs_mark  -d  /fs/ram0/1  -D  16  -N  256  -n  4096  -L  1  -S  1  -s  8192 *$" "$dir/client.0.out"
	expect_grep "^FSUse%" "$dir/client.0.out"
	[ -f "$dir/mkfs.ram0.out" ] || fail "no mkfs output kept in $dir"
done
expect_grep "^meta-data=/dev/ram0 .*agcount=4" "$(ls "$T"/res/0*/runs/fsmark.fs-xfs/1/mkfs.ram0.out)"
python3 - "$(ls "$T"/res/0*/env.json | sed -n 1p)" <<'PY' || fail "env.json's disk and filesystems"
import json, sys
env = json.load(open(sys.argv[1]))
d = env["disk"]
assert d["description"] == "1brd" and d["error"] is None, d
assert d["module_params"] == {"brd": "rd_nr=1 rd_size=1048576"}, d
dev = d["devices"][0]
assert dev["path"] == "/dev/ram0" and dev["bytes"] == 1 << 30 and dev["refused"] is None, dev
assert dev["rotational"] == 0, dev
runs = env["runs"]
xfs, ext4 = runs["fsmark.fs-xfs"]["fs"], runs["fsmark.fs-ext4"]["fs"]
assert xfs["mkfs"] == ["/usr/sbin/mkfs.xfs", "-f", "-mreflink=0"], xfs
m = xfs["mounts"][0].split()
assert m[:3] == ["/dev/ram0", "/fs/ram0", "xfs"] and "inode64" in m[3].split(","), xfs
m = ext4["mounts"][0].split()
assert m[:3] == ["/dev/ram0", "/fs/ram0", "ext4"], ext4
print("env.json: %s of %d MiB (rotational %s, scheduler %s); xfs mounted %s; ext4 mounted %s" % (
    dev["path"], dev["bytes"] >> 20, dev["rotational"], dev["scheduler"], xfs["mounts"][0],
    ext4["mounts"][0]))
PY
