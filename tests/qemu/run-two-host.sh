# benchboot run of a two-host job (TCG): TCP_STREAM and SCTP_STREAM_MANY from the client host
# to netserver on the server host, two VMs joined by a private QEMU network; both hosts' results
# collected (the client's where one-host boots go, the server host's under server-host/, and
# `benchboot collect` of the two disks lays them out the same), the
# server host's environment received by the client (peer/env.json), run.json with both; a
# second boot with the server host on --server-kernel, compared (server.* fields); A/B kernels
# with --repeat 2 (4 two-host boots, each client boot paired with its own server host boot);
# --until on the A/B folder (at most 2 more boots).
. tests/lib.sh
bb_need init netperf qemu sysroot kernel
J=tests/fixtures/cluster/two-host-netperf.yaml
"$BENCHBOOT" check "$J" >"$T/check.out"
expect_grep "host bb-server: role server, address 192.168.77.1/24" "$T/check.out"
rc=0
bb_timeout 400 "$BENCHBOOT" run "$J" --accel tcg --images "$T/images" \
	-o "$T/out" >"$T/run.out" 2>&1 || rc=$?
cat "$T/run.out"
expect_eq "two-host run: exit code" $rc 0
expect_grep "^boot 1/1 server: QEMU pid [0-9]" "$T/run.out"
expect_grep "^boot 1/1 client: QEMU pid [0-9]" "$T/run.out"
expect_grep "^boot 1/1 client: peer status=connected" "$T/run.out"
expect_grep "^boot 1/1 client: run 1/2 TCP_STREAM iteration 1: ok" "$T/run.out"
expect_grep "^boot 1/1 server: run 1/2 TCP_STREAM iteration 1: ok" "$T/run.out"
expect_grep "^boot 1/1 client: run 2/2 SCTP_STREAM_MANY iteration 1: ok" "$T/run.out"
expect_grep "^boot 1/1 server: finished in" "$T/run.out"
expect_grep "^boot 1/1 client: finished in" "$T/run.out"
# the kernel command lines
expect_grep "benchboot.role=server" "$T"/out/console/*.server.log
expect_grep "benchboot.role=client" "$T"/out/console/*.client.log
# the client's boot: results, the server host's environment, the link to its own folder
B=$(find "$T/out" -mindepth 1 -maxdepth 1 -name '0*-*' -type d)
[ "$(echo "$B" | wc -l)" = 1 ] || fail "expected one client boot folder in $T/out: $B"
for t in TCP_STREAM SCTP_STREAM_MANY; do
	ls "$B"/runs/$t*/results.json >/dev/null || fail "no $t results in $B"
done
python3 - "$B" <<'PY' || fail "the client's results do not carry the server host's side"
import json, sys, glob
b = sys.argv[1]
env = json.load(open(b + "/env.json"))
peer = json.load(open(b + "/peer/env.json"))
assert env["cluster"]["role"] == "client", env["cluster"]
assert peer["cluster"]["role"] == "server", peer["cluster"]
tput = json.load(open(glob.glob(b + "/runs/TCP_STREAM*/results.json")[0]))
assert tput["netperf.Throughput_Mbps"][0] > 0, tput
st = json.load(open(glob.glob(b + "/runs/TCP_STREAM*/1/status")[0]))
assert st["peer"]["status"] == "ok", st.get("peer")
print("client", env["boot_id"], "server", peer["boot_id"], "TCP_STREAM",
      tput["netperf.Throughput_Mbps"][0], "Mbps")
PY
[ -L "$B/server-host" ] || fail "no server-host link in $B"
[ -f "$B/server-host/env.json" ] || fail "the server host's boot folder is not collected"
ls "$B"/server-host/runs/TCP_STREAM*/1/status >/dev/null || fail "no server side of TCP_STREAM"
expect_grep '"server_host": {' "$T/out/run.json"
# both VMs' 2 vCPUs run at once: 4 against the host's CPUs
expect_vcpu_warning "$T/run.out" "$T/out/run.json" 4
expect_grep "server host finished, server-host/0" "$T/run.out"
# the lab's way, on the same two disks: `collect` of both makes the layout run made
"$BENCHBOOT" collect "$T/out/server-host.img" "$T/out/results.img" -o "$T/lab" >"$T/lab.out" 2>&1 ||
	{ cat "$T/lab.out"; fail "collect of the two hosts' disks failed"; }
