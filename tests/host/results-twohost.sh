# Two-host boots collected from real results disks (mkdisk + the init's writer built for the
# host): `benchboot collect CLIENT.img SERVER.img -o DIR` files the server host's boot under
# DIR/server-host/ (its env.json says cluster.role server) and links the client host's boot to
# it as server-host (matched by the boot id in the client's peer/env.json, and the plan digest
# and cluster name both hosts record),
# as `benchboot run` lays them out; one-host boots stay where they were; collecting the two
# disks one after the other, in either order, gives the same tree; a second collect changes
# nothing.
. tests/lib.sh
. tests/host/src/results-common.sh
build_writer

# env ROLE BOOTID: a two-host boot's env.json (the fields collect reads, as the init writes them)
env_json() {
	local peer=bb-client
	[ "$1" = client ] && peer=bb-server
	printf '{"boot_id": "%s", "plan_digest": "0123456789abcdef", "kernel": {"release": "6.1.0"},\n' "$2"
	printf ' "cluster": {"name": "cs-qemu-pair", "role": "%s", "host": "bb-%s", "self": "192.168.77.%s",\n' \
		"$1" "$1" "$([ "$1" = server ] && echo 1 || echo 2)"
	printf '  "peer": "192.168.77.x", "peer_host": "%s", "port": 12870, "peer_status": "connected"}}\n' "$peer"
}

# write_boot DISK BOOTID STAGE...: one boot on DISK through the init's writer
write_boot() {
	local disk=$1 id=$2 root="$T/root-$2"
	shift 2
	fake_disk "$root" vda "$disk"
	mkdir -p "$T/local-$id"
	"$T/writer" "$root" "$id" "$T/local-$id" "$@" >"$T/w-$id.out" 2>&1 || { cat "$T/w-$id.out"; fail "writer failed"; }
	expect_grep "finish=0" "$T/w-$id.out"
}

"$BENCHBOOT" mkdisk "$T/client.img" --size 32M >/dev/null || fail "mkdisk client"
"$BENCHBOOT" mkdisk "$T/server.img" --size 32M >/dev/null || fail "mkdisk server"

# the client machine's disk: a one-host boot, then two client host boots of a cluster run
make_stage "$T/one" TCP_STREAM 1
write_boot "$T/client.img" solo1 "$T/one"
make_stage "$T/c1" TCP_STREAM 2
env_json client cli1 >"$T/c1/env.json"
mkdir -p "$T/c1/peer" && env_json server srv1 >"$T/c1/peer/env.json"
write_boot "$T/client.img" cli1 "$T/c1"
make_stage "$T/c2" TCP_STREAM 3
env_json client cli2 >"$T/c2/env.json"
mkdir -p "$T/c2/peer" && env_json server srv-not-collected >"$T/c2/peer/env.json"
write_boot "$T/client.img" cli2 "$T/c2"
# the server machine's disk: the server host's boot of that run (servers only, no results.json)
mkdir -p "$T/s1/runs/TCP_STREAM/1"
env_json server srv1 >"$T/s1/env.json"
echo "MIGRATED TCP STREAM TEST" >"$T/s1/runs/TCP_STREAM/1/server.0.out"
echo '{"status":"ok","peer":{"status":"ok","reason":null}}' >"$T/s1/runs/TCP_STREAM/1/status"
write_boot "$T/server.img" srv1 "$T/s1"

check_tree() {
	local d=$1
	[ -d "$d/0001-solo1" ] && [ ! -e "$d/0001-solo1/server-host" ] || fail "$d: one-host boot misplaced"
	[ -d "$d/0002-cli1" ] && [ -d "$d/0003-cli2" ] || fail "$d: client boots not at the top"
	[ ! -e "$d/0001-srv1" ] || fail "$d: the server host's boot at the top"
	diff -r --exclude=.collect --exclude=done "$T/local-srv1" "$d/server-host/0001-srv1" ||
		fail "$d: server host's boot differs"
	expect_grep "^status=complete" "$d/server-host/0001-srv1/.collect"
	expect_eq "$d link" "$(readlink "$d/0002-cli1/server-host")" "../server-host/0001-srv1"
	expect_eq "$d linked env" "$(cat "$d/0002-cli1/server-host/env.json")" "$(cat "$T/s1/env.json")"
	[ ! -e "$d/0003-cli2/server-host" ] && [ ! -L "$d/0003-cli2/server-host" ] ||
		fail "$d: cli2 linked to a server boot that is not there"
	diff -r --exclude=.collect --exclude=done --exclude=server-host "$T/local-cli1" "$d/0002-cli1" ||
		fail "$d: client boot differs"
}

