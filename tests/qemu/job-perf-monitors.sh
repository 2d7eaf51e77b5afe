# LKP's default monitors with perf in a TCG boot: an 8 s SCTP_STREAM_MANY job of `category:
# benchmark` naming perf-stat and perf-profile (its window 1 s in, 4 s long, as plan keys
# monitor.perf-profile.*) with kernel.kptr_restrict 2. check lists the default set and puts
# perf in the image; the same job without its perf monitors (`perf-stat-:`, `perf-profile-:`)
# has no perf. Among the stats: proc-vmstat.pgfree, vmstat.system.cs, mpstat.cpu.all.sys%,
# meminfo.Memused. Under TCG there is no PMU: perf-stat has its software
# events (perf-stat.i.cpu-clock, perf-stat.ps.context-switches, ...), a status note naming the
# hardware events it could not count and no hardware stat; perf-profile sampled cpu-clock, its
# stats are named after it (a calltrace through sctp_sendmsg, children and self), none says
# cycles-pp; the folded stacks say `# event: cpu-clock` and have sctp_sendmsg; the recording and
# the report are kept, and re-parsed on the host give the same stats; kptr_restrict was lowered
# while recording and put back. They run in the run's monitored iteration (monitored-1), after
# the measured one, which runs without them.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
job=tests/fixtures/monitors/netperf-sctp-perf.yaml
"$BENCHBOOT" check "$job" >"$T/check.out" 2>&1 || fail "check: $(cat "$T/check.out")"
expect_grep "^monitors (sampled in the measured window of the iterations they run in): perf-stat perf-profile uptime vmstat proc-vmstat meminfo slabinfo interrupts softirqs cpuidle sched_debug mpstat$" "$T/check.out"
expect_grep "programs: /usr/bin/netperf /usr/bin/netserver /usr/bin/perf$" "$T/check.out"
# the image's cost: the same job without its perf monitors has no perf
grep -v -e '^perf-' -e '^  delay:' -e '^  duration:' "$job" >"$T/noperf.yaml"
printf 'perf-stat-:\nperf-profile-:\n' >>"$T/noperf.yaml"
"$BENCHBOOT" check "$T/noperf.yaml" >"$T/check2.out" 2>&1 || fail "check: $(cat "$T/check2.out")"
expect_grep "programs: /usr/bin/netperf /usr/bin/netserver$" "$T/check2.out"
JOB_RUN_TIMEOUT=600 job_run "$job"
job_check "$T/res" netperf.Throughput_Mbps perf-stat.i.cpu-clock perf-stat.ps.cpu-clock \
	perf-stat.i.context-switches perf-stat.ps.task-clock proc-vmstat.pgfree vmstat.system.cs \
	mpstat.cpu.all.sys% meminfo.Memused >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
it=$(echo "$T"/res/0*/runs/SCTP_STREAM_MANY/monitored-1)
[ -d "$it" ] || fail "no monitored iteration folder runs/SCTP_STREAM_MANY/monitored-1"
if ls "$T"/res/0*/runs/SCTP_STREAM_MANY/1/monitor.* >/dev/null 2>&1; then
	fail "perf ran in the measured iteration: $(ls "$T"/res/0*/runs/SCTP_STREAM_MANY/1/)"
fi
for f in monitor.perf-stat.gz monitor.perf-profile.gz monitor.perf-profile.data.gz monitor.perf-profile.folded.gz; do
	[ -s "$it/$f" ] || fail "no $it/$f"
