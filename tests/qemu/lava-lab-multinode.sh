# A two-host job through a real LAVA lab: tools/scripts/lava-lab-up --devices 2 starts a
# private LAVA instance with LAVA's multinode coordinator and two QEMU devices on one worker;
# `benchboot lava --submit` of a two-host netperf job (kernels A and B: both hosts boot A, then
# both boot B) submits LAVA multinode jobs, LAVA makes one job per role (server, client), and
# benchboot waits for all four and reports each; the two QEMU devices of a job share a test
# network (a multicast socket on 127.0.0.1); `benchboot collect --lava` brings the client
# hosts' boots back (with peer/env.json, the server host's environment) and the server hosts'
# boots into server-host/, as `benchboot run` collects a two-host boot; `benchboot compare
# --by kernel` reads them as a local two-host run: netperf's throughput, the server.* fields.
# lava-lab-down ends every service, the coordinator too.
. tests/lib.sh
bb_need sysroot kernel init netperf qemu
. tests/qemu/lava.inc
[ "$(id -u)" = 0 ] || skip "a LAVA lab needs root (PostgreSQL runs as the postgres user, the worker as root)"

# The devices' test network is a QEMU multicast socket on the loopback interface: look at it
# first, so that a machine where it cannot work says why instead of a peer timeout.
mc=$(/usr/bin/python3 - <<'PY' 2>&1
import socket
grp, la = "230.0.0.77", socket.inet_aton("127.0.0.1")
def sock(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((grp, port))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, socket.inet_aton(grp) + la)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, la)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
    s.settimeout(3)
    return s
probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
a, b = sock(port), sock(port)
a.sendto(b"benchboot", (grp, port))
assert b.recv(64) == b"benchboot"
print("ok")
PY
) || true
if [ "$mc" != ok ]; then
	why="multicast on 127.0.0.1 does not work on this machine (the LAVA QEMU devices' test network): ${mc##*$'\n'}"
	[ "${CI:-}" = true ] && fail "$why"
	skip "$why"
fi

