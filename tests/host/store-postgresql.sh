# The store in PostgreSQL (docs/history.md): a server of the test's own (tests/host/src/
# pg-server.sh: initdb in $T, a Unix socket there, as nobody under root), then the same
# verbs on the same fixtures in SQLite and in PostgreSQL give the same answers: store add
# (twice: nothing new), list, trend (text and --json) of a -5% step, rebuild after a folder
# went; the kernel's vmlinuz and its sha256. Two store add of the same boots at once into a new database: each boot once, both
# exit 0; a boot another transaction is adding is waited for, then known; a row the server
# refuses half way through a boot leaves nothing of it, and so does store add killed (SIGKILL)
# at four moments of an add. BENCHBOOT_DB takes a URL. Refused: a newer schema and a database that is no store
# (exit 100), a URL libpq does not read (100), a server that cannot be reached (111, the URL
# without its password, libpq's reason, what to do).
. tests/lib.sh
. tests/host/src/store-twice.sh
. tests/host/src/pg-server.sh
command -v python3 >/dev/null || skip "python3 is needed to make the series"
bb_pg_start -c fsync=off
F=tests/fixtures/results
cp -r $F/kernels "$T/kernels"
python3 tests/host/src/trend-series.py "$(ls -d $F/kernels/A/0*)" "$T/step" 12 3 9 -5 --vmlinuz "$T/vmlinuz" || fail "series"
# bb DB ARGS...: benchboot ARGS --db DB, its output (the store named DB) and exit code
bb() {
	local db=$1 rc=0 out
	shift
	out=$("$BENCHBOOT" "$@" --db "$db" 2>&1) || rc=$?
	printf '%s\nexit %s\n' "${out//"$db"/DB}" "$rc"
}
answers() { # DB STEPDB
	bb "$1" store add "$T/kernels/A" "$T/kernels/B" $F/cgroup
	bb "$1" store add $F/cgroup
	bb "$1" store list
	bb "$2" store add "$T/step"
	bb "$2" store list
	bb "$2" trend netperf-sctp-cgroup --run 'SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=0'
	bb "$2" trend netperf-sctp-cgroup --json
}
pg=$(bb_pg_db fixtures)
answers "$T/s.db" "$T/step.db" >"$T/ans.sqlite"
answers "$pg" "$(bb_pg_db step)" >"$T/ans.pg"
cat "$T/ans.pg"
diff -u "$T/ans.sqlite" "$T/ans.pg" || fail "PostgreSQL's answers differ from SQLite's"
expect_grep "^tests/fixtures/results/cgroup: 0 new boots (0 runs, 0 values), 6 the store had already$" "$T/ans.pg"
expect_grep "^store DB: 3 folders, 8 boots, 10 runs, 56 values$" "$T/ans.pg"
expect_grep "^  change between K08 and K09 (kernel 9 of 12): -[45].[0-9]% " "$T/ans.pg"
# the kernel's identity: its vmlinuz and the file's sha256
expect_grep "^    commit -  sha256 $(sha256sum "$T/vmlinuz/vmlinuz-K01" | cut -c1-12)  $T/vmlinuz/vmlinuz-K01$" "$T/ans.pg"
rm -rf "$T/kernels/B"
bb "$T/s.db" store rebuild >"$T/ans.sqlite"
bb "$pg" store rebuild >"$T/ans.pg"
diff -u "$T/ans.sqlite" "$T/ans.pg" || fail "rebuild: PostgreSQL's answer differs from SQLite's"
expect_grep "^DB: 7 new boots (8 runs, 42 values), 0 the store had already$" "$T/ans.pg"
BENCHBOOT_DB=$pg "$BENCHBOOT" store list >"$T/out" 2>&1 || fail "BENCHBOOT_DB=$pg: $(cat "$T/out")"
expect_grep "^store $pg: 2 folders, 7 boots, 8 runs, 42 values$" "$T/out"
# two store add of the same 36 boots at once, into a database neither has made yet
twice=$(bb_pg_db twice)
bb_store_add_twice "$T/step" "$twice" 36
"$BENCHBOOT" store list --db "$twice" >"$T/out" 2>&1
expect_grep ": 1 folder, 36 boots, 72 runs, 648 values$" "$T/out"
# the same boot id at once, for sure: another transaction adds the first boot and holds it;
# store add waits for it, then has that boot already (not an error) and adds the others
race=$(bb_pg_db race)
"$BENCHBOOT" store list --db "$race" >/dev/null 2>&1 || fail "store list of a new database"
bb_pg_psql race "BEGIN; INSERT INTO folders (path, added) VALUES ('/elsewhere', 0);
	INSERT INTO kernels (name, release, cmdline) VALUES ('K01', '', '');
	INSERT INTO jobs (name, digest) VALUES ('other', '');
	INSERT INTO boots (boot_id, folder, path, kernel, job, done, added) SELECT '10000001',
	f.id, '/elsewhere', k.id, j.id, 1, 0 FROM folders f, kernels k, jobs j;
	SELECT pg_sleep(1.5); COMMIT" >/dev/null &
