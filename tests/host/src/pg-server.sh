# shellcheck shell=bash
# A PostgreSQL server of the test's own, for the store's PostgreSQL engine
# (tests/host/store-postgresql.sh, bench/store-scale.sh): Debian's postgresql, a cluster made
# by initdb in $T/pg, listening on a Unix socket there and nowhere else, run as nobody when
# the test runs as root (initdb refuses root; the folder is then nobody's), stopped when the
# test ends, failed or not (its EXIT trap, before tests/lib.sh's cleanup). Source after
# tests/lib.sh.
#   bb_pg_start [-c NAME=VALUE]...   initdb and start (a few seconds), settings to the server
#   bb_pg_db NAME                    a new database NAME; prints its URL for --db
#   bb_pg_psql NAME SQL              SQL run in database NAME
bb_pg_start() {
	PG_BIN=$(compgen -G "/usr/lib/postgresql/*/bin" | sort -V | tail -n 1)
	[ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] ||
		skip "PostgreSQL's server is missing (tools/scripts/install-deps test: postgresql)"
	PG_DIR=$T/pg
	PG_AS=()
	mkdir -p "$PG_DIR"
	if [ "$(id -u)" = 0 ]; then
		chmod 711 "$T"
		chown nobody "$PG_DIR"
		PG_AS=(runuser -u nobody --)
	fi
	(cd / && "${PG_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U bench --auth=trust -E UTF8 \
		--no-sync >"$T/initdb.log" 2>&1) || fail "initdb: $(tail -n 5 "$T/initdb.log")"
	trap 'bb_pg_stop; bb_cleanup' EXIT
	(cd / && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -o \
		"-c listen_addresses='' -c unix_socket_directories=$PG_DIR $*" start >/dev/null) ||
		fail "pg_ctl start: $(tail -n 5 "$PG_DIR/log")"
}
bb_pg_stop() {
	[ -f "$PG_DIR/data/postmaster.pid" ] || return 0
	(cd / && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1) || true
}
bb_pg_db() {
	"$PG_BIN/createdb" -h "$PG_DIR" -U bench "$1" || fail "createdb $1"
	echo "postgresql:///$1?host=$PG_DIR&user=bench"
}
bb_pg_psql() {
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -U bench -d "$1" -c "$2" || fail "psql: $2"
}