cat "$T/lab.out"
expect_eq "collect's client boot and link as run's" \
	"$(cd "$T/lab" && echo 0*-*) $(readlink "$T/lab/${B##*/}/server-host")" \
	"${B##*/} $(readlink "$B/server-host")"
diff -r --exclude=.collect "$B/server-host/" "$T/lab/${B##*/}/server-host/" ||
	fail "collect's server host boot differs from run's"
# a second two-host boot on another command line (both hosts), the server host on a kernel
# of its own (--server-kernel: the pinned one under another name, in an image of its own):
# compare treats each two-host boot as one boot with both environments, the server host's
# fields as server.*
K=$(ls "$SYSROOT"/boot/vmlinuz-*)
rc=0
bb_timeout 400 "$BENCHBOOT" run "$J" --accel tcg --images "$T/images" --server-kernel srv="$K" \
	--append bbside=b -o "$T/b" >"$T/b.out" 2>&1 || rc=$?
cat "$T/b.out"
expect_eq "second two-host run: exit code" $rc 0
expect_grep "^building the image of .* for the server host's kernel srv" "$T/b.out"
expect_grep "^  $T/images/two-host-netperf.server (image id" "$T/b.out"
expect_grep "^boot 1/1 server: host bb-server, kernel srv," "$T/b.out"
expect_grep "^boot 1/1 client: host bb-client, kernel vmlinuz-" "$T/b.out"
bb_compare "$T/cmp.out" "$T/out" "$T/b"
expect_grep "^A: $T/out (1 boot)" "$T/cmp.out"
expect_grep "^  kernel.cmdline .*| .*bbside=b" "$T/cmp.out"
expect_grep "^  server.kernel.cmdline .*| .*bbside=b benchboot.role=server" "$T/cmp.out"
# the two hosts' dummy interfaces differ (SCTP lists every local address to its peer): the
# client host's init takes 192.0.2.2 by its role
expect_grep "^BENCHBOOT net lo=up dummy0=192.0.2.1/24" "$T"/out/console/*.server.log
expect_grep "^BENCHBOOT net lo=up dummy0=192.0.2.2/24" "$T"/out/console/*.client.log
expect_grep "^run .*test=TCP_STREAM" "$T/cmp.out"
# A/B kernels and --repeat as for one host: both hosts boot A, then both boot B, twice (4
# two-host boots, A B A B); each client boot folder links its own server host's boot (the one
# whose boot id it received, not another repeat's); run.json has 4 boots, each with its
# server_host; compare --by kernel splits them 2 and 2 and reads each boot's server.* fields
sed 's/test: \[TCP_STREAM, SCTP_STREAM_MANY\]/test: TCP_STREAM/' "$J" >"$T/ab.yaml"
rc=0
start=$(date +%s)
bb_timeout 600 "$BENCHBOOT" run "$T/ab.yaml" --accel tcg --images "$T/images" --kernel A="$K" \
	--kernel B="$K" --repeat 2 -o "$T/ab" >"$T/ab.out" 2>&1 || rc=$?
cat "$T/ab.out"
echo "A/B --repeat 2: 4 two-host boots in $(($(date +%s) - start)) s"
expect_eq "A/B two-host run: exit code" $rc 0
expect_vcpu_warning "$T/ab.out" "$T/ab/run.json" 4 # once in 4 boots
n=0
for k in A B A B; do
	n=$((n + 1))
	for h in server client; do
		expect_grep "^boot $n/4 $h: host bb-$h, kernel $k," "$T/ab.out"
		expect_grep "^boot $n/4 $h: finished in" "$T/ab.out"
	done
done
if grep "^boot [0-9]*/" "$T/ab.out" | contains -v "^boot [1-4]/4 "; then fail "a boot not numbered N/4"; fi
[ "$(find "$T"/ab/console -name '*.log' | wc -l)" = 8 ] || fail "expected 8 console logs (4 boots x 2 hosts)"
[ "$(find "$T"/ab/0*-*/server-host/env.json | wc -l)" = 4 ] || fail "expected 4 boots, each with its server host"
[ "$(find "$T"/ab/server-host -mindepth 1 -maxdepth 1 -name '0*-*' | wc -l)" = 4 ] || fail "expected 4 server host boots"
python3 - "$T/ab" <<'PY' || fail "the A/B --repeat 2 boots are not each paired with their own server host boot"
import json, os, sys
d = sys.argv[1]
boots = json.load(open(d + "/run.json"))["boots"]
assert [b["params"]["kernel"] for b in boots] == ["A", "B", "A", "B"], boots
servers = set()
for b in boots:
    sh = b["server_host"]
    assert sh["finished"] and b["finished"], b
    link = os.readlink(os.path.join(d, b["folder"], "server-host"))
    assert link == "../server-host/" + sh["folder"], (b["folder"], link, sh["folder"])
    # the server host the client met is the one it links to
    peer = json.load(open(os.path.join(d, b["folder"], "peer/env.json")))
    srv = json.load(open(os.path.join(d, b["folder"], "server-host/env.json")))
    assert peer["boot_id"] == srv["boot_id"] == sh["boot_id"], (peer["boot_id"], sh)
    assert srv["cluster"]["role"] == "server", srv["cluster"]
    assert sh["console"] != b["console"], b
    servers.add(sh["boot_id"])
assert len(servers) == 4, servers
print("4 two-host boots, each client linked to its own server host:",
      ", ".join(b["folder"][:4] + "->" + b["server_host"]["folder"][:4] for b in boots))
PY
bb_compare "$T/abc.out" "$T/ab" --by kernel
expect_grep "^A: kernel=A (2 boots)" "$T/abc.out"
expect_grep "^B: kernel=B (2 boots)" "$T/abc.out"
expect_grep "^  A: 2 runs in 2 boots, kernel=A   B: 2 runs in 2 boots, kernel=B" "$T/abc.out"
# the server host's environment of each boot: the sides selected by server.* fields too
rel=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"]["release"])' \
	"$(find "$T"/ab/server-host -mindepth 2 -maxdepth 2 -name env.json | sed -n 1p)")
bb_compare "$T/abs.out" "$T/ab" --a kernel=A --a server.cluster.host=bb-server \
	--a server.kernel.release="$rel" --b kernel=B --b server.cluster.host=bb-server \
	--b server.kernel.release="$rel"
expect_grep "^A: kernel=A server.cluster.host=bb-server server.kernel.release=$rel (2 boots)" "$T/abs.out"
expect_grep "^B: kernel=B server.cluster.host=bb-server server.kernel.release=$rel (2 boots)" "$T/abs.out"
# --until with a two-host job, into the same folder: its interval reads the 4 boots there and
# each new one (the first new boot is A: 3 boots A, 2 boots B), at most 2 more boots
rc=0
start=$(date +%s)
bb_timeout 400 "$BENCHBOOT" run "$T/ab.yaml" --accel tcg --images "$T/images" --kernel A="$K" \
	--kernel B="$K" --until 5% --max-boots 2 -o "$T/ab" >"$T/until.out" 2>&1 || rc=$?
cat "$T/until.out"
echo "--until --max-boots 2: $(($(date +%s) - start)) s"
expect_eq "two-host --until: exit code" $rc 0
expect_grep "^boot 1/2 server: host bb-server, kernel A," "$T/until.out"
expect_grep "^boot 1/2 client: host bb-client, kernel A," "$T/until.out"
expect_grep "^until 5%: .*netperf.Throughput_Mbps .*(3 boots A, 2 boots B)" "$T/until.out"
expect_grep "^until: stopped: " "$T/until.out"
new=$(grep -c "^  boot [0-9]: kernel .*client host finished, 0" "$T/until.out" || true)
[ "$(find "$T"/ab/0*-*/server-host/env.json | wc -l)" = $((4 + new)) ] ||
	fail "expected $((4 + new)) boots, each with its server host"
if pgrep -f -- "$T/images" >/dev/null; then fail "a QEMU is still running"; fi