p1=$!
sleep 0.5
"$BENCHBOOT" store add "$T/step" --db "$race" >"$T/out" 2>&1 || fail "store add beside a transaction adding its first boot: $(cat "$T/out")"
wait $p1
expect_grep ": 35 new boots (70 runs, 630 values), 1 the store had already$" "$T/out"
# a boot's row the server refuses half way (a trigger of the test's): store add fails with the
# server's reason and the store has no part of that boot; without the trigger, all of them
refuse=$(bb_pg_db refuse)
"$BENCHBOOT" store list --db "$refuse" >/dev/null 2>&1 || fail "store list of a new database"
bb_pg_psql refuse "CREATE FUNCTION refuse() RETURNS trigger AS \$\$ BEGIN
	IF NEW.stat = 'netperf.Throughput_Mbps' AND NEW.i = 2 THEN RAISE EXCEPTION 'refused by the test'; END IF;
	RETURN NEW; END \$\$ LANGUAGE plpgsql;
	CREATE TRIGGER refuse BEFORE INSERT ON vals FOR EACH ROW EXECUTE FUNCTION refuse()"
rc=0
"$BENCHBOOT" store add "$T/step" --db "$refuse" >"$T/out" 2>&1 || rc=$?
cat "$T/out"
expect_eq "store add refused half way: exit code" "$rc" 111
expect_grep "refused by the test" "$T/out"
"$BENCHBOOT" store list --db "$refuse" >"$T/out" 2>&1
expect_grep ": 1 folder, 0 boots, 0 runs, 0 values$" "$T/out"
bb_pg_psql refuse "DROP TRIGGER refuse ON vals"
t0=$(date +%s%N)
"$BENCHBOOT" store add "$T/step" --db "$refuse" >"$T/out" 2>&1 || fail "store add: $(cat "$T/out")"
whole_ns=$(($(date +%s%N) - t0))
expect_grep ": 36 new boots (72 runs, 648 values), 0 the store had already$" "$T/out"
# store add killed (SIGKILL) at four moments of the time a whole add took, each add taking up
# where the last was killed: the server ends the killed client's transaction, so the database
# holds whole boots only (tests/host/src/store-whole.py against the whole add's); the last add
# puts in the rest
export PSQL=$PG_BIN/psql
kill=$(bb_pg_db kill)
"$BENCHBOOT" store list --db "$kill" >/dev/null 2>&1 || fail "store list of a new database"
bb_store_add_killed "$T/step" "$kill" "$refuse" "$whole_ns" 36 2 4 6 8
expect_grep ": 1 folder, 36 boots, 72 runs, 648 values$" "$T/out"
# refused
refused() { # WHAT CODE PATTERN DB
	local rc=0
	"$BENCHBOOT" store list --db "$4" >"$T/out" 2>&1 || rc=$?
	cat "$T/out"
	expect_eq "$1: exit code" "$rc" "$2"
	expect_grep "$3" "$T/out"
}
bb_pg_psql fixtures "UPDATE meta SET value = '7' WHERE key = 'schema'"
refused "a newer schema" 100 "has schema version 7, written by a newer benchboot (this one knows versions up to 2)" "$pg"
bb_pg_psql "$(bb_pg_db other >/dev/null && echo other)" "CREATE TABLE t (x int)"
refused "a database that is no store" 100 "other?host=.* is a database but not a benchboot store" \
	"postgresql:///other?host=$PG_DIR&user=bench"
refused "a URL libpq does not read" 100 "is not a PostgreSQL URL libpq reads" "postgres:///x?nosuch=1"
nowhere="postgresql://bench:secret@/bench?host=$T/nowhere"
refused "no server" 111 "unable to reach the PostgreSQL store postgresql://bench:\*\*\*@/bench?host=$T/nowhere: .*No such file.*(start the server, or check the URL" "$nowhere"
grep -q secret "$T/out" && fail "the password is in the message: $(cat "$T/out")"
echo "store-postgresql ok"
