# LKP's /proc and /sys monitors in a TCG boot: a 3 s TCP_STREAM job naming vmstat, proc-vmstat,
# meminfo, interrupts, softirqs, uptime, mpstat, sched_debug, cpuidle and slabinfo as top-level
# keys, and perf-stat (tests/qemu/job-perf-monitors.sh checks its stats). check lists them;
# they run in the run's monitored iteration (runs/RUNID/monitored-1, after the measured one,
# which runs without them: its folder has no monitor files, the run's results.json no monitor
# stats); that iteration's results.json has their stats
# beside netperf's, LKP's names, one value per iteration (proc-vmstat.pgfree a delta,
# vmstat.system.cs a mean, mpstat.cpu.all.sys% a per cent); every monitor has a status (ok, or
# unavailable with the reason: cpuidle under TCG) in its status file, the iteration's status and
# results.json, and an unavailable one no stats; the raw samples are in the iteration folder,
# gzip-compressed by collect; the console lists the test's stats only.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
job=tests/fixtures/monitors/netperf-monitors.yaml
"$BENCHBOOT" check "$job" >"$T/check.out" 2>&1 || fail "check: $(cat "$T/check.out")"
expect_grep "^monitors (sampled in the measured window of the iterations they run in): vmstat proc-vmstat meminfo interrupts softirqs uptime mpstat sched_debug cpuidle slabinfo perf-stat$" "$T/check.out"
JOB_RUN_TIMEOUT=600 job_run "$job"
job_check "$T/res" netperf.Throughput_Mbps proc-vmstat.pgfree vmstat.system.cs vmstat.system.in \
	meminfo.Memused meminfo.max_used_kB uptime.boot interrupts.LOC:Local_timer_interrupts \
	softirqs.TIMER mpstat.cpu.all.sys% slabinfo.kmalloc-1k.num_objs >"$T/check" ||
	fail "$(cat "$T/check")"
cat "$T/check"
expect_grep "^  monitored: 1 iteration of each run with the monitors, after the measured ones" "$T/check.out"
it=$(echo "$T"/res/0*/runs/TCP_STREAM/monitored-1)
[ -d "$it" ] || fail "no monitored iteration folder runs/TCP_STREAM/monitored-1"
python3 - "$it" <<'PY' || fail "the measured iteration is not clean of the monitors"
import json, os, sys
it = sys.argv[1]
run = os.path.dirname(it)
measured = os.path.join(run, "1")
mon = [f for f in os.listdir(measured) if f.startswith("monitor.")]
assert not mon, ("monitor files in the measured iteration", mon)
st = json.load(open(os.path.join(measured, "status")))
assert "monitors" not in st and st["monitors_cpu_us"] == -1, st.get("monitors")
r = json.load(open(os.path.join(run, "results.json")))
assert not [k for k in r if k.startswith(("vmstat.", "proc-vmstat.", "mpstat."))], sorted(r)
assert len(r["netperf.Throughput_Mbps"]) == 1, r["netperf.Throughput_Mbps"]
ms = json.load(open(os.path.join(it, "status")))
assert ms["monitored"] == 1 and ms["iteration"] == 0, ms
assert ms["monitors_cpu_us"] > 0, ms["monitors_cpu_us"]
print("measured iteration 1: no monitors; monitored-1: monitors_cpu_us", ms["monitors_cpu_us"])
PY
for m in vmstat proc-vmstat meminfo interrupts softirqs uptime mpstat sched_debug slabinfo; do
	[ -s "$it/monitor.$m.gz" ] || fail "no compressed raw samples $it/monitor.$m.gz"
	[ ! -e "$it/monitor.$m" ] || fail "$it/monitor.$m left uncompressed"
	expect_eq "monitor.$m.status" "$(head -n1 "$it/monitor.$m.status")" ok
done
python3 - "$it" <<'PY' || fail "monitor stats or statuses not as they should be"
import gzip, json, os, sys
it = sys.argv[1]
r = json.load(open(os.path.join(it, "results.json")))
st = json.load(open(os.path.join(it, "status")))
def raw(name):
    return gzip.open(os.path.join(it, "monitor." + name + ".gz"), "rt")
def samples(name, key):
    out, cur = [], None
    for line in raw(name):
        if line.startswith("time: "):
            cur = None
            continue
        w = line.split()
        if w and w[0].rstrip(":") == key:
            if cur is None:
                cur = int(w[1]); out.append(cur)
    return out
