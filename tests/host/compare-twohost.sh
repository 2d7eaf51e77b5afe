# compare of two-host boots: the server host's environment (the client's peer/env.json, else
# the server host's own boot folder linked as server-host) and the sysctls it read back (each
# iteration's "peer" object) are fields prefixed server. in the environment differences.
. tests/lib.sh
F=tests/fixtures/results/kernels
cp -r $F/A $F/B "$T/"
A=$T/A/0001-a1b2c3d4
B=$T/B/0001-d4c3b2a1
# A's server host sent its env.json (the same kernel as A's client); B's did not, its own
# boot folder is beside it, on another kernel
mkdir "$A/peer" "$T/B/server-host"
cp "$A/env.json" "$A/peer/env.json"
sed 's/6.1.0-58-amd64/6.1.0-59-amd64/; s/"boot_id": "d4c3b2a1"/"boot_id": "5e5e5e5e"/' \
	"$B/env.json" >"$T/B/server-host/env.json"
mkdir -p "$T/B/server-host/0001-5e5e5e5e"
mv "$T/B/server-host/env.json" "$T/B/server-host/0001-5e5e5e5e/env.json"
ln -s ../server-host/0001-5e5e5e5e "$B/server-host"
# the sysctl the server host read back, in one iteration of each side
for d in "$A" "$B"; do
	s=$(ls -d "$d"/runs/*prsctp_enable=0)/0/status
	v=0
	[ "$d" = "$B" ] && v=1
	python3 - "$s" "$v" <<'PY'
import json, sys
p, v = sys.argv[1], sys.argv[2]
st = json.load(open(p))
st["peer"] = {"status": "ok", "reason": None, "sysctl": {"net.core.rmem_max": {"requested": "1", "actual": v}}}
json.dump(st, open(p, "w"), indent=1)
PY
done
set +e
"$BENCHBOOT" compare "$T/A" "$T/B" --all >"$T/out" 2>"$T/err"
rc=$?
set -e
cat "$T/out" | head -20
expect_eq "compare exit" "$rc" 1
expect_grep "^  kernel.release  *6.1.0-57-amd64 | 6.1.0-58-amd64" "$T/out"
expect_grep "^  server.kernel.release  *6.1.0-57-amd64 | 6.1.0-59-amd64" "$T/out"
expect_grep "server.sysctl.net.core.rmem_max.actual" "$T/out"
# the server host's boot id is no difference
if grep -q "server.boot_id" "$T/out"; then fail "server.boot_id shown as a difference"; fi
# the results folder of the server hosts (DIR/server-host) is not a boot of the client's
"$BENCHBOOT" compare "$T/B" "$T/B" >"$T/same.out" || fail "compare B B: $(cat "$T/same.out")"
expect_grep "B: $T/B (1 boot)" "$T/same.out"
