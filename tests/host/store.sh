# benchboot store: the index of collected boots in SQLite (docs/history.md). Adding the fixture
# result sets counts their boots, runs and values; adding again changes nothing (boot ids);
# every iteration's value is there as collected; list names the kernels and jobs; rebuild makes
# the same index from the folders and says which are gone; --db sqlite:PATH, BENCHBOOT_DB and
# the default under XDG_DATA_HOME; a store of a newer schema, a database that is no store and a
# damaged file are refused (exit 100) with what to do, and so is an engine benchboot does not
# have (PostgreSQL's store: tests/host/store-postgresql.sh).
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
assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "1"
PY
# rebuild: the same index from the folders; a folder that is gone is said and left out
rm -rf "$T/kernels/B"
store rebuild --db "$db" || fail "store rebuild: $(cat "$T/err")"
cat "$T/out"
expect_grep "^$db: 7 new boots (8 runs, 42 values), 0 the store had already$" "$T/out"
expect_grep "^folders that are gone, left out: $T/kernels/B$" "$T/out"
store list --db "$db"
expect_grep "^store $db: 2 folders, 7 boots, 8 runs, 42 values$" "$T/out"
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
refused "a newer schema" "env.db has schema version 7, written by a newer benchboot (this one knows versions up to 1)" list --db "$T/env.db"
python3 -c 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); d.execute("CREATE TABLE t (x)"); d.commit()' "$T/other.db"
refused "a database that is no store" "other.db is a database but not a benchboot store" list --db "$T/other.db"
head -c 8192 /dev/urandom >"$T/damaged.db"
refused "a damaged file" "damaged.db is not a benchboot store or is damaged .*move the file away and add them again" list --db "$T/damaged.db"
refused "another engine" "benchboot keeps its store in SQLite (sqlite:PATH or a PATH) or PostgreSQL" list --db mysql://localhost/bench
refused "not results" "no such file\|not a results folder\|No such file" add "$T/nothing" --db "$db"
refused "no verb" "what? add DIR..., list or rebuild" --db "$db"
refused "add nothing" "add which results folders?" add --db "$db"
echo "store ok"