LAB=$T/lab
trap 'tools/scripts/lava-lab-down "$LAB" >/dev/null 2>&1; bb_cleanup' EXIT
t0=$(date +%s)
bb_timeout 300 tools/scripts/lava-lab-up --devices 2 "$LAB" >"$T/up.out" 2>"$T/up.log" ||
	{ cat "$T/up.log"; tail -n 20 "$LAB"/logs/*.log 2>/dev/null; fail "lava-lab-up --devices 2 failed"; }
cat "$T/up.log"
. "$LAB/lab.env"
echo "lab up in $(($(date +%s) - t0)) s: $LAVA_LAB_URL, coordinator $LAVA_LAB_COORDINATOR"
expect_eq "the lab's devices" "$LAVA_LAB_DEVICES" "qemu-01 qemu-02"
for p in gunicorn scheduler publisher worker coordinator; do
	kill -0 "$(cat "$LAB/$p.pid")" 2>/dev/null || fail "$p is not running"
done
# the worker (and its lava-run) reads the lab's coordinator configuration; the machine's file
# is left as it was
grep -q " /etc/lava-coordinator/lava-coordinator.conf " "/proc/$(cat "$LAB/worker.pid")/mountinfo" ||
	fail "the worker does not see the lab's coordinator configuration"
expect_grep "\"port\": ${LAVA_LAB_COORDINATOR##*:}," "$LAB/coordinator.conf"
grep -q "\"port\": ${LAVA_LAB_COORDINATOR##*:}," /etc/lava-coordinator/lava-coordinator.conf &&
	fail "lava-lab-up changed the machine's coordinator configuration"

# Two kernels as `benchboot run --kernel NAME=...` names their images (the pinned kernel both
# times; B's command line has a word more, so the hosts' environments differ between A and B).
J=tests/fixtures/cluster/two-host-lava.yaml
"$BENCHBOOT" build --name two-host-lava.A -o "$T/img" "$J" >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "benchboot build --name two-host-lava.A failed"; }
"$BENCHBOOT" build --name two-host-lava.B --cmdline "console=ttyS0 panic=-1 bbside=b" \
	-o "$T/img" "$J" >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "benchboot build --name two-host-lava.B failed"; }

rc=0
bb_timeout 900 "$BENCHBOOT" lava "$J" --images "$T/img" --flavour qemu --kernel A --kernel B \
	--submit "$LAVA_LAB_URL" --token-file "$LAVA_LAB_TOKEN_FILE" --poll 1 >"$T/submit.out" 2>&1 || rc=$?
cat "$T/submit.out"
expect_eq "benchboot lava --submit's exit code" "$rc" 0
for k in A B; do
	for role in server client; do
		expect_grep "^submitted job [0-9]*: two-host-lava.$k, kernel $k, $role host$" "$T/submit.out"
		expect_grep "^  job [0-9]* *qemu-0[12] *two-host-lava.$k, kernel $k, $role host: Complete$" "$T/submit.out"
	done
done
expect_grep "^4 complete, 0 incomplete, 0 canceled, 0 not finished$" "$T/submit.out"
read -r -a ids <<<"$(sed -n 's/^jobs: //p' "$T/submit.out")"
expect_eq "job ids (one per role and kernel)" "${#ids[@]}" 4
# each multinode job ran its two roles on the two devices
for k in A B; do
	devs=$(sed -n "s/^  job [0-9]* *\(qemu-0[12]\) *two-host-lava.$k,.*/\1/p" "$T/submit.out" | sort | tr '\n' ' ')
	expect_eq "kernel $k's devices" "$devs" "qemu-01 qemu-02 "
done

rc=0
BENCHBOOT_LAVA_TOKEN=$(cat "$LAVA_LAB_TOKEN_FILE") bb_timeout 300 "$BENCHBOOT" collect \
	--lava "$LAVA_LAB_URL" "${ids[@]}" -o "$T/res" >"$T/collect.out" 2>&1 || rc=$?
cat "$T/collect.out"
expect_eq "collect --lava's exit code" "$rc" 0
for k in A B; do
	expect_grep "^job [0-9]* on qemu-0[12]: Complete; client host, boot 0000-.*, kernel=$k$" "$T/collect.out"
	expect_grep "^job [0-9]* on qemu-0[12]: Complete; server host, boot server-host/0000-.*, kernel=$k$" "$T/collect.out"
done
expect_grep "^4 LAVA jobs: 4 collected complete, 0 not" "$T/collect.out"
# The client hosts' boots where one-host boots go, each with the server host's environment as
# received over the test network and a link to the server host's own boot folder.
n=0
for d in "$T"/res/0000-*/; do
	d=${d%/}
	[ -e "$d/done" ] || fail "$d has no done file"
	[ -f "$d/peer/env.json" ] || fail "$d has no peer/env.json (the server host's environment)"
	[ -L "$d/server-host" ] || fail "$d has no server-host link"
	[ -f "$d/server-host/env.json" ] || fail "$d/server-host does not lead to the server host's boot"
	ls "$d"/server-host/runs/TCP_STREAM*/1/status >/dev/null || fail "no server side of TCP_STREAM in $d/server-host"
	n=$((n + 1))
done
expect_eq "client boot folders" "$n" 2
/usr/bin/python3 - "$T/res" "$LAVA_LAB_URL" "${ids[@]}" <<'PY' || fail "the collected boots are not those of the LAVA jobs"
import glob, json, os, sys
res, url, ids = sys.argv[1], sys.argv[2], [int(i) for i in sys.argv[3:]]
seen = []
for where, role in ((res, "client"), (res + "/server-host", "server")):
    run = json.load(open(where + "/run.json"))
    assert len(run["boots"]) == 2, run
    for b in run["boots"]:
        d = os.path.join(where, b["folder"])
        env = json.load(open(d + "/env.json"))
        assert env["cluster"]["role"] == role, (d, env["cluster"])
        assert b["lava"]["url"] == url and b["lava"]["health"] == "Complete", b
        assert b["params"]["lava_device"] in ("qemu-01", "qemu-02"), b
        assert b["params"]["lava_job"] == str(b["lava"]["job"]), b
        assert b["finished"] is True, b
        seen.append(b["lava"]["job"])
        if role == "client":
            peer = json.load(open(d + "/peer/env.json"))
            server = json.load(open(d + "/server-host/env.json"))
            assert peer["boot_id"] == server["boot_id"], (peer["boot_id"], server["boot_id"])
            assert peer["cluster"]["role"] == "server", peer["cluster"]
            st = json.load(open(glob.glob(d + "/runs/TCP_STREAM*/1/status")[0]))
            assert st["peer"]["status"] == "ok", st.get("peer")
            tput = json.load(open(glob.glob(d + "/runs/TCP_STREAM*/results.json")[0]))
            assert tput["netperf.Throughput_Mbps"][0] > 0, tput
            print("kernel", b["params"]["kernel"], "job", b["lava"]["job"], "on",
                  b["params"]["lava_device"], "TCP_STREAM",
                  tput["netperf.Throughput_Mbps"][0], "Mbps, server host's boot",
                  server["boot_id"])
            # run.json names the server host's boot as `benchboot run` does: its folder
            # under server-host/, the one the client's link leads to
            sh = b["server_host"]
            assert sh is not None, b
            assert sh["folder"] == os.path.basename(os.readlink(d + "/server-host")), (sh, d)
            assert sh["boot_id"] == server["boot_id"], (sh, server["boot_id"])
            assert sh["finished"] is True and sh["lava"]["job"] in ids, sh
        else:
            assert b["server_host"] is None, b
assert sorted(seen) == sorted(ids), (seen, ids)
PY

rc=0
"$BENCHBOOT" compare "$T/res" --by kernel --all >"$T/compare.out" 2>&1 || rc=$?
cat "$T/compare.out"
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "benchboot compare --by kernel exited $rc"
expect_grep "^A: kernel=A (1 boot)" "$T/compare.out"
expect_grep "^B: kernel=B (1 boot)" "$T/compare.out"
expect_grep "^  kernel.cmdline .*| .*bbside=b benchboot.role=client" "$T/compare.out"
expect_grep "^  server.kernel.cmdline .*| .*bbside=b benchboot.role=server" "$T/compare.out"
expect_grep "^run .*test=TCP_STREAM" "$T/compare.out"
expect_grep " netperf.Throughput_Mbps$" "$T/compare.out"

tools/scripts/lava-lab-down "$LAB" 2>"$T/down.log" || { cat "$T/down.log"; fail "lava-lab-down failed"; }
for p in gunicorn scheduler publisher worker coordinator; do
	[ ! -e "$LAB/$p.pid" ] || fail "$p.pid is still there after lava-lab-down"
done
[ ! -e "$LAB/pg" ] || fail "the PostgreSQL cluster $(cat "$LAB/pg") is still there after lava-lab-down"
echo "two-host round trip in $(($(date +%s) - t0)) s"