done
expect_eq "perf-stat status" "$(head -n1 "$it/monitor.perf-stat.status")" ok
# the monitors' own CPU time in the window: in the status and on the console (perf record's
# sampling of every CPU costs some; a clock reading of 0 would mean it was not counted)
mcpu=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["monitors_cpu_us"])' "$it/status")
[ "$mcpu" -gt 0 ] || fail "monitors_cpu_us in $it/status: $mcpu"
expect_grep "^BENCHBOOT run-end id=SCTP_STREAM_MANY iter=0 monitored=1 status=ok .* monitors_cpu_us=$mcpu reason=" "$T"/res/console/*.log
expect_grep "^BENCHBOOT run-end id=SCTP_STREAM_MANY iter=1 status=ok .* monitors_cpu_us=-1 reason=" "$T"/res/console/*.log
echo "the monitors' CPU time in the 8 s window: $mcpu us"
expect_eq "perf-profile status" "$(head -n1 "$it/monitor.perf-profile.status")" ok
expect_grep "^note: hardware events not supported here (.*): cpu-cycles instructions " "$it/monitor.perf-stat.status"
expect_grep "^note: sampled cpu-clock, a software clock, not cycles:pp" "$it/monitor.perf-profile.status"
expect_grep "^note: window: 4s from 1s into the measured window of 8s$" "$it/monitor.perf-profile.status"
expect_grep "^note: kernel.kptr_restrict 2: 0 while recording (kernel symbols), 2 after$" "$it/monitor.perf-profile.status"
python3 - "$it" <<'PY' || fail "perf monitor stats or files not as they should be"
import gzip, json, os, sys
it = sys.argv[1]
r = json.load(open(os.path.join(it, "results.json")))
st = json.load(open(os.path.join(it, "status")))
perf = sorted(k for k in r if k.startswith("perf-"))
sw = "cpu-clock task-clock page-faults context-switches cpu-migrations minor-faults major-faults".split()
for k in ("perf-stat.i.cpu-clock", "perf-stat.ps.cpu-clock", "perf-stat.i.context-switches"):
    assert r[k][0] > 0, (k, r[k])
# 2 vCPUs busy or idle: about 2000 ms of cpu-clock per second
assert 1500 < r["perf-stat.i.cpu-clock"][0] < 2500, r["perf-stat.i.cpu-clock"]
# (perf-stat.i.metric.K/sec: LKP's name for perf's metric column when its unit is K/sec)
hw = [k for k in perf if k.startswith("perf-stat.") and k.split(".", 2)[2] not in sw and not k.startswith("perf-stat.i.metric.")]
assert not hw, hw  # no hardware event, no zero in its place
assert not [k for k in perf if "cycles-pp" in k], [k for k in perf if "cycles-pp" in k]
calls = [k for k in perf if k.startswith("perf-profile.calltrace.cpu-clock.") and "sctp_sendmsg" in k.split(".")]
assert calls, [k for k in perf if "calltrace" in k][:20]
assert r["perf-profile.children.cpu-clock.sctp_sendmsg"][0] > 0
assert any(k.startswith("perf-profile.self.cpu-clock.") for k in perf)
assert all(r[k][0] >= 0.05 for k in perf if k.startswith("perf-profile."))
folded = gzip.open(os.path.join(it, "monitor.perf-profile.folded.gz"), "rt").read().splitlines()
assert folded[0] == "# event: cpu-clock", folded[0]
total = 0
for line in folded[1:]:
    stack, n = line.rsplit(" ", 1)
    total += int(n)
    assert " " not in stack and stack.split(";")[0], line
assert any("sctp_sendmsg" in l.split(" ")[0].split(";") or "sctp_sendmsg_[k]" in l.split(" ")[0].split(";") for l in folded[1:]), folded[1:5]
# the report's sample count (`# Samples: 6K of event 'cpu-clock'`) and the folded stacks' agree
rep = gzip.open(os.path.join(it, "monitor.perf-profile.gz"), "rt").read()
assert "# Samples: " in rep and "of event 'cpu-clock'" in rep
assert st["monitors"]["perf-profile"]["status"] == "ok" and r["monitor_status"]["perf-stat"] == ["ok"]
print("perf-stat.i.cpu-clock", r["perf-stat.i.cpu-clock"], "perf stats:", len(perf), "folded:", len(folded) - 1, "stacks,", total, "samples")
print("\n".join(calls[:3]))
PY
# the parsers re-run on the collected raw files (perf stat's output, perf report's text) give
# the stats the init computed
"$BENCHBOOT" collect --monitor-stats "$it" >"$T/reparse" 2>&1 || fail "collect --monitor-stats: $(cat "$T/reparse")"
python3 - "$it" "$T/reparse" <<'PY' || fail "collect --monitor-stats differs from results.json"
import json, os, sys
r = json.load(open(os.path.join(sys.argv[1], "results.json")))
again = dict(l.split() for l in open(sys.argv[2]) if not l.startswith("#"))
MONITORS = {"vmstat", "proc-vmstat", "meminfo", "interrupts", "softirqs", "uptime", "mpstat",
            "sched_debug", "cpuidle", "slabinfo", "perf-stat", "perf-profile"}
mon = {k: v[0] for k, v in r.items() if k.split(".")[0] in MONITORS}
assert set(again) == set(mon), sorted(set(again) ^ set(mon))[:10]
for k, v in mon.items():
    assert abs(float(again[k]) - v) <= 1e-9 * abs(v), (k, again[k], v)
print("collect --monitor-stats:", len(again), "stats (%d of perf), as in results.json"
      % len([k for k in mon if k.startswith("perf-")]))
PY
log=$(echo "$T"/res/console/*.log)
if grep -q "iteration 1: perf-\|monitored 1: perf-" "$log"; then fail "perf monitor stats on the console"; fi
