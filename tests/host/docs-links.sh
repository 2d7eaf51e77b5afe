# The docs point at what exists: every relative link of README.md, docs/*.md and docs/verbs/*.md
# ([text](target), the target relative to the page) names an existing file or folder, and so
# does every docs page named in their text (docs/NAME.md, relative to the top), and every
# file or folder of benchboot's tree they name (lib/..., init/..., tools/..., tests/...,
# config/..., bench/..., rootfs/...: what a folder move must carry along). Not checked there:
# LKP's files (lib/*.rb, as LKP's docs name them), placeholders in capitals (lib/modules/VERSION,
# config/clusters/NAME), and a name that is the start of existing ones (lib/resdisk.[ch],
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
[ $bad = 0 ] || fail "broken links in the docs (see above)"
echo "every link, docs page and file of the tree named in README.md and docs/ exists"