# both disks in one call
"$BENCHBOOT" collect "$T/client.img" "$T/server.img" -o "$T/out" >"$T/c.out" 2>&1 || { cat "$T/c.out"; fail "collect failed"; }
cat "$T/c.out"
expect_grep "^server-host/0001-srv1: collected, complete" "$T/c.out"
expect_grep "^0002-cli1: linked to its server host's boot: server-host -> ../server-host/0001-srv1" "$T/c.out"
expect_grep "^0003-cli2: its server host's boot srv-not-collected is not in .*server-host/ (yet)" "$T/c.out"
expect_grep "^4 boots collected (0 incomplete), 0 already there" "$T/c.out"
check_tree "$T/out"

# again: nothing new, nothing moved (the server host's boot is found under server-host/)
"$BENCHBOOT" collect "$T/server.img" "$T/client.img" -o "$T/out" >"$T/c2.out" 2>&1 || { cat "$T/c2.out"; fail "second collect failed"; }
expect_grep "^0 boots collected (0 incomplete), 4 already there" "$T/c2.out"
check_tree "$T/out"

# one disk at a time, client first: linked when the server host's disk comes
"$BENCHBOOT" collect "$T/client.img" -o "$T/seq" >"$T/s1.out" 2>&1 || { cat "$T/s1.out"; fail "collect client"; }
expect_grep "^0002-cli1: its server host's boot srv1 is not in" "$T/s1.out"
[ ! -L "$T/seq/0002-cli1/server-host" ] || fail "linked before the server host's disk was collected"
"$BENCHBOOT" collect "$T/server.img" -o "$T/seq" >"$T/s2.out" 2>&1 || { cat "$T/s2.out"; fail "collect server"; }
expect_grep "^0002-cli1: linked to its server host's boot" "$T/s2.out"
check_tree "$T/seq"

# server first
"$BENCHBOOT" collect "$T/server.img" -o "$T/rev" >/dev/null 2>&1 || fail "collect server first"
"$BENCHBOOT" collect "$T/client.img" -o "$T/rev" >/dev/null 2>&1 || fail "collect client second"
check_tree "$T/rev"

# a client boot of another plan is not the server host's boot's pair: no link
sed -i 's/0123456789abcdef/fedcba9876543210/' "$T/rev/0002-cli1/env.json"
rm "$T/rev/0002-cli1/server-host"
rm -r "$T/rev/0003-cli2"
"$BENCHBOOT" collect "$T/client.img" -o "$T/rev" >"$T/r.out" 2>&1 || { cat "$T/r.out"; fail "recollect"; }
expect_grep "^0002-cli1: its server host's boot srv1 is not in" "$T/r.out"
[ ! -L "$T/rev/0002-cli1/server-host" ] || fail "linked across plans"

# several disks, one not a results disk: said, the others still collected, exit 100
head -c 1M /dev/zero >"$T/zero.img"
rc=0
"$BENCHBOOT" collect "$T/zero.img" "$T/client.img" "$T/server.img" -o "$T/mixed" >"$T/m.out" 2>&1 || rc=$?
expect_eq "exit with a disk that is not a results disk" "$rc" 100
expect_grep "unable to collect $T/zero.img: not a benchboot results disk" "$T/m.out"
expect_grep "^4 boots collected" "$T/m.out"
check_tree "$T/mixed"

# compare sees the client host's boots only (the server host's are its environment)
"$BENCHBOOT" compare "$T/out" --by boot >"$T/cmp.txt" 2>&1 && fail "compare of 3 boots by boot chose two itself"
expect_grep "has 3 values (0001-solo1, 0002-cli1, 0003-cli2)" "$T/cmp.txt"
echo "two-host collect ok"
