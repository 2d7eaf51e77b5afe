# No two files call each other, directly or round a ring (docs/hacking.md "Rooms"): over the
# objects of the host build and the init (tests/host/src/call-cycles.py, from nm), every set of
# files that depend on each other is named, and fails the test. It can fail: two objects made
# here that call each other are named.
. tests/lib.sh
command -v nm >/dev/null || fail "nm is missing (tools/scripts/install-deps: binutils)"
command -v python3 >/dev/null || skip "python3 is needed to find the cycles"
[ -d "$B/host/lib" ] && [ -d "$B/musl/init" ] || skip "the build is missing (make)"
{
	python3 tests/host/src/call-cycles.py "$B/host"
	python3 tests/host/src/call-cycles.py "$B/musl"
} >"$T/cycles" || fail "call-cycles.py"
if [ -s "$T/cycles" ]; then
	sed 's/^/  /' "$T/cycles"
	fail "files that call each other (move what both need into a file of its own)"
fi
echo "no files call each other"

# it can fail: two objects that call each other
mkdir -p "$T/probe/lib"
printf 'int probe_b(void);\nint probe_a(void) { return probe_b(); }\n' >"$T/a.c"
printf 'int probe_a(void);\nint probe_b(void) { return probe_a(); }\n' >"$T/b.c"
cc -c -o "$T/probe/lib/a.o" "$T/a.c" && cc -c -o "$T/probe/lib/b.o" "$T/b.c" || fail "cc"
python3 tests/host/src/call-cycles.py "$T/probe" >"$T/probe.out"
expect_grep "^lib/a.c lib/b.c$" "$T/probe.out"
