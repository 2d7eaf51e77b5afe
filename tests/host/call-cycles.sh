# No two files call each other, directly or round a ring (docs/hacking.md "Rooms"): over the
# objects of the host build and the init (tests/host/src/call-cycles.py, from nm), every set of
# files that depend on each other is named, and fails the test unless it is the one known
# below. It can fail: two objects made here that call each other are named.
. tests/lib.sh
command -v nm >/dev/null || fail "nm is missing (tools/scripts/install-deps: binutils)"
command -v python3 >/dev/null || skip "python3 is needed to find the cycles"
[ -d "$B/host/lib" ] && [ -d "$B/musl/init" ] || skip "the build is missing (make)"
# A suite is one file (lib/host/job/suites/) that reads its own keys through the job walker's
# checks, and the walker finds the suites through their table: stress-ng's options make the
# ring. Breaking it means handing the walker's checks to the suites as callbacks.
known='lib/host/job/keys.c lib/host/job/suites.c lib/host/job/suites/stress_ng.c lib/host/job/suites/table.c lib/host/job/yamlwalk.c'
{
	python3 tests/host/src/call-cycles.py "$B/host"
	python3 tests/host/src/call-cycles.py "$B/musl"
} >"$T/cycles" || fail "call-cycles.py"
grep -vxF "$known" "$T/cycles" >"$T/new" || true
if [ -s "$T/new" ]; then
	sed 's/^/  /' "$T/new"
	fail "files that call each other (move what both need into a file of its own)"
fi
echo "no files call each other but the one known ring ($(wc -l <"$T/cycles") found)"

# it can fail: two objects that call each other
mkdir -p "$T/probe/lib"
printf 'int probe_b(void);\nint probe_a(void) { return probe_b(); }\n' >"$T/a.c"
printf 'int probe_a(void);\nint probe_b(void) { return probe_a(); }\n' >"$T/b.c"
cc -c -o "$T/probe/lib/a.o" "$T/a.c" && cc -c -o "$T/probe/lib/b.o" "$T/b.c" || fail "cc"
python3 tests/host/src/call-cycles.py "$T/probe" >"$T/probe.out"
expect_grep "^lib/a.c lib/b.c$" "$T/probe.out"
