# Two-host plans, the init side (docs/cluster.md): ONE image with a hand-written two-host plan,
# booted twice at once (benchboot.role=server, benchboot.role=client), the two VMs joined by a
# private QEMU network between them only (dgram netdev on 127.0.0.1), each with a virtio NIC of
# the plan's MAC and its own results disk. 1. Both: netperf TCP_STREAM (2 iterations) and
# SCTP_STREAM_MANY from the client host to the netserver of the server host; the client's
# results have Throughput and peer/env.json (the server's kernel and cgroups); the server host's
# disk has server.0.out and its statuses; both power off by themselves. 2. The server host
# missing (cluster.wait=5): the client reports peer status=timeout, its runs fail with that
# reason, it powers off soon. 3. The client host killed during its first iteration: the server
# host reports peer status=lost within runtime + grace + 30 s and powers off.
. tests/lib.sh
bb_need init netperf sysroot kernel qemu
. tests/qemu/init-image.inc

SMAC=52:54:00:77:00:01
CMAC=52:54:00:77:00:02
# two_udp_ports: two distinct free UDP ports on 127.0.0.1, "P1 P2" (both bound while chosen)
two_udp_ports() {
	python3 -c '
import socket
s = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])'
}

cat >"$T/plan" <<PLAN
benchboot-plan 1
job=cluster-init
cgroup.mode=v2
modules.boot=dummy virtio_net sctp
cluster=cs-qemu
cluster.wait=200
warmup=1
cluster.host.0.name=lkp-srv
cluster.host.0.role=server
cluster.host.0.address=192.168.77.1/24
cluster.host.0.nic=$SMAC
cluster.host.1.name=lkp-cli
cluster.host.1.role=client
cluster.host.1.address=192.168.77.2/24
cluster.host.1.nic=$CMAC

[run TCP_STREAM]
suite=netperf
param.test=TCP_STREAM
iterations=2
runtime=2
grace=10
sysctl.net.core.somaxconn=1024
PLAN
{ netserver_stanza; netperf_client_stanza 192.168.77.1 TCP_STREAM 2; } >>"$T/plan"
cat >>"$T/plan" <<'PLAN'

[run SCTP_STREAM_MANY]
suite=netperf
param.test=SCTP_STREAM_MANY
runtime=2
grace=10
needs.module=sctp
sysctl.net.sctp.prsctp_enable=0
PLAN
{ netserver_stanza; netperf_client_stanza 192.168.77.1 SCTP_STREAM_MANY 2 -- -m 10K; } >>"$T/plan"

init_image "$T/plan" "$T/img" --module virtio_net --module virtio_pci --module virtio_blk

