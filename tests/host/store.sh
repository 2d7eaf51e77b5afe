# benchboot store: the index of collected boots in SQLite (docs/history.md). Adding the fixture
# result sets counts their boots, runs and values; adding again changes nothing (boot ids);
# every iteration's value is there as collected; list names the kernels and jobs; rebuild makes
# the same index from the folders and says which are gone; --db sqlite:PATH, BENCHBOOT_DB and
# the default under XDG_DATA_HOME; a store of a newer schema, a database that is no store and a
# damaged file are refused (exit 100) with what to do, and so is an engine benchboot does not
# have (PostgreSQL's store: tests/host/store-postgresql.sh). The kernel's identity: its commit
# (a 12-hex name), the vmlinuz run.json names with its sha256 (read once per path, size and
# mtime) and the job file, in the store and in list; a store of schema version 1 (made by the
# benchboot before version 2) is brought to version 2 on open. A kernel is what was booted:
# benchboot's per-boot words on its command line (each round's turn) do not make another.
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is needed to read the store"
F=tests/fixtures/results
cp -r $F/kernels "$T/kernels"
db=$T/s.db
store() { "$BENCHBOOT" store "$@" >"$T/out" 2>"$T/err"; }
store add "$T/kernels/A" "$T/kernels/B" $F/cgroup --db "sqlite:$db" || fail "store add: $(cat "$T/err")"
cat "$T/out"
expect_grep "^$T/kernels/A: 1 new boot (2 runs, 18 values), 0 the store had already$" "$T/out"
expect_grep "^$F/cgroup: 6 new boots (6 runs, 24 values), 0 the store had already$" "$T/out"
# twice: nothing new
store add $F/cgroup --db "$db" || fail "store add again: $(cat "$T/err")"
expect_grep "^$F/cgroup: 0 new boots (0 runs, 0 values), 6 the store had already$" "$T/out"
store list --db "$db" || fail "store list: $(cat "$T/err")"
cat "$T/out"
expect_grep "^store $db: 3 folders, 8 boots, 10 runs, 56 values$" "$T/out"
expect_grep "^  (unnamed) *6.1.0-58-amd64 *1  console=ttyS0 panic=-1 quiet$" "$T/out"
expect_grep "^  netperf-sctp-cgroup *8 *10$" "$T/out"
# every iteration's value as collected, with the boot's kernel and the run's parameters
python3 - "$db" "$T/kernels/A" <<'PY' || fail "the store's values"
import glob, json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
run = sorted(glob.glob(sys.argv[2] + "/0*/runs/*/results.json"))[0]
want = json.load(open(run))["netperf.Throughput_Mbps"]
rows = db.execute("""SELECT v.value FROM vals v JOIN runs r ON v.run = r.id JOIN boots b ON r.boot = b.id
    WHERE b.boot_id = 'a1b2c3d4' AND v.stat = 'netperf.Throughput_Mbps' AND r.run_id = ?
    ORDER BY v.i""", (run.split("/")[-2],)).fetchall()
assert [r[0] for r in rows] == want, (rows, want)
params = dict(db.execute("""SELECT p.key, p.value FROM params p JOIN runs r ON p.run = r.id
    JOIN boots b ON r.boot = b.id WHERE b.boot_id = 'a1b2c3d4' AND r.run_id = ?""", (run.split("/")[-2],)).fetchall())
