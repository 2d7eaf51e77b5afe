# compare: monitor stats in the table after the test's own, as LKP's compare shows them
# (tests/fixtures/results/monitors: 3 boots a side, a netperf run with /proc, perf-stat and
# perf-profile monitor stats). Byte for byte against tests/fixtures/compare/monitors*.out, and
# what a user checks, worked out here from the results.json files: LKP's order, absolute
# changes in points, the stats hidden unless --more, LKP's minimum sizes, --json.
. tests/lib.sh
F=tests/fixtures/results/monitors
G=tests/fixtures/compare
check() { # NAME EXPECTED_EXIT ARGS...
	local name=$1 want=$2 rc
	shift 2
	set +e
	"$BENCHBOOT" compare "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	set -e
	expect_eq "$name: exit code" "$rc" "$want"
	diff -u "$G/$name.out" "$T/$name.out" || fail "$name: output differs from $G/$name.out"
}
check monitors 1 $F/A $F/B
check monitors-all-more 1 $F/A $F/B --all --more
set +e
"$BENCHBOOT" compare $F/A $F/B --json >"$T/c.json"
rc=$?
"$BENCHBOOT" compare $F/A $F/B --json --all --more >"$T/all.json"
set -e
expect_eq "--json exit code" "$rc" 1
python3 - "$F" "$T/monitors.out" "$T/c.json" "$T/all.json" <<'PY'
import glob, json, re, sys
fix, table, cj, aj = sys.argv[1:]
def fail(m):
    sys.exit("FAIL: " + m)
vals = {"A": {}, "B": {}}
for side in "AB":
    for p in sorted(glob.glob(f"{fix}/{side}/*/runs/*/results.json")):
        for k, v in json.load(open(p)).items():
            vals[side].setdefault(k, []).extend(v)
mean = lambda v: sum(v) / len(v)
rows = [l.split()[-1] for l in open(table) if re.search(r"\s[ I][ L]  [a-z][\w-]*\.\S+$", l)]
base = lambda n: n.split(".")[0]
# the table: the test's stats first, then the monitors, fewer changed stats first, perf-stat and
# perf-profile (calltrace, children, self) last; interrupts, softirqs, slabinfo hidden
order = []
for r in rows:
    if not order or order[-1] != base(r):
        order.append(base(r))
want = ["netperf", "mpstat", "sched_debug", "vmstat", "proc-vmstat", "perf-stat", "perf-profile"]
if order != want:
    fail(f"monitor order {order}, want {want}")
pp = [r.split(".")[1] for r in rows if r.startswith("perf-profile.")]
if pp != sorted(pp, key=["calltrace", "children", "self"].index):
    fail(f"perf-profile rows not calltrace, children, self: {pp}")
for hidden in ("interrupts.", "softirqs.", "slabinfo."):
    if any(r.startswith(hidden) for r in rows):
        fail(f"{hidden}* shown without --more")
# absolute changes: B's mean minus A's, in points, for perf-profile.* and NAME%
for line in open(table):
    f = line.split()
    if not f or not (f[-1].startswith("perf-profile.") or f[-1].endswith("%")):
        continue
    name = f[-1]
    want_ch = "%+.1f" % (mean(vals["B"][name]) - mean(vals["A"][name]))
    if f[1] != want_ch:
        fail(f"{name}: change {f[1]}, want {want_ch} (points)")
# LKP's minimum sizes: vmstat.system.in moved 15% (benchboot's I) but its max is under 100;
# perf-profile.self...memcpy +0.3 points (under 1); proc-vmstat.nr_dirtied under 100
c = json.load(open(cj))
stats = {s["name"]: s for r in c["runs"] for s in r["stats"]}
if stats["vmstat.system.in"]["lkp_changed"] or not stats["vmstat.system.in"]["interval_changed"]:
    fail("vmstat.system.in: want I without L (LKP's minimum size: max 100)")
for n in ("perf-profile.self.cpu-clock.memcpy", "proc-vmstat.nr_dirtied", "meminfo.Memused"):
    if n in stats:
        fail(f"{n} shown as changed")
# --json carries the monitor rows in the table's order, their monitor and absolute changes
if [s["name"] for r in c["runs"] for s in r["stats"]] != rows:
    fail("--json stats differ from the table's rows or order")
s = stats["mpstat.cpu.all.sys%"]
if s["monitor"] != "mpstat" or s["change_shown"] != "points" or s["interval"]["unit"] != "points":
    fail(f"mpstat.cpu.all.sys%: {s}")
d = mean(vals["B"]["mpstat.cpu.all.sys%"]) - mean(vals["A"]["mpstat.cpu.all.sys%"])
if abs(s["change_points"] - d) > 1e-9 or not (s["interval"]["low_points"] < d < s["interval"]["high_points"]):
    fail(f"mpstat.cpu.all.sys%: change_points {s['change_points']}, want {d}")
if stats["netperf.Throughput_Mbps"]["monitor"] is not None:
    fail("a test's stat has a monitor")
a = json.load(open(aj))
names = {s["name"] for r in a["runs"] for s in r["stats"]}
for n in ("interrupts.CAL:Function_call_interrupts", "softirqs.NET_RX", "slabinfo.kmalloc-64.active_objs", "perf-profile.self.cpu-clock.memcpy"):
    if n not in names:
        fail(f"--all --more lacks {n}")
if not a["more"] or c["more"]:
    fail("'more' not as asked")
PY
expect_grep "^  3 stats of interrupts, slabinfo, softirqs hidden as LKP hides them (--more shows them)$" "$T/monitors.out"
expect_grep "^   a change without % is absolute, B - A in points" "$T/monitors.out"
