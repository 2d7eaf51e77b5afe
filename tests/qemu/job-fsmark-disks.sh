# The VM's scratch disks (TCG): a job of LKP's style on `disk: [1SSD_2G, 1HDD_2G]`, two boots:
# one NVMe disk (/dev/nvme0n1, not rotational) and one SCSI disk that rotates (/dev/sda,
# virtio-scsi with rotation_rate 7200), each a sparse file of 2 GiB in the run's folder; ext4
# made on it with LKP's options, fsmark's stats > 0; env.json records each disk (model, size,
# rotational, scheduler); the files are gone after the boots (no --keep).
. tests/lib.sh
. tests/qemu/job.inc
cat >"$T/disks.yaml" <<'JOB'
suite: fsmark
testcase: fsmark
disk:
  - 1SSD_2G
  - 1HDD_2G
nr_threads: 1
fs: ext4
fsmark:
  filesize: 8K
  test_size: 16M
  sync_method: fsyncBeforeClose
JOB
JOB_RUN_OPTS="--cpus 1 --monitors none" job_run "$T/disks.yaml"
job_check "$T/res" fsmark.files_per_sec >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
expect_grep "1 scratch disk (nvme, 2 GiB each, sparse) in $T/res/scratch" "$T/run.out"
expect_grep "1 scratch disk (hdd, 2 GiB each, sparse) in $T/res/scratch" "$T/run.out"
left=$(ls "$T/res/scratch" 2>/dev/null)
[ -z "$left" ] || fail "scratch disks left after the boots: $left"
python3 - "$T/res" <<'PY' || fail "env.json's disks"
import glob, json, sys
seen = {}
for env_path in sorted(glob.glob(sys.argv[1] + "/0*/env.json")):
    env = json.load(open(env_path))
    d = env["disk"]
    dev = d["devices"][0]
    assert d["error"] is None and dev["refused"] is None, d
    assert dev["bytes"] == 2 << 30, dev
    fs = env["runs"][next(iter(env["runs"]))]["fs"]
    assert fs["type"] == "ext4" and fs["mounts"][0].split()[:3] == [dev["path"], "/fs/" + dev["path"][5:], "ext4"], fs
    seen[d["description"]] = dev
    print("%s: %s of %d MiB, model %s, rotational %s, scheduler %s; %s" % (
        d["description"], dev["path"], dev["bytes"] >> 20, dev["model"], dev["rotational"],
        dev["scheduler"], fs["mounts"][0]))
assert seen["1ssd"]["path"] == "/dev/nvme0n1" and seen["1ssd"]["rotational"] == 0, seen
assert seen["1hdd"]["path"] == "/dev/sda" and seen["1hdd"]["rotational"] == 1, seen
assert "QEMU" in (seen["1hdd"]["model"] or ""), seen
PY