assert params.get("sysctl.net.sctp.prsctp_enable") == "0" and params.get("nr_threads") == "2", params
print("boot a1b2c3d4 %s: %s" % (run.split("/")[-2], [r[0] for r in rows]))
assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "2"
PY
# the kernel's identity: the commit (a name of 12 hex digits, as `benchboot kernel` names its
# builds), the vmlinuz run.json names with its sha256, the job file; a vmlinuz hashed once per
# path, size and mtime (its bytes changed under the same size and mtime: the digest kept)
cp -r $F/kernels/A "$T/ident"
head -c 100000 /dev/urandom >"$T/vmlinuz-x"
sum=$(sha256sum "$T/vmlinuz-x" | cut -c1-64)
printf '{"boots": [{"boot_id": "a1b2c3d4", "params": {"kernel": "0123456789ab"}, "vmlinuz": "%s", "job_file": "/jobs/netperf.yaml"}]}\n' "$T/vmlinuz-x" >"$T/ident/run.json"
store add "$T/ident" --db "$T/ident.db" || fail "store add with run.json: $(cat "$T/err")"
store list --db "$T/ident.db" || fail "store list: $(cat "$T/err")"
cat "$T/out"
expect_grep "^  0123456789ab *6.1.0-57-amd64 *1  console=ttyS0 panic=-1 quiet$" "$T/out"
expect_grep "^    commit 0123456789ab  sha256 $(echo "$sum" | cut -c1-12)  $T/vmlinuz-x$" "$T/out"
cp -r "$T/ident" "$T/ident2"
sed -i 's/a1b2c3d4/b1b2c3d4/' "$T/ident2/run.json"
mv "$T/ident2/0001-a1b2c3d4" "$T/ident2/0001-b1b2c3d4"
sed -i 's/"a1b2c3d4"/"b1b2c3d4"/' "$T/ident2/0001-b1b2c3d4/env.json"
python3 -c 'import os, sys; f = open(sys.argv[1], "r+b"); f.write(b"x" * 16); f.close(); os.utime(sys.argv[1], (1, 1))' "$T/vmlinuz-x"
store add "$T/ident2" --db "$T/ident.db" || fail "store add again: $(cat "$T/err")"
store add "$T/ident2" --db "$T/ident.db" || fail "store add again: $(cat "$T/err")"
python3 - "$T/ident.db" "$sum" <<'PY' || fail "the kernel's identity in the store"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("SELECT git_commit, sha256 FROM kernels").fetchall() == [("0123456789ab", sys.argv[2])]
assert [r[0] for r in db.execute("SELECT job_file FROM boots")] == ["/jobs/netperf.yaml"] * 2
# two files by (path, size, mtime): the first digest, then the changed file's (mtime 1)
rows = db.execute("SELECT mtime, sha256 FROM file_digests ORDER BY mtime DESC").fetchall()
assert len(rows) == 2 and rows[0][1] == sys.argv[2] and rows[1][0] == 1 and rows[1][1] != sys.argv[2], rows
PY
# a store of schema version 1 (tests/fixtures/store/schema-v1.sql: made by the benchboot
# before version 2) is brought to version 2 on open, its boots kept
python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).executescript(open(sys.argv[2]).read())' "$T/v1.db" tests/fixtures/store/schema-v1.sql
store list --db "$T/v1.db" || fail "store list of a version-1 store: $(cat "$T/err")"
expect_grep "^store $T/v1.db: 1 folder, 1 boot, 2 runs, 18 values$" "$T/out"
store add "$T/ident2" --db "$T/v1.db" || fail "store add to a version-1 store: $(cat "$T/err")"
python3 - "$T/v1.db" <<'PY' || fail "the version-1 store migrated"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "2"
assert db.execute("SELECT name, git_commit FROM kernels ORDER BY id").fetchall() == [("", ""), ("0123456789ab", "0123456789ab")]
PY
# rebuild: the same index from the folders; a folder that is gone is said and left out
rm -rf "$T/kernels/B"
store rebuild --db "$db" || fail "store rebuild: $(cat "$T/err")"
cat "$T/out"
expect_grep "^$db: 7 new boots (8 runs, 42 values), 0 the store had already$" "$T/out"
expect_grep "^folders that are gone, left out: $T/kernels/B$" "$T/out"
store list --db "$db"
expect_grep "^store $db: 2 folders, 7 boots, 8 runs, 42 values$" "$T/out"
# three rounds of one kernel: each boot's command line has its own turn of the run order (and
# its boot group), benchboot's words, not the kernel's: still one kernel, as booted
mkdir -p "$T/rounds"
for k in 0 1 2; do
	cp -r $F/kernels/A/0001-a1b2c3d4 "$T/rounds/000$k-round$k"
	python3 - "$T/rounds/000$k-round$k/env.json" "$k" <<'PY' || fail "rounds"
import json, sys
env = json.load(open(sys.argv[1]))
env["boot_id"] = "round" + sys.argv[2]
env["kernel"]["cmdline"] += " benchboot.order.rotate=%s benchboot.boot.group=0" % sys.argv[2]
json.dump(env, open(sys.argv[1], "w"))
PY
done
store add "$T/rounds" --db "$T/rounds.db" || fail "store add: $(cat "$T/err")"
store list --db "$T/rounds.db" || fail "store list: $(cat "$T/err")"
cat "$T/out"
expect_grep "^  (unnamed) *6.1.0-57-amd64 *3  console=ttyS0 panic=-1 quiet$" "$T/out"
# BENCHBOOT_DB, then the default under XDG_DATA_HOME
BENCHBOOT_DB=$T/env.db "$BENCHBOOT" store add $F/prsctp >"$T/out" 2>&1 || fail "BENCHBOOT_DB: $(cat "$T/out")"
[ -s "$T/env.db" ] || fail "BENCHBOOT_DB=$T/env.db: no store there"
env -u BENCHBOOT_DB XDG_DATA_HOME="$T/xdg" "$BENCHBOOT" store add $F/prsctp >"$T/out" 2>&1 ||
	fail "XDG_DATA_HOME: $(cat "$T/out")"
[ -s "$T/xdg/benchboot/results.db" ] || fail "no store at \$XDG_DATA_HOME/benchboot/results.db"
# refused, with what to do: exit 100
refused() { # WHAT PATTERN ARGS...
	local what=$1 pattern=$2 rc=0
	shift 2
	"$BENCHBOOT" store "$@" >"$T/out" 2>"$T/err" || rc=$?
	expect_eq "$what: exit code" "$rc" 100
	expect_grep "$pattern" "$T/err"
}
python3 -c 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); d.execute("UPDATE meta SET value = 7 WHERE key = ?", ("schema",)); d.commit()' "$T/env.db"
refused "a newer schema" "env.db has schema version 7, written by a newer benchboot (this one knows versions up to 2)" list --db "$T/env.db"
python3 -c 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); d.execute("CREATE TABLE t (x)"); d.commit()' "$T/other.db"
refused "a database that is no store" "other.db is a database but not a benchboot store" list --db "$T/other.db"
head -c 8192 /dev/urandom >"$T/damaged.db"
refused "a damaged file" "damaged.db is not a benchboot store or is damaged .*move the file away and add them again" list --db "$T/damaged.db"
refused "another engine" "benchboot keeps its store in SQLite (sqlite:PATH or a PATH) or PostgreSQL" list --db mysql://localhost/bench
refused "not results" "no such file\|not a results folder\|No such file" add "$T/nothing" --db "$db"
refused "no verb" "what? add DIR..., list or rebuild" --db "$db"
refused "add nothing" "add which results folders?" add --db "$db"
echo "store ok"