# boot_bg NAME ROLE MAC LOCALPORT REMOTEPORT [CMDLINE...]: one host in the background, its
# results disk NAME.img, console NAME (CRs removed by boot_wait), QEMU's pid in NAME.pid
boot_bg() {
	local name=$1 role=$2 mac=$3 lport=$4 rport=$5
	shift 5
	"$BENCHBOOT" mkdisk "$T/$name.img" --size 32M >/dev/null
	timeout --signal=KILL 500 qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
		-pidfile "$T/$name.pid" -kernel "$VMLINUZ" -initrd "$INITRD" \
		-drive "file=$T/$name.img,format=raw,if=virtio" \
		-netdev "dgram,id=t,local.type=inet,local.host=127.0.0.1,local.port=$lport,remote.type=inet,remote.host=127.0.0.1,remote.port=$rport" \
		-device "virtio-net-pci,netdev=t,mac=$mac" \
		-append "console=ttyS0 panic=-1 benchboot.role=$role $*" >"$T/$name.raw" 2>&1 </dev/null &
	eval "PID_$name=$!"
	BB_PIDS+=("$!")
	eval "START_$name=$SECONDS"
}
# boot_wait NAME: 0 when QEMU powered off by itself; its wall time in SECS_NAME
boot_wait() {
	local rc=0 pid
	eval "pid=\$PID_$1"
	wait "$pid" || rc=$?
	tr -d '\r' <"$T/$1.raw" >"$T/$1"
	eval "SECS_$1=\$((SECONDS - START_$1))"
	eval "echo \"$1: \$SECS_$1 s wall (qemu exit $rc)\""
	return "$rc"
}
# wait_line NAME PATTERN SECONDS: until the console has a line matching PATTERN
wait_line() {
	local i
	for i in $(seq $(($3 * 5))); do
		tr -d '\r' <"$T/$1.raw" | contains -e "$2" && return 0
		sleep 0.2
	done
	tail -n 20 "$T/$1.raw"
	grep -a -h "BENCHBOOT" "$T"/*.raw | tr -d '\r' | tail -n 40
	fail "$1: no line '$2' within $3 s"
}
collect() { # DISK OUT: the boot folder (a server host's boot is filed under server-host/)
	"$BENCHBOOT" collect "$T/$1.img" -o "$T/$2" >"$T/$2.log" 2>&1 || { cat "$T/$2.log"; fail "collect $1"; }
	ls -d "$T/$2"/0* "$T/$2"/server-host/0* 2>/dev/null || true
}

# 1. both hosts
read -r P1 P2 < <(two_udp_ports)
boot_bg srv server "$SMAC" "$P1" "$P2"
boot_bg cli client "$CMAC" "$P2" "$P1"
boot_wait cli || { boot_log_tail "$T/cli"; fail "the client host did not power off by itself"; }
boot_wait srv || { boot_log_tail "$T/srv"; fail "the server host did not power off by itself"; }
s=$T/srv c=$T/cli
grep -h "^BENCHBOOT \(cluster\|peer\|run-end\|boot-end\)" "$s" "$c"
expect_grep "^BENCHBOOT cluster role=server name=lkp-srv self=192.168.77.1 peer=192.168.77.2 port=12870 status=ok reason=-$" "$s"
expect_grep "^BENCHBOOT cluster role=client name=lkp-cli self=192.168.77.2 peer=192.168.77.1 port=12870 status=ok reason=-$" "$c"
expect_grep "^BENCHBOOT nic want=$SMAC name=eth0 address=192.168.77.1/24 .* status=ok$" "$s"
expect_grep "^BENCHBOOT nic want=$CMAC name=eth0 address=192.168.77.2/24 .* status=ok$" "$c"
expect_grep "^BENCHBOOT peer status=connected host=lkp-cli address=192.168.77.2 ms=[0-9.]* reason=-$" "$s"
expect_grep "^BENCHBOOT peer status=connected host=lkp-srv address=192.168.77.1 ms=[0-9.]* reason=-$" "$c"
for h in "$s" "$c"; do
	expect_grep "^BENCHBOOT run-start id=TCP_STREAM iter=0/2 runtime=2 clients=[01] pos=1/4 warmup=1$" "$h"
	expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=0 warmup=1 status=ok " "$h"
	expect_grep "^BENCHBOOT run-start id=TCP_STREAM iter=1/2 .* pos=2/4$" "$h"
	expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=1 status=ok " "$h"
	expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=2 status=ok " "$h"
	expect_grep "^BENCHBOOT run-end id=SCTP_STREAM_MANY iter=1 status=ok " "$h"
	expect_grep "^BENCHBOOT sysctl run=TCP_STREAM key=net.core.somaxconn requested=1024 actual=1024$" "$h"
	expect_grep "^BENCHBOOT boot-end id=.* ok=2 failed=0$" "$h"
	expect_grep "reboot: Power down" "$h"
done
expect_grep "^BENCHBOOT proc run=TCP_STREAM iter=1 role=server " "$s"
expect_grep "^BENCHBOOT proc run=TCP_STREAM iter=1 role=client " "$c"
grep -q "^BENCHBOOT proc .* role=client " "$s" && fail "the server host ran clients"
grep -q "^BENCHBOOT proc .* role=server " "$c" && fail "the client host ran servers"
for id in TCP_STREAM.i1 TCP_STREAM.i2 SCTP_STREAM_MANY; do
	v=$(sed -n "s/^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$id.netperf.Throughput_Mbps RESULT=pass UNITS=Mbps MEASUREMENT=\([0-9.e+]*\)>$/\1/p" "$c")
	[ -n "$v" ] || fail "no throughput for $id on the client host"
	awk -v t="$v" 'BEGIN { exit !(t > 0) }' || fail "throughput of $id: $v"
	echo "$id: client VM -> server VM over a QEMU dgram network (TCG): netperf.Throughput_Mbps $v"
done
cb=$(collect cli cres)
sb=$(collect srv sres)
case $sb in */sres/server-host/0*) ;; *) fail "the server host's boot is not filed under server-host/: $sb" ;; esac
python3 - "$cb" "$sb" <<'PY' || fail "the two hosts' results"
import json, os, sys
cb, sb = sys.argv[1], sys.argv[2]
env = json.load(open(f"{cb}/env.json"))
peer = json.load(open(f"{cb}/peer/env.json"))
senv = json.load(open(f"{sb}/env.json"))
print("client cluster:", json.dumps(env["cluster"], sort_keys=True))
print("server cluster:", json.dumps(senv["cluster"], sort_keys=True))
assert env["cluster"]["role"] == "client" and env["cluster"]["peer_status"] == "connected", env["cluster"]
assert env["cluster"]["self"] == "192.168.77.2" and env["cluster"]["peer"] == "192.168.77.1"
assert senv["cluster"]["role"] == "server" and senv["cluster"]["host"] == "lkp-srv"
# the server host's environment as received: its kernel, cgroups, NIC
assert peer["boot_id"] == senv["boot_id"] != env["boot_id"], (peer["boot_id"], senv["boot_id"])
assert peer["kernel"]["release"] == senv["kernel"]["release"], peer["kernel"]
assert "benchboot.role=server" in peer["kernel"]["cmdline"], peer["kernel"]
assert peer["cgroup"]["mode_requested"] == "v2" and peer["cgroup"]["setup_ok"] is True, peer["cgroup"]
assert peer["cgroup"]["mounts"] == senv["cgroup"]["mounts"], peer["cgroup"]
assert peer["cgroup"]["mounts"][0]["type"] == "cgroup2", peer["cgroup"]
assert peer["net"]["nic"]["mac"] == "52:54:00:77:00:01", peer["net"]["nic"]
res = json.load(open(f"{cb}/runs/TCP_STREAM/results.json"))
assert len(res["netperf.Throughput_Mbps"]) == 2, res
for it in (1, 2):
    st = json.load(open(f"{cb}/runs/TCP_STREAM/{it}/status"))
    assert st["status"] == "ok", st
    assert st["peer"]["status"] == "ok", st["peer"]
    assert st["peer"]["sysctl"] == {"net.core.somaxconn": "1024"}, st["peer"]
    assert not st["servers"], st["servers"]
    sst = json.load(open(f"{sb}/runs/TCP_STREAM/{it}/status"))
    assert sst["status"] == "ok" and sst["peer"]["status"] == "ok", sst
    assert sst["clients"] == [] and sst["servers"][0]["in_job_cgroup"] is True, sst
    assert os.path.exists(f"{sb}/runs/TCP_STREAM/{it}/server.0.out")
