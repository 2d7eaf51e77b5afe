# docs/verbs/: one page per verb of `benchboot --help`, and each page's first fenced block is
# that verb's `--help` output, byte for byte (a changed --help must change its page); the page
# also gives the verb's one-line summary. Every page names a verb the CLI lists.
. tests/lib.sh
"$BENCHBOOT" --help >"$T/help" || fail "benchboot --help failed"
# the verbs: the indented lines after "verbs:" up to the first empty line
awk '/^verbs:$/ {on=1; next} on && /^$/ {exit} on && /^  [a-z]/ {print $1}' "$T/help" >"$T/verbs"
[ -s "$T/verbs" ] || { cat "$T/help"; fail "no verbs in benchboot --help"; }
bad=0
while read -r v; do
	page=docs/verbs/$v.md
	if [ ! -f "$page" ]; then
		echo "benchboot lists the verb '$v' but $page does not exist" >&2
		bad=1
		continue
	fi
	"$BENCHBOOT" "$v" --help >"$T/$v.help" 2>&1 || fail "benchboot $v --help: exit $?"
	# the first fenced block of the page, without its fences
	awk '/^```/ {if (on) exit; on=1; next} on' "$page" >"$T/$v.page"
	if ! cmp -s "$T/$v.help" "$T/$v.page"; then
		echo "$page: its first fenced block is not the output of 'benchboot $v --help'" \
			"(- the page, + the CLI):" >&2
		diff -u --label "$page" --label "benchboot $v --help" "$T/$v.page" "$T/$v.help" >&2 || true
		bad=1
	fi
	summary=$(awk -v v="$v" '$1 == v {sub(/^  [^ ]+ +/, ""); print; exit}' "$T/help")
	grep -qF -- "$summary" "$page" || {
		echo "$page: does not give the summary of 'benchboot --help': $summary" >&2
		bad=1
	}
done <"$T/verbs"
for page in docs/verbs/*.md; do
	v=$(basename "$page" .md)
	grep -qx -- "$v" "$T/verbs" || {
		echo "$page: benchboot has no verb '$v' (benchboot --help lists: $(tr '\n' ' ' <"$T/verbs"))" >&2
		bad=1
	}
done
[ $bad = 0 ] || fail "docs/verbs/ does not match the CLI (see above)"
echo "$(wc -l <"$T/verbs") verbs, each page matches its --help"