pg = samples("proc-vmstat", "pgfree")
# 3 s at 1 s: the start and one a second of the window (a loaded host stretches the window
# past netperf's 3 s), none at the end (LKP's monitors stop at post-test)
win = st["elapsed_s"]
assert 3 <= len(pg) <= int(win) + 2, (pg, win)
assert r["proc-vmstat.pgfree"][0] == pg[-1] - pg[0], (r["proc-vmstat.pgfree"], pg)
up = [l for l in raw("uptime") if l.startswith("time: ")]
assert len(up) == 1, up
irq = [l for l in raw("interrupts") if l.startswith("time: ")]
assert len(irq) == 2, irq
sys_pct = r["mpstat.cpu.all.sys%"][0]
assert 0 < sys_pct <= 100, sys_pct
# sched_debug samples every 60 s: the one at the start; a stat, or the reason it has none
sd = st["monitors"]["sched_debug"]
if sd["status"] == "ok":
    assert "sched_debug.cpu.nr_switches.avg" in r, sorted(k for k in r if k.startswith("sched"))
else:
    assert sd["status"].startswith("unavailable: "), sd
# cpuidle: under TCG the kernel has no idle states: the reason, and no zeros in its place
ci = st["monitors"]["cpuidle"]
cistats = [k for k in r if k.startswith("cpuidle.")]
if ci["status"] == "ok":
    assert r["cpuidle..time"][0] > 0, r.get("cpuidle..time")
else:
    assert ci["status"].startswith("unavailable: no idle states under /sys/devices/system/cpu/"), ci
    assert not cistats, cistats
    assert not os.path.exists(os.path.join(it, "monitor.cpuidle.gz"))
    assert open(os.path.join(it, "monitor.cpuidle.status")).readline().strip() == ci["status"]
# every monitor's status: the iteration's status and results.json (one line per iteration)
names = "vmstat proc-vmstat meminfo interrupts softirqs uptime mpstat sched_debug cpuidle slabinfo".split()
for m in names:
    assert st["monitors"][m]["status"] == "ok" or st["monitors"][m]["status"].startswith("unavailable: "), (m, st["monitors"][m])
    assert r["monitor_status"][m] == [st["monitors"][m]["status"]], (m, r["monitor_status"].get(m))
print("proc-vmstat.pgfree samples", pg, "-> delta", r["proc-vmstat.pgfree"][0])
print("mpstat.cpu.all.sys%", sys_pct, "sched_debug:", sd["status"], "cpuidle:", ci["status"])
print("vmstat.system.cs", r["vmstat.system.cs"], "stats in results.json:", len(r))
PY
# a parser re-run on the collected raw files gives the stats the init computed
"$BENCHBOOT" collect --monitor-stats "$it" >"$T/reparse" 2>&1 || fail "collect --monitor-stats: $(cat "$T/reparse")"
expect_grep "^# cpuidle: unavailable: " "$T/reparse"
python3 - "$it" "$T/reparse" <<'PY' || fail "collect --monitor-stats differs from results.json"
import json, os, sys
r = json.load(open(os.path.join(sys.argv[1], "results.json")))
again = dict(l.split() for l in open(sys.argv[2]) if not l.startswith("#"))
for k in ("mpstat.cpu.all.sys%", "proc-vmstat.pgfree", "slabinfo.kmalloc-1k.num_objs"):
    assert abs(float(again[k]) - r[k][0]) <= 1e-9 * abs(r[k][0]), (k, again[k], r[k])
