# shellcheck shell=bash
# bb_store_add_twice DIR DB N: two `benchboot store add DIR --db DB` at once (both must exit 0,
# their outputs shown); the boots they say they added new must make N, each boot added once.
# For tests/host/store-concurrent.sh (SQLite) and tests/host/store-postgresql.sh. Source
# after tests/lib.sh.
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
