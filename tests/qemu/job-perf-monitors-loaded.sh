# The perf monitors where they used to hang the boot: the SCTP / prsctp_enable job as it ships
# (SCTP_STREAM_MANY, 200% clients: 4 on 2 vCPUs, LKP's default monitors) at a 20 s runtime
# under TCG ends with exit 0, and each run's monitored iteration has perf-profile's and
# perf-stat's stats. Then a perf-profile whose `perf report` hangs on purpose: the init prints
# heartbeat lines while it waits, stops it at its post-processing budget (35 s), records
# perf-profile as unavailable with that reason, keeps the iteration's other monitors and the
# measured results, and the boot goes on to the next run's monitored iteration.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc

JOB_RUN_TIMEOUT=900 job_run tests/fixtures/monitors/netperf-sctp-many-200.yaml
job_check "$T/res" netperf.Throughput_Mbps perf-stat.i.cpu-clock perf-stat.i.context-switches \
	vmstat.system.cs >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
log=$(echo "$T"/res/console/*.log)
expect_grep "^BENCHBOOT run-start id=SCTP_STREAM_MANY iter=1/1 runtime=20 clients=4 " "$log"
python3 - "$T/res" <<'PY' || fail "a monitored iteration without perf-profile's stats"
import glob, json, os, sys
its = sorted(glob.glob(os.path.join(sys.argv[1], "0*", "runs", "*", "monitored-1")))
assert len(its) == 1, its
for it in its:
    r = json.load(open(os.path.join(it, "results.json")))
    st = json.load(open(os.path.join(it, "status")))
    assert st["monitors"]["perf-profile"]["status"] == "ok", st["monitors"]["perf-profile"]
    prof = [k for k in r if k.startswith("perf-profile.")]
    assert any(k.startswith("perf-profile.children.cpu-clock.") for k in prof), prof[:10]
    print(os.path.basename(os.path.dirname(it)), "perf-profile:", len(prof), "stats")
PY
rm -rf "$T/res" "$T/images"

# perf report hung on purpose
JOB_RUN_TIMEOUT=600 job_run tests/fixtures/monitors/netperf-sctp-perf-hang.yaml
log=$(echo "$T"/res/console/*.log)
expect_grep "benchboot.debug.crash=perf-report-hang: not answering, on purpose" "$log"
expect_grep "^BENCHBOOT heartbeat what=perf-report run=SCTP_STREAM_MANY.prsctp_enable-0 uptime=" "$log"
job_check "$T/res" netperf.Throughput_Mbps perf-stat.i.cpu-clock vmstat.system.cs >"$T/check" ||
	fail "$(cat "$T/check")"
python3 - "$T/res" <<'PY' || fail "the hung perf report was not stopped and recorded as it should be"
import glob, json, os, sys
runs = sorted(glob.glob(os.path.join(sys.argv[1], "0*", "runs", "*")))
assert len(runs) == 2, runs
for run in runs:
    it = os.path.join(run, "monitored-1")
    st = json.load(open(os.path.join(it, "status")))
    r = json.load(open(os.path.join(it, "results.json")))
    why = st["monitors"]["perf-profile"]["status"]
    assert why.startswith("unavailable: perf report overran the post-processing budget of 35s: stopped"), why
    assert st["status"] == "ok", st["status"]
    assert not [k for k in r if k.startswith("perf-profile.")]
    assert r["perf-stat.i.cpu-clock"][0] > 0 and r["vmstat.system.cs"][0] > 0
    m = json.load(open(os.path.join(run, "results.json")))
    assert m["netperf.Throughput_Mbps"][0] > 0
    print(os.path.basename(run), "perf-profile:", why)
PY
