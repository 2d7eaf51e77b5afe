# compare when data is missing (tests/fixtures/results/kernels copied, then damaged): no data is
# never "no change". A run whose iterations ended ok with an empty results.json, or with none,
# and a boot without env.json are each named, with the side and the path, under "missing" (in
# --json too), and compare exits 100 while the other runs are still compared; the same tree
# undamaged exits 0 with nothing missing.
. tests/lib.sh
F=tests/fixtures/results/kernels
cp -r "$F/A" "$T/A"
cp -r "$F/B" "$T/B"
run="SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=1"
cmp_rc() { # OUT ARGS...: compare's exit code
	local out=$1 rc=0
	shift
	"$BENCHBOOT" compare "$@" >"$out" 2>"$out.err" || rc=$?
	echo "$rc"
}
expect_eq "whole trees: exit" "$(cmp_rc "$T/same.out" "$T/A" "$T/A")" 0
! grep -q '^missing' "$T/same.out" || fail "a whole tree has something missing: $(cat "$T/same.out")"

: >"$T/B/0001-"*/runs/$run/results.json
for d in "$T/B/0001-"*/runs/$run/[0-9]*/; do rm -f "$d/results.json"; done
expect_eq "empty results.json: exit" "$(cmp_rc "$T/empty.out" "$T/A" "$T/B")" 100
expect_grep "^missing (no data is not \"no change\": exit 100):$" "$T/empty.out"
expect_grep "^  B: $T/B/0001-[^/]*/runs/$run: no stat of the test, though 2 iterations ended ok" "$T/empty.out"
expect_grep "1 thing missing (listed under \"missing\"): the comparison is incomplete" "$T/empty.out.err"
# the other run is still compared
expect_grep "prsctp_enable=0" "$T/empty.out"
"$BENCHBOOT" compare "$T/A" "$T/B" --json >"$T/empty.json" 2>/dev/null && fail "--json exited 0 with data missing"
python3 - "$T/empty.json" <<'PY' || fail "--json does not say what is missing"
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["missing"]) == 1 and j["missing"][0].startswith("B: "), j["missing"]
PY

rm "$T/A/0001-"*/env.json
expect_eq "no env.json: exit" "$(cmp_rc "$T/noenv.out" "$T/A" "$T/B")" 100
expect_grep "^  A: $T/A/0001-[^/]*/env.json: missing or empty: the environment this boot ran in is unknown" "$T/noenv.out"
echo "an empty results.json and a missing env.json: named under missing, exit 100"
