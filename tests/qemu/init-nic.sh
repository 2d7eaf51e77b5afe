# The init configures a real NIC (net.nic.*) under TCG: a virtio-net device on QEMU's user
# network, found by its MAC, given 10.0.2.15/24 and a default route via 10.0.2.2. Traffic
# crosses it: netperf TCP_STREAM in the guest against a netserver on the host's loopback
# (which QEMU's user network reaches as 10.0.2.2) and, through the default route, against one
# on an address of the host off the NIC's subnet, with a throughput > 0; env.json records the
# NIC (MAC, driver virtio_net, address). A second boot of the same image, its command line
# naming an absent interface: reported on the console and in env.json, the runs complete and
# the machine powers off. Third, a job file's `nic:` built by `benchboot build JOB.yaml`,
# booted with two NICs: its MAC picks the second.
. tests/lib.sh
. tests/qemu/init-image.inc

MAC=52:54:00:12:34:56
NETSERVER=$B/netperf/netserver
free_port() { # ADDR
	python3 -c 'import socket, sys; s=socket.socket(); s.bind((sys.argv[1], 0)); print(s.getsockname()[1])' "$1"
}
# start_netserver ADDR PORT: a netserver on the host, in the foreground (-D), ended with the test
start_netserver() {
	(
		if ldd "$NETSERVER" | contains 'not found'; then
			export LD_LIBRARY_PATH=$SYSROOT/usr/lib/x86_64-linux-gnu:$SYSROOT/lib/x86_64-linux-gnu
		fi
		exec "$NETSERVER" -p "$2" -L "$1" -4 -D
	) >"$T/netserver.$2.log" 2>&1 &
	BB_PIDS+=("$!")
	for _ in $(seq 50); do
		python3 -c "import socket; socket.create_connection(('$1', $2), 1)" 2>/dev/null && return 0
		sleep 0.2
	done
	cat "$T/netserver.$2.log"
	fail "netserver on $1:$2 did not start"
}
# netperf_run ID ADDR PORT: a TCP_STREAM client against a netserver on the host
netperf_run() {
	printf '\n[run %s]\nsuite=netperf\nparam.test=TCP_STREAM\nruntime=2\ngrace=60\n' "$1"
	printf 'client.arg=%s\n' /usr/bin/netperf -4 -H "$2" -p "$3" -t TCP_STREAM -l 2
}

# 10.0.2.2 (QEMU's user network: the host's loopback) is on the NIC's subnet. To go through
# the default route too, a netserver on one of the host's own addresses, which the guest
# reaches through its gateway (QEMU connects to it from the host).
PORT=$(free_port 127.0.0.1)
start_netserver 127.0.0.1 "$PORT"
HOSTIP=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9]+(\.[0-9]+){3}$' |
	grep -v -E '^(127\.|10\.0\.2\.|198\.51\.100\.)' | sed -n 1p || true)
NRUNS=2
if [ -n "$HOSTIP" ]; then
	PORT2=$(free_port "$HOSTIP")
	start_netserver "$HOSTIP" "$PORT2"
	NRUNS=3
else
	echo "note: the host has no address for a routed run: the default route is only checked in env.json"
fi

{
	cat <<PLAN
benchboot-plan 1
job=init-nic
cgroup.mode=none
modules.boot=dummy virtio_net
net.dummy=198.51.100.1/24
net.nic.name=$MAC
net.nic.address=10.0.2.15/24
net.nic.gateway=10.0.2.2
net.nic.mtu=1500
net.nic.wait=5
PLAN
	netperf_run host 10.0.2.2 "$PORT"
	[ -z "$HOSTIP" ] || netperf_run routed "$HOSTIP" "$PORT2"
	cat <<'PLAN'

[run local]
suite=netperf
param.test=TCP_STREAM
param.where=local
runtime=1
grace=60
PLAN
	netperf_stanza TCP_STREAM 1
} >"$T/plan"

init_image "$T/plan" "$T/img" --module virtio_net --module virtio_pci --module virtio_blk
NETDEV=(-netdev user,id=n0 -device "virtio-net-pci,netdev=n0,mac=$MAC")

# 1. the NIC configured, traffic to the host through it
"$BENCHBOOT" mkdisk "$T/disk1.img" --size 32M >/dev/null
init_boot "$T/console1" -drive "file=$T/disk1.img,format=raw,if=virtio" "${NETDEV[@]}" --
c="$T/console1"
expect_grep "^BENCHBOOT module name=virtio_net status=ok" "$c"
expect_grep "^BENCHBOOT net lo=up dummy0=198.51.100.1/24" "$c"
expect_grep "^BENCHBOOT nic want=$MAC name=eth0 address=10.0.2.15/24 gateway=10.0.2.2 mtu=1500 carrier=1 found_ms=[0-9.]* carrier_ms=[0-9.]* done_ms=[0-9.]* status=ok$" "$c"
grep "^BENCHBOOT nic " "$c"
expect_grep "^BENCHBOOT run-end id=host iter=1 status=ok " "$c"
expect_grep "^BENCHBOOT run-end id=local iter=1 status=ok " "$c"
for id in host ${HOSTIP:+routed}; do
	expect_grep "^BENCHBOOT run-end id=$id iter=1 status=ok " "$c"
	v=$(sed -n "s/^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$id.netperf.Throughput_Mbps RESULT=pass UNITS=Mbps MEASUREMENT=\([0-9.e+]*\)>$/\1/p" "$c")
	[ -n "$v" ] || fail "no throughput for the run $id"
	awk -v t="$v" 'BEGIN { exit !(t > 0) }' || fail "throughput of $id: $v"
	echo "$id: guest -> host through virtio-net (QEMU user network, TCG): netperf.Throughput_Mbps $v"
