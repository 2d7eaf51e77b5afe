# The two formats between the host and the init are written down where users read them: every
# console event lib/console_proto.h defines is a line of docs/console.md (`BENCHBOOT WORD`),
# and every key the init's plan parser (lib/plan/plan.c) knows is in docs/plan.md.
. tests/lib.sh
bad=0

# console events: #define BB_CON_X "word" (the prefixes and the BENCHBOOT-FILE words aside,
# which docs/console.md and docs/results.md give as they are)
sed -n 's/^#define BB_CON_[A-Z_]*[[:space:]]*"\([a-z][a-z-]*\)".*/\1/p' lib/console_proto.h >"$T/events"
[ "$(wc -l <"$T/events")" -ge 10 ] || { cat "$T/events"; fail "too few events read from lib/console_proto.h"; }
while read -r w; do
	grep -qE "BENCHBOOT $w( |\`|$)" docs/console.md || {
		echo "lib/console_proto.h defines the event '$w', docs/console.md has no 'BENCHBOOT $w' line" >&2
		bad=1
	}
done <"$T/events"
for w in BENCHBOOT-FILE BENCHBOOT-DATA BENCHBOOT-END; do
	grep -q "\"$w\"" lib/console_proto.h || continue
	grep -q "$w" docs/console.md docs/results.md || {
		echo "lib/console_proto.h defines $w, neither docs/console.md nor docs/results.md names it" >&2
		bad=1
	}
done

# plan keys, from the plan parser's own tables (lib/plan/plan.c's global_keys and run_keys, the
# fields of cluster.host.N. and server.N.), printed by build/tests/progs/plan-keys: whole
# keys, key prefixes (cgroup.limit., param., ...) and the fields after a numbered prefix, which
# must appear as PREFIX...F (cluster.host.N.role, server.N.ready)
src=lib/plan/plan.c
keys_prog=$B/tests/progs/plan-keys
[ -x "$keys_prog" ] || fail "$keys_prog is not built (make units)"
"$keys_prog" >"$T/all" || fail "$keys_prog failed"
sed -n 's/^key //p' "$T/all" >"$T/keys"
sed -n 's/^prefix //p' "$T/all" >"$T/prefixes"
sed -n 's/^field [^ ]* //p' "$T/all" >"$T/fields"
sort -u -o "$T/keys" "$T/keys"
sort -u -o "$T/prefixes" "$T/prefixes"
sort -u -o "$T/fields" "$T/fields"
[ "$(wc -l <"$T/keys")" -ge 20 ] || { cat "$T/keys"; fail "too few plan keys read from $keys_prog"; }
[ -s "$T/prefixes" ] && [ -s "$T/fields" ] || fail "no key prefixes or fields read from $keys_prog"
# a key is documented when docs/plan.md writes it in backquotes, alone or as `KEY=...`, or
# as benchboot.KEY (the command-line-only keys: debug, reboot, role, debug.crash)
re_quote() { sed 's/[.[\*^$]/\\&/g' <<<"$1"; }
while read -r k; do
	q=$(re_quote "$k")
	grep -qE "\`$q(\`|=)|benchboot\\.$q([= \`]|$)" docs/plan.md || {
		echo "lib/plan/plan.c knows the plan key '$k', docs/plan.md does not give it (\`$k\` or benchboot.$k)" >&2
		bad=1
	}
done <"$T/keys"
while read -r p; do
	q=$(re_quote "$p")
	grep -qE "\`$q" docs/plan.md || {
		echo "lib/plan/plan.c knows the plan keys '$p*', docs/plan.md gives none" >&2
		bad=1
	}
done <"$T/prefixes"
prefix_re=$(sed 's/[.[\*^$]/\\&/g' "$T/prefixes" | paste -sd '|')
while read -r f; do
	q=$(re_quote "$f")
	grep -qE "($prefix_re)[A-Za-z0-9.]*\\.?$q(\`|=)" docs/plan.md || {
		echo "lib/plan/plan.c knows the field '$f' of a plan key ($(paste -sd ' ' "$T/prefixes")...), docs/plan.md gives no such key" >&2
		bad=1
	}
done <"$T/fields"
[ $bad = 0 ] || fail "docs/console.md or docs/plan.md lags behind the code (see above)"
echo "$(wc -l <"$T/events") console events in docs/console.md;" \
	"$(wc -l <"$T/keys") plan keys, $(wc -l <"$T/prefixes") key prefixes and $(wc -l <"$T/fields") fields in docs/plan.md"