# the warm-up: kept apart on both hosts
st = json.load(open(f"{cb}/runs/TCP_STREAM/warmup-1/status"))
assert st["status"] == "ok" and st["warmup"] == 1 and st["peer"]["status"] == "ok", st
sst = json.load(open(f"{sb}/runs/TCP_STREAM/warmup-1/status"))
assert sst["status"] == "ok" and sst["warmup"] == 1, sst
assert os.path.exists(f"{sb}/runs/TCP_STREAM/warmup-1/server.0.out")
sst = json.load(open(f"{sb}/runs/SCTP_STREAM_MANY/1/status"))
assert sst["sysctl"]["net.sctp.prsctp_enable"]["actual"] == "0", sst["sysctl"]
assert not os.path.exists(f"{sb}/runs/TCP_STREAM/results.json")
print("server TCP_STREAM 1 status:", json.dumps({k: sst[k] for k in ("status", "peer", "elapsed_s")}))
PY

# 2. the server host missing: only the client, nothing on the other end of its network
read -r P1 P2 < <(two_udp_ports)
boot_bg alone client "$CMAC" "$P1" "$P2" benchboot.cluster.wait=5
boot_wait alone || { boot_log_tail "$T/alone"; fail "the client host alone did not power off by itself"; }
a=$T/alone
grep "^BENCHBOOT \(peer\|run-end\|boot-end\)" "$a"
expect_grep "^BENCHBOOT peer status=timeout host=lkp-srv address=192.168.77.1 ms=[0-9.]* reason=no server host on 192.168.77.1:12870 after 5 s" "$a"
ms=$(sed -n 's/^BENCHBOOT peer status=timeout .* ms=\([0-9.]*\) .*/\1/p' "$a")
awk -v m="$ms" 'BEGIN { exit !(m >= 4500 && m < 9000) }' || fail "the client waited $ms ms for a cluster.wait of 5 s"
expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=1 status=failed .* reason=peer timeout: no server host" "$a"
expect_grep "^BENCHBOOT run-end id=SCTP_STREAM_MANY iter=1 status=failed .* reason=peer timeout: " "$a"
expect_grep "^BENCHBOOT boot-end id=.* ok=0 failed=2$" "$a"
grep -q "^BENCHBOOT proc " "$a" && fail "a client ran without its server host"
ab=$(collect alone ares)
python3 - "$ab" <<'PY' || fail "the lonely client's results"
import json, sys
env = json.load(open(f"{sys.argv[1]}/env.json"))
assert env["cluster"]["peer_status"] == "timeout", env["cluster"]
st = json.load(open(f"{sys.argv[1]}/runs/TCP_STREAM/2/status"))
assert st["status"] == "failed" and st["reason"].startswith("peer timeout: "), st
assert st["peer"] is None, st
PY