done
expect_grep "^BENCHBOOT boot-end id=.* ok=$NRUNS failed=0$" "$c"
expect_grep "reboot: Power down" "$c"

"$BENCHBOOT" collect "$T/disk1.img" -o "$T/res1" >"$T/collect1.log" 2>&1 || { cat "$T/collect1.log"; fail "collect"; }
boot=$(ls -d "$T"/res1/0*)
e="$boot/env.json"
python3 - "$e" "$MAC" <<'PY' || fail "env.json: NIC record"
import json, sys
env = json.load(open(sys.argv[1]))
net = env["net"]
nic = net["nic"]
print("env.json net:", json.dumps(net, sort_keys=True))
assert net["ok"] is True and net["error"] is None, net
assert nic["name"] == "eth0" and nic["ok"] is True and nic["error"] is None, nic
assert nic["requested"] == sys.argv[2] and nic["mac"] == sys.argv[2], nic
assert nic["driver"] == "virtio_net", nic
assert nic["mtu"] == 1500 and nic["carrier"] == 1 and nic["operstate"] == "up", nic
assert "10.0.2.15/24" in nic["addresses"], nic
assert nic["addresses_requested"] == ["10.0.2.15/24"] and nic["gateways"] == ["10.0.2.2"], nic
assert "10.0.2.2" in nic["default_routes_via"], nic
PY
expect_grep '"netperf.Throughput_Mbps"' "$boot/runs/host/results.json"
expect_grep "TCP STREAM TEST from .* to 10.0.2.2 .*port 0 AF_INET" "$boot/runs/host/1/client.0.out"
[ -z "$HOSTIP" ] || expect_grep "TCP STREAM TEST from .* to $HOSTIP .*port 0 AF_INET" "$boot/runs/routed/1/client.0.out"

# 2. the same image, the command line naming an interface that is not there
"$BENCHBOOT" mkdisk "$T/disk2.img" --size 32M >/dev/null
init_boot "$T/console2" -drive "file=$T/disk2.img,format=raw,if=virtio" "${NETDEV[@]}" -- \
	benchboot.net.nic.name=eth9 benchboot.net.nic.wait=2
c="$T/console2"
expect_grep "^BENCHBOOT nic want=eth9 name=- status=failed reason=no interface named eth9 after 2 s (present: dummy0 eth0 lo" "$c"
expect_grep "network setup failed: nic: no interface named eth9 after 2 s" "$c"
expect_grep "^BENCHBOOT run-end id=local iter=1 status=ok " "$c"
expect_grep "^BENCHBOOT run-end id=host iter=1 status=failed " "$c"
expect_grep "^BENCHBOOT boot-end id=.* ok=1 failed=$((NRUNS - 1))$" "$c"
expect_grep "reboot: Power down" "$c"
"$BENCHBOOT" collect "$T/disk2.img" -o "$T/res2" >"$T/collect2.log" 2>&1 || { cat "$T/collect2.log"; fail "collect"; }
e=$(ls -d "$T"/res2/0*)/env.json
python3 - "$e" <<'PY' || fail "env.json: absent NIC record"
import json, sys
net = json.load(open(sys.argv[1]))["net"]
print("env.json net:", json.dumps(net, sort_keys=True))
assert net["ok"] is False and "no interface named eth9" in net["error"], net
assert net["nic"]["requested"] == "eth9" and net["nic"]["name"] is None, net
assert net["nic"]["ok"] is False, net
PY

# 3. a job file's `nic:` through `benchboot build JOB.yaml`: net.nic.* in the plan, the driver
# in the image and loaded at boot
cat >"$T/nicjob.yaml" <<JOB
suite: netperf
runtime: 1s
nic:
  name: $MAC
  address: 10.0.2.15/24 fd00::15/64
  gateway: 10.0.2.2 fd00::2
  mtu: 1400
  wait: 5s
  module: virtio_net virtio_pci
JOB
"$BENCHBOOT" build -o "$T/jimg" "$T/nicjob.yaml" >"$T/jbuild.log" 2>&1 || { cat "$T/jbuild.log"; fail "benchboot build of the job"; }
gunzip -c "$T/jimg/nicjob/initrd.img" | cpio -i --quiet --to-stdout etc/benchboot/plan >"$T/jplan"
expect_grep "^net.nic.name=$MAC$" "$T/jplan"
expect_grep "^net.nic.address=10.0.2.15/24 fd00::15/64$" "$T/jplan"
expect_grep "^modules.boot=dummy virtio_net virtio_pci$" "$T/jplan"
gunzip -c "$T/jimg/nicjob/initrd.img" | cpio -i --quiet --to-stdout etc/benchboot/modules.order >"$T/jorder"
expect_grep "/virtio_net.ko$" "$T/jorder"
expect_grep "/net_failover.ko$" "$T/jorder"
VMLINUZ=$T/jimg/nicjob/vmlinuz INITRD=$T/jimg/nicjob/initrd.img
# two NICs, as on a lab machine: the MAC picks the second one (eth1)
init_boot "$T/console3" -netdev user,id=n1 -device virtio-net-pci,netdev=n1,mac=52:54:00:00:00:01 \
	"${NETDEV[@]}" --
c="$T/console3"
expect_grep "^BENCHBOOT nic want=$MAC name=eth1 address=10.0.2.15/24,fd00::15/64 gateway=10.0.2.2,fd00::2 mtu=1400 carrier=1 found_ms=[0-9.]* carrier_ms=[0-9.]* done_ms=[0-9.]* status=ok$" "$c"
expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=1 status=ok " "$c"
expect_grep "^BENCHBOOT boot-end id=.* ok=1 failed=0$" "$c"
grep "^BENCHBOOT setup-done" "$T/console1" "$T/console2" "$c"
