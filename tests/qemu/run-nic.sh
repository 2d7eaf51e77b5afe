# benchboot run with a job that asks for a NIC: run gives the VM a virtio-net NIC on QEMU's
# user network (with the MAC the job names), the init finds it by that MAC and configures it,
# and the collected env.json shows the NIC up with the job's address and default route.
. tests/lib.sh
. tests/qemu/job.inc
cat >"$T/nic.yaml" <<'JOB'
suite: stress-ng
nr_threads: 1
testtime: 2s
iterations: 1
nic:
  name: 52:54:00:ab:cd:ef
  address: 10.0.2.15/24
  gateway: 10.0.2.2
  module: virtio_net virtio_pci
stress-ng:
  test: cpu
JOB
job_run "$T/nic.yaml"
expect_grep "NIC on QEMU's user network" "$T/run.out"
job_check "$T/res" stress-ng.cpu.ops_per_sec
python3 - "$T"/res/0*/env.json <<'PY' || fail "env.json: the NIC of the job"
import json, sys
nic = json.load(open(sys.argv[1]))["net"]["nic"]
print("env.json net.nic:", json.dumps(nic, sort_keys=True))
assert nic["ok"] is True and nic["mac"] == "52:54:00:ab:cd:ef", nic
assert nic["driver"] == "virtio_net" and nic["operstate"] == "up", nic
assert "10.0.2.15/24" in nic["addresses"] and "10.0.2.2" in nic["default_routes_via"], nic
PY
