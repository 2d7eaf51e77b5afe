# A function a file exports is used by another file (docs/hacking.md "Names": static what only
# one file uses): every global function the objects of the host build and the init define
# (nm: T) is called from another object, or named in a unit test, a test program or a bench
# program (which link the library whole). What is not is named with its file. It can fail: a
# function exported and called by nobody else, compiled here, is named.
. tests/lib.sh
command -v nm >/dev/null || fail "nm is missing (tools/scripts/install-deps: binutils)"
[ -d "$B/host/lib" ] && [ -d "$B/musl/init" ] || skip "the build is missing (make)"

# unused OBJDIR...: "NAME SOURCE" for each global function of the objects below the OBJDIRs
# that no other object and no test or bench source names
unused() {
	local d
	for d in "$@"; do
		find "$d" -name '*.o' -print0 | xargs -0 nm -A --defined-only |
			awk -v top="$d/" '$2 == "T" { src = substr($1, length(top) + 1); sub(/\.o:.*/, ".c", src); print $3, src }'
	done | sort -u >"$T/defs"
	find "$B/host" "$B/musl" -name '*.o' -exec nm -u {} + | awk 'NF == 2 { print $2 }' | sort -u >"$T/uses"
	cat tests/unit/*.c tests/host/src/*.c bench/*.c 2>/dev/null | grep -o '[A-Za-z_][A-Za-z0-9_]*' | sort -u >"$T/named"
	awk 'FILENAME != "-" { used[$1] = 1; next } $1 != "main" && !($1 in used)' "$T/uses" "$T/named" - <"$T/defs"
}
unused "$B/host" "$B/musl" | sort -u >"$T/unused"
if [ -s "$T/unused" ]; then
	sed 's/^/  /' "$T/unused"
	fail "exported but used by no other file (make them static, without bb_: docs/hacking.md)"
fi
echo "every exported function is used by another file ($(wc -l <"$T/defs") checked)"

# it can fail: an object exporting a function nobody calls
mkdir -p "$T/probe/lib"
printf 'int bb_probe_nobody_calls(void) { return 1; }\n' >"$T/probe.c"
cc -c -o "$T/probe/lib/probe.o" "$T/probe.c" || fail "cc"
unused "$T/probe" >"$T/probe.out"
expect_grep "^bb_probe_nobody_calls lib/probe.c$" "$T/probe.out"
