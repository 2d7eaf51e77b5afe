# benchboot lava of a two-host job: a LAVA multinode job (roles server and client, the role on
# each command line, the qemu devices on one test network with the cluster's MACs) that LAVA's
# strict schema accepts, in both flavours; a one-host job stays a one-device job.
. tests/lib.sh
bb_need netperf
py=/usr/bin/python3 # LAVA's modules are Debian's
. tests/qemu/lava.inc
mkdir -p "$T/jobs/clusters" "$T/img"
cat >"$T/jobs/clusters/cs-lab" <<'EOF2'
lab-a:
  roles: [ server ]
  macs: [ "52:54:00:bb:10:01" ]
  address: 10.77.0.1/24
lab-b:
  roles: [ client ]
  macs: [ "52:54:00:bb:10:02" ]
  address: 10.77.0.2/24
EOF2
cat >"$T/jobs/two.yaml" <<'EOF2'
suite: netperf
cluster: cs-lab
runtime: 2s
if role server:
  netserver:
if role client:
  netperf:
    test: [TCP_STREAM, SCTP_STREAM_MANY]
EOF2
"$BENCHBOOT" lava "$T/jobs/two.yaml" --images "$T/img" --device-type x86-lab \
	--url http://lab.invalid/images >"$T/lava.out" 2>&1 || { cat "$T/lava.out"; fail "benchboot lava"; }
Q=$T/img/two/lava-qemu.yaml L=$T/img/two/lava-lab.yaml
for f in "$Q" "$L"; do
	$py - "$f" >"$T/schema.log" 2>&1 <<'PY' || { cat "$T/schema.log"; fail "$f does not pass LAVA's strict schema"; }
import sys, yaml
from lava_common.schemas import validate
job = yaml.safe_load(open(sys.argv[1]))
validate(job, strict=True)
roles = job["protocols"]["lava-multinode"]["roles"]
assert sorted(roles) == ["client", "server"], roles
for a in job["actions"]:
    (kind, body), = a.items()
    assert len(body["role"]) == 1, a
print("ok", [(next(iter(a)), next(iter(a.values()))["role"][0]) for a in job["actions"]])
PY
	cat "$T/schema.log"
done
expect_grep "mcast=230.0.0.77:" "$Q"
expect_grep "mac=52:54:00:bb:10:01" "$Q"
expect_grep 'benchboot.role=server"' "$Q"
expect_grep "extra_kernel_args: '.*benchboot.role=client'" "$L"
expect_grep "device_type: x86-lab" "$L"
# the plan inside holds the cluster and the client reaches the server host's address
"$BENCHBOOT" check -v "$T/jobs/two.yaml" >"$T/check.out"
expect_grep "^cluster.host.0.address=10.77.0.1/24" "$T/check.out"
expect_grep "^client.arg=10.77.0.1" "$T/check.out"
expect_grep "host lab-b: role client, address 10.77.0.2/24, nic 52:54:00:bb:10:02" "$T/check.out"
