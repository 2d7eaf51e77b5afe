# The SQLite store with two writers, and killed half way (docs/verbs/store.md): two store add
# of the same 120 boots at once both end well (WAL mode, a busy timeout) and each boot is in
# once, whole; store add killed (SIGKILL) at eight moments across the time a whole add takes,
# each add taking up where the last was killed, leaves whole boots only (every boot it has,
# with all its runs, values and environment: tests/host/src/store-whole.py), and the last add
# puts in the rest. PostgreSQL's two writers: tests/host/store-postgresql.sh.
. tests/lib.sh
. tests/host/src/store-twice.sh
command -v python3 >/dev/null || skip "python3 is needed to make the boots and read the store"
python3 tests/host/src/trend-series.py "$(ls -d tests/fixtures/results/kernels/A/0*)" "$T/res" 15 8 0 0 || fail "series"
t0=$(date +%s%N)
"$BENCHBOOT" store add "$T/res" --db "$T/full.db" >"$T/out" 2>&1 || fail "store add: $(cat "$T/out")"
whole_ns=$(($(date +%s%N) - t0))
expect_grep ": 120 new boots" "$T/out"
# two at once, into a store neither has made yet
bb_store_add_twice "$T/res" "$T/both.db" 120
expect_eq "boots of the two store add" "$(python3 tests/host/src/store-whole.py "$T/full.db" "$T/both.db")" 120
expect_eq "the store's journal" "$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA journal_mode").fetchone()[0])' "$T/both.db")" wal
# killed at 3/10, 4/10, ... 10/10 of the time a whole add took
bb_store_add_killed "$T/res" "$T/kill.db" "$T/full.db" "$whole_ns" 120 3 4 5 6 7 8 9 10
expect_grep ": 1 folder, 120 boots, 240 runs, 2160 values$" "$T/out"
echo "store-concurrent ok"
