# stress-ng with LKP's command line under TCG (tests/fixtures/lkp/stress-ng-network-short.yaml):
# udp, a network stressor, runs as programs/stress-ng/run runs it (--timeout 2 --times --verify
# --metrics --no-rand-seed --udp N) with its sysctls read back (kernel.sched_autogroup_enabled=0,
# net.core.somaxconn=4096) and LKP's stat names; bitops, a stressor new in the pinned stress-ng
# 0.22.01 (Debian 12's 0.15.06 lacks it), gives its ops and ops_per_sec; ng, which LKP names and
# 0.22.01 lacks, fails alone: its status records stress-ng_version 0.22.01 and its output
# stress-ng's "unrecognized option" (benchboot run exits 1). LKP's default monitors (the job's
# category: benchmark) run in each run's monitored iteration: udp's has vmstat, proc-vmstat,
# mpstat, perf-stat and a perf profile of the stressor's system calls.
. tests/lib.sh
. tests/qemu/job.inc
# the plan the image carries: LKP's command line (and benchboot's --log-file)
"$BENCHBOOT" check -v tests/fixtures/lkp/stress-ng-network-short.yaml >"$T/plan" 2>"$T/warn"
expect_grep "stress-ng 0.22.01 (the image's) has no stressor 'ng': that run will fail" "$T/warn"
if grep -q "'bitops'" "$T/warn"; then fail "bitops warned: $(cat "$T/warn")"; fi
args() { bb_plan_args "$T/plan" "$1"; }
expect_eq "udp command line" "$(args udp)" \
	"/usr/bin/stress-ng --timeout 2 --times --verify --metrics --no-rand-seed --log-file /proc/self/fd/1 --udp 0 "
expect_eq "bitops command line" "$(args bitops)" \
	"/usr/bin/stress-ng --timeout 2 --times --verify --metrics --no-rand-seed --log-file /proc/self/fd/1 --bitops 0 "
rc=0
bb_timeout 1500 nice "$BENCHBOOT" run tests/fixtures/lkp/stress-ng-network-short.yaml --accel tcg \
	--images "$T/images" -o "$T/res" >"$T/run.out" 2>&1 || rc=$?
cat "$T/run.out"
expect_eq "benchboot run: exit code (one run failed)" "$rc" 1
python3 - "$T/res" <<'PY' || fail "results of the stress-ng job"
import json, os, sys
res = sys.argv[1]
boot = sorted(d for d in os.listdir(res) if d[:1].isdigit())[0]
runs = os.path.join(res, boot, "runs")
def ok_run(name, stats):
    st = json.load(open(os.path.join(runs, name, "1", "status")))
    if st["status"] != "ok":
        sys.exit("%s: %s %s" % (name, st["status"], st["reason"]))
    if st["params"].get("stress-ng_version") != "0.22.01":
        sys.exit("%s: stress-ng_version %s" % (name, st["params"].get("stress-ng_version")))
    r = json.load(open(os.path.join(runs, name, "results.json")))
    for s in stats:
        if not r.get(s) or not r[s][0] > 0:
            sys.exit("%s: %s = %s" % (name, s, r.get(s)))
    return st, r
udp, r = ok_run("udp", ("stress-ng.udp.pass", "stress-ng.udp.ops", "stress-ng.udp.ops_per_sec",
                        "stress-ng.time.elapsed_time", "time.elapsed_time"))
for k, v in (("net.core.somaxconn", "4096"), ("kernel.sched_autogroup_enabled", "0")):
    if udp["sysctl"][k]["actual"] != v:
        sys.exit("udp: sysctl %s: %s" % (k, udp["sysctl"][k]))
_, b = ok_run("bitops", ("stress-ng.bitops.pass", "stress-ng.bitops.ops",
                         "stress-ng.bitops.ops_per_sec", "stress-ng.time.elapsed_time"))
sd = os.path.join(runs, "ng", "1")
ng = json.load(open(os.path.join(sd, "status")))
err = "".join(open(os.path.join(sd, f), errors="replace").read() for f in os.listdir(sd) if f.startswith("client."))
if ng["status"] == "ok" or ng["params"].get("stress-ng_version") != "0.22.01" or \
        "unrecognized option '--ng'" not in err:
    sys.exit("ng: %s %s, stress-ng_version %s, output %r" % (
        ng["status"], ng["reason"], ng["params"].get("stress-ng_version"), err[:300]))
# category: benchmark: LKP's default monitors ran in udp's monitored iteration (monitored-1),
# not in its measured one
md = os.path.join(runs, "udp", "monitored-1")
m = json.load(open(os.path.join(md, "results.json")))
for s in ("vmstat.system.cs", "proc-vmstat.pgfree", "mpstat.cpu.all.sys%", "perf-stat.ps.context-switches"):
    if not m.get(s) or not m[s][0] > 0:
        sys.exit("udp monitored-1: %s = %s" % (s, m.get(s)))
# (a 2 s run leaves perf-profile a 1 s window: its stacks, not which ones, are checked)
prof = [k for k in m if k.startswith("perf-profile.children.cpu-clock.")]
if "perf-profile.children.cpu-clock.do_syscall_64" not in prof:
    sys.exit("udp monitored-1: no perf-profile stat through do_syscall_64: %s" % prof[:20])
# the profile covers its window (1 s of the 2 s run), however long perf took to start
notes = json.load(open(os.path.join(md, "status")))["monitors"]["perf-profile"]["notes"]
over = [float(n.split()[2].rstrip("s")) for n in notes if n.startswith("samples over ")]
if not over or over[0] < 0.8 or not [n for n in notes if n.startswith("perf record ready ")]:
    sys.exit("udp monitored-1: perf-profile's samples do not cover its 1 s window: %s" % notes)
if [k for k in r if k.startswith(("vmstat.", "perf-"))]:
    sys.exit("udp: monitor stats in the measured iteration's results.json")
print("udp monitored-1:", len(m), "stats,", len(prof), "perf-profile children")
print("udp ok: ops", r["stress-ng.udp.ops"], "somaxconn 4096; bitops ok: ops",
      b["stress-ng.bitops.ops"], "ops_per_sec", b["stress-ng.bitops.ops_per_sec"], "; ng:",
      ng["reason"], "(stress-ng 0.22.01:", err.strip().splitlines()[-1] + ")")
PY
