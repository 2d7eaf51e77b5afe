# The results store at scale (docs/history.md "Scale"): BOOTS synthetic boots shaped like
# collected ones (default 10000: 1000 kernels x 10 boots, each a copy of a fixture boot with
# two netperf runs of 3 iterations, tests/host/src/trend-series.py) added with `store add`
# (one transaction per boot, WAL), against reading the same results.json files with
# python3's json module (the floor any indexer pays: parsing what the folders hold), in the
# same run; then `trend` of one stat over the kernels, against the series' query alone
# (python3's sqlite3 on the same store). Printed: boots per second, ms, the ratios, and the
# store add's peak memory (it reads the folder a boot at a time, a transaction each: its
# memory does not grow with the folder; tests/host/store-memory.sh asserts it). Then the same add and trend into a
# PostgreSQL server the script starts (initdb in its folder, a Unix socket), both printed.
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is needed to make the boots"
BOOTS=${BOOTS:-10000}
PER=${PER:-10}
KERNELS=$((BOOTS / PER))
# each synthetic boot takes about 75 KB of folders
free_kb=$(df -Pk "$T" | awk 'NR == 2 { print $4 }')
[ "$free_kb" -gt $((BOOTS * 75 * 2)) ] || skip "$((BOOTS * 75 / 1024)) MB of synthetic boots need twice that free in $T ($((free_kb / 1024)) MB free)"
fixture=$(ls -d tests/fixtures/results/kernels/A/0*)
python3 tests/host/src/trend-series.py "$fixture" "$T/res" "$KERNELS" "$PER" $((KERNELS * 2 / 3)) -5 || fail "series"
echo "$((KERNELS * PER)) boots of $KERNELS kernels in $T/res ($(du -sh "$T/res" | cut -f1))"
sync
t0=$(date +%s%N)
python3 - "$T/res" <<'PY'
import glob, json, sys
n = 0
for f in glob.glob(sys.argv[1] + "/*/runs/*/results.json"):
    n += len(json.load(open(f)))
for f in glob.glob(sys.argv[1] + "/*/env.json"):
    json.load(open(f))
PY
t1=$(date +%s%N)
/usr/bin/time -f "%M" -o "$T/rss" "$BENCHBOOT" store add "$T/res" --db "$T/s.db" >"$T/add.out" 2>&1 || fail "store add: $(cat "$T/add.out")"
t2=$(date +%s%N)
cat "$T/add.out"
py_ms=$(((t1 - t0) / 1000000)) add_ms=$(((t2 - t1) / 1000000))
echo "read with python3's json: $py_ms ms; store add: $add_ms ms ($(echo "$KERNELS * $PER * 1000 / $add_ms" | bc) boots/s), ratio $(echo "scale=1; $add_ms / $py_ms" | bc); peak RSS $(cat "$T/rss") KB"
run='SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=0'
t0=$(date +%s%N)
python3 - "$T/s.db" "$run" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""SELECT b.kernel, b.boot_id, avg(v.value) FROM vals v JOIN runs r ON v.run = r.id
    JOIN boots b ON r.boot = b.id WHERE r.run_id = ? AND v.stat = 'netperf.Throughput_Mbps'
    GROUP BY b.id ORDER BY b.id""", (sys.argv[2],)).fetchall()
assert len(rows) > 0
PY
t1=$(date +%s%N)
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$T/s.db" --run "$run" --stat netperf.Throughput_Mbps >"$T/trend.out" 2>&1 || [ $? = 1 ] || fail "trend: $(cat "$T/trend.out")"
t2=$(date +%s%N)
grep "change between\|kernels," "$T/trend.out"
q_ms=$(((t1 - t0) / 1000000)) tr_ms=$(((t2 - t1) / 1000000))
echo "the series' query with python3's sqlite3 (its start included): $q_ms ms; trend over $KERNELS kernels: $tr_ms ms, ratio $(echo "scale=2; $tr_ms / $q_ms" | bc)"
# The same on PostgreSQL: a server of the bench's own (tests/host/src/pg-server.sh: initdb in
# $T, a Unix socket there, the server's default settings), the same boots added, the same
# trend.
. tests/host/src/pg-server.sh
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
	echo "PostgreSQL: not measured (no server here: tools/scripts/install-deps test installs postgresql)"
	exit 0
fi
bb_pg_start
pg=$(bb_pg_db bench)
t1=$(date +%s%N)
/usr/bin/time -f "%M" -o "$T/rss" "$BENCHBOOT" store add "$T/res" --db "$pg" >"$T/add.out" 2>&1 || fail "store add into PostgreSQL: $(cat "$T/add.out")"
t2=$(date +%s%N)
pg_add_ms=$(((t2 - t1) / 1000000))
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$pg" --run "$run" --stat netperf.Throughput_Mbps >"$T/trend.pg" 2>&1 || [ $? = 1 ] || fail "trend on PostgreSQL: $(cat "$T/trend.pg")"
t3=$(date +%s%N)
pg_tr_ms=$(((t3 - t2) / 1000000))
diff <(grep "change between\|kernels," "$T/trend.out") <(grep "change between\|kernels," "$T/trend.pg") ||
	fail "trend on PostgreSQL differs from SQLite's"
echo "PostgreSQL: store add: $pg_add_ms ms ($(echo "$KERNELS * $PER * 1000 / $pg_add_ms" | bc) boots/s), peak RSS $(cat "$T/rss") KB; trend over $KERNELS kernels: $pg_tr_ms ms"
echo "SQLite against PostgreSQL: store add $add_ms ms against $pg_add_ms ms, trend $tr_ms ms against $pg_tr_ms ms"
