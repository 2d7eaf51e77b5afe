# LKP's /proc monitors in a TCG boot: a 3 s TCP_STREAM job naming vmstat, proc-vmstat, meminfo,
# interrupts, softirqs and uptime as top-level keys. check lists them (and perf-stat as not
# implemented yet); results.json has their stats beside netperf's, LKP's names, one value per
# iteration (proc-vmstat.pgfree a delta, vmstat.system.cs a mean); the raw samples are in the
# iteration folder; the console lists the test's stats only.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
job=tests/fixtures/monitors/netperf-monitors.yaml
"$BENCHBOOT" check "$job" >"$T/check.out" 2>&1 || fail "check: $(cat "$T/check.out")"
expect_grep "^monitors (sampled in every iteration's measured window): vmstat proc-vmstat meminfo interrupts softirqs uptime$" "$T/check.out"
expect_grep "^monitors not implemented yet (recorded only): perf-stat$" "$T/check.out"
JOB_RUN_TIMEOUT=600 job_run "$job"
job_check "$T/res" netperf.Throughput_Mbps proc-vmstat.pgfree vmstat.system.cs vmstat.system.in \
	meminfo.Memused meminfo.max_used_kB uptime.boot interrupts.LOC:Local_timer_interrupts \
	softirqs.TIMER >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
it=$(echo "$T"/res/0*/runs/TCP_STREAM/1)
for m in vmstat proc-vmstat meminfo interrupts softirqs uptime; do
	[ -s "$it/monitor.$m" ] || fail "no raw samples $it/monitor.$m"
done
python3 - "$it" <<'PY' || fail "monitor stats not as LKP reduces them"
import json, os, sys
it = sys.argv[1]
r = json.load(open(os.path.join(os.path.dirname(it), "results.json")))
def samples(name, key):
    out, cur = [], None
    for line in open(os.path.join(it, "monitor." + name)):
        if line.startswith("time: "):
            cur = None
            continue
        w = line.split()
        if w and w[0].rstrip(":") == key:
            if cur is None:
                cur = int(w[1]); out.append(cur)
    return out
pg = samples("proc-vmstat", "pgfree")
# 3 s at 1 s: the start and 2 or 3 more, none at the end (LKP's monitors stop at post-test)
assert 3 <= len(pg) <= 5, pg
assert r["proc-vmstat.pgfree"][0] == pg[-1] - pg[0], (r["proc-vmstat.pgfree"], pg)
up = [l for l in open(os.path.join(it, "monitor.uptime")) if l.startswith("time: ")]
assert len(up) == 1, up
irq = [l for l in open(os.path.join(it, "monitor.interrupts")) if l.startswith("time: ")]
assert len(irq) == 2, irq
print("proc-vmstat.pgfree samples", pg, "-> delta", r["proc-vmstat.pgfree"][0])
print("vmstat.system.cs", r["vmstat.system.cs"], "stats in results.json:", len(r))
PY
log=$(echo "$T"/res/console/*.log)
expect_grep "TCP_STREAM iteration 1: netperf.Throughput_Mbps = " "$log"
if grep -q "iteration 1: proc-vmstat\." "$log"; then fail "monitor stats on the console"; fi
