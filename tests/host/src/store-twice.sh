# shellcheck shell=bash
# Two writers and killed writers, for tests/host/store-concurrent.sh (SQLite) and
# tests/host/store-postgresql.sh. Source after tests/lib.sh.
# bb_store_add_twice DIR DB N: two `benchboot store add DIR --db DB` at once (both must exit 0,
# their outputs shown); the boots they say they added new must make N, each boot added once.
# bb_store_add_killed DIR DB WHOLE WHOLE_NS N TENTH...: `store add DIR --db DB` SIGKILLed at
# each TENTH/10 of WHOLE_NS (the ns a whole add took), each add taking up where the last was
# killed: after each kill DB holds whole boots only (tests/host/src/store-whole.py against
# WHOLE, a store a whole add made), at least one kill came half way, and a last add puts in the
# rest: N boots.
bb_store_add_twice() {
	local p1 new
	"$BENCHBOOT" store add "$1" --db "$2" >"$T/a1" 2>&1 &
	p1=$!
	"$BENCHBOOT" store add "$1" --db "$2" >"$T/a2" 2>&1 || fail "store add beside another: $(cat "$T/a2")"
	wait $p1 || fail "store add beside another: $(cat "$T/a1")"
	cat "$T/a1" "$T/a2"
	# "N new boots", or "1 new boot" when one add got a single boot in before the other
	new=$(cat "$T/a1" "$T/a2" | sed -n 's/.*: \([0-9]*\) new boots\{0,1\} (.*/\1/p' | paste -sd+ | bc)
	expect_eq "boots new in the two store add" "$new" "$3"
}

bb_store_add_killed() {
	local dir=$1 db=$2 whole=$3 ns=$4 want=$5 tenth victim n partial=0
	shift 5
	for tenth in "$@"; do
		"$BENCHBOOT" store add "$dir" --db "$db" >/dev/null 2>&1 &
		victim=$!
		sleep "$(echo "scale=3; $ns * $tenth / 10 / 1000000000" | bc)"
		kill -KILL "$victim" 2>/dev/null || true
		wait "$victim" || true
		n=$(python3 tests/host/src/store-whole.py "$whole" "$db") ||
			fail "a half boot in the store after store add was killed at $tenth/10 of its time: $n"
		echo "killed at $tenth/10 of a whole add's time: $n boots in the store, each whole"
		[ "$n" -gt 0 ] && [ "$n" -lt "$want" ] && partial=$((partial + 1))
	done
	[ $partial -gt 0 ] || fail "no kill came while store add was adding"
	"$BENCHBOOT" store add "$dir" --db "$db" >"$T/out" 2>&1 || fail "store add after the kills: $(cat "$T/out")"
	"$BENCHBOOT" store list --db "$db" >"$T/out" 2>&1 || fail "store list: $(cat "$T/out")"
	expect_grep ": 1 folder, $want boots, " "$T/out"
}
