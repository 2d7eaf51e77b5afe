# The SQLite store with two writers, and killed half way (docs/verbs/store.md): two store add
# of the same 120 boots at once both end well (WAL mode, a busy timeout) and each boot is in
# once; a store add killed (SIGKILL) in the middle of its boots leaves whole boots only
# (every boot it has, with all its runs and values as a full add has them), and adding again
# puts in the rest. PostgreSQL's two writers: tests/host/store-postgresql.sh.
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is needed to make the boots and read the store"
python3 tests/host/src/trend-series.py "$(ls -d tests/fixtures/results/kernels/A/0*)" "$T/res" 15 8 0 0 || fail "series"
"$BENCHBOOT" store add "$T/res" --db "$T/full.db" >"$T/out" 2>&1 || fail "store add: $(cat "$T/out")"
expect_grep ": 120 new boots" "$T/out"
# two at once, into a store neither has made yet
"$BENCHBOOT" store add "$T/res" --db "$T/both.db" >"$T/a1" 2>&1 &
p1=$!
"$BENCHBOOT" store add "$T/res" --db "$T/both.db" >"$T/a2" 2>&1 || fail "store add beside another: $(cat "$T/a2")"
wait $p1 || fail "store add beside another: $(cat "$T/a1")"
cat "$T/a1" "$T/a2"
new=$(cat "$T/a1" "$T/a2" | sed -n 's/.*: \([0-9]*\) new boots.*/\1/p' | paste -sd+ | bc)
expect_eq "boots new in the two store add" "$new" 120
# killed once it has 20 boots in
"$BENCHBOOT" store add "$T/res" --db "$T/kill.db" >"$T/out" 2>&1 &
victim=$!
python3 - "$T/kill.db" "$victim" <<'PY' || fail "the kill"
import os, signal, sqlite3, sys, time
path, pid = sys.argv[1], int(sys.argv[2])
end = time.time() + 10
while time.time() < end:
    try:
        n = sqlite3.connect("file:%s?mode=ro" % path, uri=True).execute("SELECT count(*) FROM boots").fetchone()[0]
    except sqlite3.Error:
        n = 0
    if n >= 20:
        os.kill(pid, signal.SIGKILL)
        sys.exit(0)
    time.sleep(0.002)
sys.exit("store add never had 20 boots in")
PY
rc=0
wait "$victim" || rc=$?
expect_eq "store add killed: its exit code" "$rc" 137
python3 - "$T/full.db" "$T/kill.db" "$T/both.db" <<'PY' || fail "a half boot in the store"
import sqlite3, sys
q = """SELECT b.boot_id, count(DISTINCT r.id), count(v.value), (SELECT count(*) FROM env e WHERE e.boot = b.id)
    FROM boots b LEFT JOIN runs r ON r.boot = b.id LEFT JOIN vals v ON v.run = r.id GROUP BY b.id"""
full = {r[0]: r[1:] for r in sqlite3.connect(sys.argv[1]).execute(q)}
killed = {r[0]: r[1:] for r in sqlite3.connect(sys.argv[2]).execute(q)}
assert 20 <= len(killed) < len(full), "killed with %d of %d boots in" % (len(killed), len(full))
for b, counts in killed.items():
    assert counts == full[b], (b, counts, full[b])
print("killed with %d of %d boots in, each whole" % (len(killed), len(full)))
both = sqlite3.connect(sys.argv[3])
assert both.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
assert {r[0]: r[1:] for r in both.execute(q)} == full
PY
"$BENCHBOOT" store add "$T/res" --db "$T/kill.db" >"$T/out" 2>&1 || fail "store add after the kill: $(cat "$T/out")"
cat "$T/out"
"$BENCHBOOT" store list --db "$T/kill.db" >"$T/out" 2>&1 || fail "store list: $(cat "$T/out")"
expect_grep ": 1 folder, 120 boots, 240 runs, 2160 values$" "$T/out"
echo "store-concurrent ok"
