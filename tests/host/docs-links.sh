# The docs point at what exists: every relative link of README.md, docs/*.md and docs/verbs/*.md
# ([text](target), the target relative to the page) names an existing file or folder, and so
# does every docs page named in their text (docs/NAME.md, relative to the top), and every
# file or folder of benchboot's tree they name (lib/..., init/..., tools/..., tests/...,
# config/..., bench/..., rootfs/...: what a folder move must carry along), and
# docs/architecture.md's Folders table has a row for each folder of C sources. Not checked there:
# LKP's files (lib/*.rb, as LKP's docs name them), placeholders in capitals (lib/modules/VERSION,
# config/clusters/NAME), and a name that is the start of existing ones (lib/results/resdisk.[ch],
# tests/host/results-*.sh).
. tests/lib.sh
bad=0
for page in README.md docs/*.md docs/verbs/*.md; do
	dir=$(dirname "$page")
	# [text](target): targets without a scheme (http:, mailto:) and not only an #anchor
	{ grep -oE '\]\([^) ]+\)' "$page" || true; } | sed 's/^](//; s/)$//' | while read -r target; do
		case $target in
		*://* | mailto:* | '#'*) continue ;;
		esac
		path=${target%%#*}
		[ -e "$dir/$path" ] || echo "$page: the link ($target) names $dir/$path, which does not exist"
	done >>"$T/broken"
	{ grep -oE '(^|[^A-Za-z0-9_/.-])docs/[A-Za-z0-9_/-]+\.md' "$page" || true; } | sed -E 's/^[^d]//' | sort -u |
		while read -r named; do
			case $named in
			*[A-Z][A-Z]*) continue ;; # a placeholder: docs/verbs/VERB.md
			esac
			[ -e "$named" ] || echo "$page: names $named, which does not exist"
		done >>"$T/broken"
	{ grep -oE '(^|[ `(])(lib|init|tools|tests|config|bench|rootfs)/[A-Za-z0-9_./+-]*[A-Za-z0-9_]' "$page" || true; } |
		sed -E 's/^[ `(]//' | sort -u | while read -r named; do
			case $named in
			*.rb | */[A-Z]* | *[A-Z][A-Z]*) continue ;;
			esac
			[ -e "$named" ] || compgen -G "$named*" >/dev/null ||
				echo "$page: names $named, which is not in benchboot's tree"
		done >>"$T/broken"
done
if [ -s "$T/broken" ]; then
	cat "$T/broken" >&2
	bad=1
fi
# docs/architecture.md's "Folders" table matches the tree: every folder of C sources (lib/,
# init/, tools/ and each room below them) has its row, and every row's folder exists
sed -n '/^## Folders/,/^## /p' docs/architecture.md | grep -oE '^\| `[a-z][a-z/_]*/`' |
	sed -E 's/^\| `//; s/`$//' | sort -u >"$T/rows"
[ "$(wc -l <"$T/rows")" -ge 10 ] || { cat "$T/rows"; fail "too few rows read from docs/architecture.md's Folders table"; }
find lib init tools -name '*.[ch]' -printf '%h/\n' | sort -u >"$T/folders"
while read -r f; do
	grep -qxF "$f" "$T/rows" || { echo "$f holds C sources; docs/architecture.md's Folders table has no row for it" >&2; bad=1; }
done <"$T/folders"
while read -r f; do
	[ -d "$f" ] || { echo "docs/architecture.md's Folders table has a row for $f, which does not exist" >&2; bad=1; }
done <"$T/rows"
# no merge left half done: conflict markers in a tracked text file
if git ls-files -z 2>/dev/null | xargs -0 grep -lE '^(<<<<<<<|>>>>>>>) ' -- 2>/dev/null | grep -v '^tests/fixtures/' >"$T/conflicts"; then
	sed 's/^/conflict markers left in /' "$T/conflicts" >&2
	bad=1
fi
[ $bad = 0 ] || fail "broken links in the docs, or a Folders table behind the tree (see above)"
echo "every link, docs page and file of the tree named in README.md and docs/ exists; the Folders table has a row for each of the $(wc -l <"$T/folders") folders of C sources"