# 3. the client host killed during its first iteration
read -r P1 P2 < <(two_udp_ports)
boot_bg srv3 server "$SMAC" "$P1" "$P2"
boot_bg cli3 client "$CMAC" "$P2" "$P1"
wait_line srv3 "^BENCHBOOT proc run=TCP_STREAM iter=1 role=server" 400
kill -9 "$(cat "$T/cli3.pid")"
killed=$SECONDS
echo "client host killed at the server's first server start"
boot_wait cli3 || true
boot_wait srv3 || { boot_log_tail "$T/srv3"; fail "the server host did not power off by itself after losing the client"; }
s=$T/srv3
grep "^BENCHBOOT \(peer\|run-end\|boot-end\)" "$s"
echo "server host powered off $((SECONDS - killed)) s after the client host was killed"
expect_grep "^BENCHBOOT peer status=lost host=lkp-cli address=192.168.77.2 ms=[0-9.]* reason=no end from the client host within 42 s$" "$s"
expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=1 status=failed .* reason=peer lost: no end from the client host within 42 s$" "$s"
expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=2 status=failed .* reason=peer lost: " "$s"
expect_grep "^BENCHBOOT run-end id=SCTP_STREAM_MANY iter=1 status=failed .* reason=peer lost: " "$s"
expect_grep "^BENCHBOOT boot-end id=.* ok=0 failed=2$" "$s"
expect_grep "reboot: Power down" "$s"
