# The state of every LKP suite here (lib/host/job/suites/inventory.c) and docs/suites.md say the
# same: one row each, the same state and package; every workload of LKP's programs
# (generated/lkpnames.c) has its entry; the suites benchboot runs (suites/table.c) are the
# entries in state "runs", and `check` refuses each of the others with its reason.
. tests/lib.sh
inv=lib/host/job/suites/inventory.c
# NAME STATE PACKAGE from the C table (an entry may span two lines)
tr '\n' ' ' <"$inv" | grep -oE '\{"[^"]+", BB_LKP_[A-Z_]+, (NULL|"[^"]*")' |
	sed -E 's/^\{"([^"]+)", BB_LKP_([A-Z_]+), "?([^"]*)"?$/\1 \2 \3/; s/ NULL$/ -/' |
	awk '{ s = tolower($2); sub(/_/, " ", s); if (s == "not packaged") s = "not_packaged"; print $1, s, $3 }' |
	sort >"$T/c"
[ "$(wc -l <"$T/c")" -ge 100 ] || fail "read only $(wc -l <"$T/c") entries from $inv"
sed -n '/^## Every LKP suite here/,/^## /p' docs/suites.md | grep -E '^\| [a-z0-9]' |
	awk -F' \\| ' '{ sub(/^\| /, "", $1); s = $2; gsub(/ /, "_", s); print $1, s, $3 }' | sort >"$T/doc"
diff "$T/c" "$T/doc" >"$T/diff" || fail "inventory.c (<) and docs/suites.md (>) differ: $(cat "$T/diff")"
# every LKP workload has an entry
grep -oE '\{"[^"]+", BB_LKP_WORKLOAD\}' lib/host/job/generated/lkpnames.c | sed -E 's/^\{"([^"]+)".*/\1/' |
	sort >"$T/lkp"
cut -d' ' -f1 "$T/c" >"$T/names"
missing=$(comm -23 "$T/lkp" "$T/names")
[ -z "$missing" ] || fail "LKP workloads without an entry in $inv: $missing"
# the suites that run are table.c's
grep -oE '&bb_suite_[a-z_]+' lib/host/job/suites/table.c | sed 's/&bb_suite_//; s/_/-/g' | sort >"$T/runs"
awk '$2 == "runs" { print $1 }' "$T/c" | sort >"$T/runs-inv"
diff "$T/runs" "$T/runs-inv" >/dev/null || fail "suites/table.c runs $(tr '\n' ' ' <"$T/runs"), inventory.c says $(tr '\n' ' ' <"$T/runs-inv")"
# check refuses every other entry, with its state's reason, exit 100
n=0
while read -r name state _; do
	[ "$state" = runs ] && continue
	printf 'suite: %s\n' "$name" >"$T/j.yaml"
	rc=0
	"$BENCHBOOT" check "$T/j.yaml" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" = 100 ] || fail "check of suite $name: exit $rc, not 100: $(cat "$T/err")"
	case $state in
	packaged) want="is not run by benchboot yet: Debian packages it" ;;
	not_packaged) want="no Debian package provides it" ;;
	hardware) want="needs what benchboot's machines do not have" ;;
	esac
	grep -qF "LKP's suite '$name' " "$T/err" && grep -qF "$want" "$T/err" ||
		fail "check of suite $name ($state): $(cat "$T/err")"
	n=$((n + 1))
done <"$T/c"
echo "$(wc -l <"$T/c") LKP suites: docs/suites.md agrees with inventory.c; $(wc -l <"$T/runs") run, check refuses the other $n with their reasons"