assert len(again) == len([k for k in r if k.split(".")[0] in {"vmstat", "proc-vmstat", "meminfo", "interrupts", "softirqs", "uptime", "mpstat", "sched_debug", "slabinfo", "perf-stat"}]), (len(again),)
print("collect --monitor-stats:", len(again), "stats, as in results.json")
PY
log=$(echo "$T"/res/console/*.log)
expect_grep "TCP_STREAM iteration 1: netperf.Throughput_Mbps = " "$log"
expect_grep "TCP_STREAM monitored 1: netperf.Throughput_Mbps = " "$log"
expect_grep "BENCHBOOT run-start id=TCP_STREAM iter=0/1 .* monitored=1" "$log"
if grep -q "iteration 1: proc-vmstat\.\|monitored 1: proc-vmstat\." "$log"; then fail "monitor stats on the console"; fi
# compare of these results (the boot against itself, --all --more: every row): the monitors'
# rows after netperf's, by monitor; mpstat's % stats as an absolute change (points, no %);
# interrupts, softirqs and slabinfo only with --more
"$BENCHBOOT" compare "$T/res" "$T/res" --all --more >"$T/cmp-more" || fail "compare --all --more: exit $?"
"$BENCHBOOT" compare "$T/res" "$T/res" --all >"$T/cmp" || fail "compare --all: exit $?"
python3 - "$T/cmp-more" "$T/cmp" <<'PY' || fail "compare's monitor rows not as they should be"
import re, sys
def rows(p):
    return [l.split() for l in open(p) if re.search(r"\s[ I][ L]  [a-z][\w-]*\.\S+$", l)]
more, plain = rows(sys.argv[1]), rows(sys.argv[2])
names = [r[-1] for r in more]
bases = [n.split(".")[0] for n in names]
# the test's own: netperf.* and the test's time.* (its /usr/bin/time figures)
own = ("netperf", "time")
assert bases[0] == "netperf", names[:3]
first_mon = next(i for i, b in enumerate(bases) if b not in own)
assert all(b not in own for b in bases[first_mon:]), bases
# no change anywhere: every monitor ranks alike, so they come by name, each one together
mons = [b for i, b in enumerate(bases[first_mon:]) if i == 0 or b != bases[first_mon + i - 1]]
assert mons == sorted(mons) and len(mons) == len(set(mons)), mons
sys_row = next(r for r in more if r[-1] == "mpstat.cpu.all.sys%")
assert sys_row[1] == "+0.0", sys_row
hidden = [n for n in names if n.split(".")[0] in ("interrupts", "softirqs", "slabinfo")]
assert hidden, "--more shows no interrupts, softirqs or slabinfo stats"
assert not [r for r in plain if r[-1] in hidden], "hidden stats shown without --more"
print("compare:", len(names), "rows with --more,", len(plain), "without; monitors", " ".join(mons))
PY
expect_grep "stats of interrupts, slabinfo, softirqs hidden as LKP hides them" "$T/cmp"

# ---- monitor options and run --monitors (issue 27, job syntax) -------------------------------
# `vmstat: {interval: 2}` reaches the plan as monitor.vmstat.interval=2 and the sampler takes a
# sample every 2 s; `run --monitors vmstat,uptime,perf-stat` replaces the job's vmstat
# proc-vmstat meminfo on the kernel command line: only those three run, env.json says so (asked,
# from the command line, the options), results.json has their statuses and stats and no others;
# perf-stat, which the job does not name, has its stats: run put perf in the image for it.
job2=tests/fixtures/monitors/netperf-monitor-interval.yaml
"$BENCHBOOT" check -v "$job2" >"$T/check2.out" 2>&1 || fail "check: $(cat "$T/check2.out")"
expect_grep "^monitor options (plan monitor.NAME.OPTION): vmstat.interval=2$" "$T/check2.out"
expect_grep "^monitor.vmstat.interval=2$" "$T/check2.out"
rm -rf "$T/res"
JOB_RUN_TIMEOUT=600 JOB_RUN_OPTS="--monitors vmstat,uptime,perf-stat" job_run "$job2"
expect_grep "^benchboot run: --monitors: every boot runs the monitors vmstat,uptime,perf-stat instead of its plan's monitors$" "$T/run.out"
it2=$(echo "$T"/res/0*/runs/TCP_STREAM/monitored-1)
python3 - "$it2" <<'PY' || fail "--monitors vmstat,uptime,perf-stat or vmstat's interval not as asked"
import gzip, json, os, sys
it = sys.argv[1]
boot = os.path.dirname(os.path.dirname(os.path.dirname(it)))
env = json.load(open(os.path.join(boot, "env.json")))
mon = env["monitors"]
assert mon["asked"] == ["vmstat", "uptime", "perf-stat"], mon
assert mon["from"] == "cmdline", mon
assert mon["options"] == {"vmstat.interval": "2"}, mon
assert mon["monitored"] == 1 and mon["in"] == "monitored iterations", mon
assert "benchboot.monitors=vmstat,uptime,perf-stat" in env["kernel"]["cmdline"], env["kernel"]["cmdline"]
r = json.load(open(os.path.join(it, "results.json")))
assert sorted(r["monitor_status"]) == ["perf-stat", "uptime", "vmstat"], r["monitor_status"]
assert r["monitor_status"]["vmstat"] == ["ok"], r["monitor_status"]
assert r["monitor_status"]["perf-stat"] == ["ok"], r["monitor_status"]
others = [k for k in r if k.startswith(("proc-vmstat.", "meminfo."))]
assert not others, others
assert "vmstat.system.cs" in r and "uptime.boot" in r and "perf-stat.i.cpu-clock" in r, sorted(r)[:20]
for m in ("proc-vmstat", "meminfo"):
    assert not any(f.startswith("monitor." + m) for f in os.listdir(it)), os.listdir(it)
times = [float(l.split()[1]) for l in gzip.open(os.path.join(it, "monitor.vmstat.gz"), "rt") if l.startswith("time: ")]
gaps = [b - a for a, b in zip(times, times[1:])]
# 5 s at 2 s: the start and 2 more (none at the end), 2 s apart
assert 2 <= len(times) <= 4, times
assert all(1.9 <= g <= 2.6 for g in gaps), gaps
print("--monitors vmstat,uptime,perf-stat: env.json", mon, "; vmstat samples", len(times), "gaps", [round(g, 3) for g in gaps])
PY
# ---- end of monitor options and run --monitors ----------------------------------------------
