# A lab machine's disks, named by its host file (LKP's hosts/NAME, found by the job's
# tbox_group beside the job), never guessed (TCG). hosts/labbox names /dev/sda and /dev/sdc as
# the machine's HDD partitions; the job asks disk: [1HDD_1G, 2HDD_1G], two boots:
# - 1HDD: the first of them, /dev/sda (LKP's programs/disk/setup takes the first nr_hdd), which
#   the VM also has: ext4 made on it, fsmark's stats > 0, env.json says 1hdd on /dev/sda;
# - 2HDD: /dev/sda and /dev/sdc; the VM has /dev/sda and /dev/sdb. run says so before the
#   boot; the init waits for /dev/sdc, refuses it as missing and fails the run with the reason,
#   and never takes the VM's /dev/sdb instead: its file (--keep) is still all zero.
. tests/lib.sh
. tests/qemu/job.inc
mkdir -p "$T/hosts"
cat >"$T/hosts/labbox" <<'HOST'
model: QEMU
nr_cpu: 1
memory: 1G
nr_hdd_partitions: 2
hdd_partitions: /dev/sda /dev/sdc
rootfs_partition: /dev/vdz1
HOST
cat >"$T/lab.yaml" <<'JOB'
suite: fsmark
testcase: fsmark
tbox_group: labbox
disk:
  - 1HDD_1G
  - 2HDD_1G
nr_threads: 1
fs: ext4
fsmark:
  filesize: 8K
  test_size: 8M
  sync_method: fsyncBeforeClose
JOB
"$BENCHBOOT" check -v "$T/lab.yaml" >"$T/check.out" 2>&1 || fail "check: $(cat "$T/check.out")"
expect_grep "^disk.devices=/dev/sda$" "$T/check.out"
expect_grep "^disk.devices=/dev/sda /dev/sdc$" "$T/check.out"
rc=0
bb_timeout 900 nice "$BENCHBOOT" run "$T/lab.yaml" --accel tcg --cpus 1 --monitors none --keep \
	--images "$T/images" -o "$T/res" >"$T/run.out" 2>&1 || rc=$?
cat "$T/run.out"
expect_eq "benchboot run (the second boot's /dev/sdc is missing): exit code" "$rc" 1
expect_grep "boot group 1: its disks are a machine's (hdd_partitions: /dev/sda /dev/sdc) and the VM's are /dev/sda /dev/sdb" "$T/run.out"
# run adds its boots to the results store (the test's own: BENCHBOOT_DB)
expect_grep "^store: 2 new boots in $BENCHBOOT_DB " "$T/run.out"
python3 - "$T/res" <<'PY' || fail "env.json's disks"
import glob, json, os, sys
res = sys.argv[1]
seen = {}
for env_path in sorted(glob.glob(res + "/0*/env.json")):
    env = json.load(open(env_path))
    d = env["disk"]
    seen[d["description"]] = (d, env_path)
one, p1 = seen["1hdd"]
assert [x["path"] for x in one["devices"]] == ["/dev/sda"] and one["devices"][0]["refused"] is None, one
two, p2 = seen["2hdd"]
assert [x["path"] for x in two["devices"]] == ["/dev/sda", "/dev/sdc"], two
assert two["devices"][0]["refused"] is None and two["devices"][1]["refused"], two
print("1hdd: %s; 2hdd: /dev/sdc refused: %s" % (one["devices"][0]["path"], two["devices"][1]["refused"]))
# the 1HDD boot's run has fsmark's stats
r = glob.glob(os.path.dirname(p1) + "/runs/*/results.json") or glob.glob(os.path.dirname(p1) + "/*/results.json")
assert r, "no results.json in " + os.path.dirname(p1)
PY
expect_grep "files_per_sec" "$(ls "$T"/res/0*/runs/*/results.json 2>/dev/null | sed -n 1p || echo /dev/null)"
# the VM's /dev/sdb of the second boot (kept) was never written: not one block allocated
sdb=$(ls "$T"/res/scratch/boot002-hdd1.img 2>/dev/null) || fail "no kept scratch file boot002-hdd1.img: $(ls "$T/res/scratch")"
blocks=$(stat -c %b "$sdb")
expect_eq "blocks written to the VM's /dev/sdb, which the host file does not name" "$blocks" 0
echo "lab-disks ok: the host file's disks, and no other"
