# A 0-day job.yaml attachment (tests/fixtures/lkp/zday-attachment.yaml: fully expanded, with
# monitors, queue options and the 0-day host's facts) runs under TCG: UDP_STREAM with
# nr_threads 200% of this VM's 2 CPUs (4 clients, not 200% of the attachment's nr_cpu 64),
# LKP's stat names (Throughput from the sender lines, ThroughputRecv from the receiver's,
# ThroughputBoth, the totals, workload, the time list as netperf.time.* and time.*), and the
# attachment's LKP keys recorded with the results.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
# repeat_to: 3 would be three boots; one is enough here
JOB_RUN_OPTS="--repeat 1" job_run tests/fixtures/lkp/zday-attachment.yaml
job_check "$T/res" netperf.Throughput_Mbps netperf.ThroughputRecv_Mbps netperf.ThroughputBoth_Mbps \
	netperf.Throughput_total_Mbps netperf.ThroughputRecv_total_Mbps \
	netperf.ThroughputBoth_total_Mbps netperf.workload netperf.time.elapsed_time \
	time.elapsed_time time.maximum_resident_set_size netperf.time.maximum_resident_set_size \
	time.page_size >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
python3 - "$T/res" <<'PY' || fail "results of the 0-day attachment"
import json, os, sys
res = sys.argv[1]
boot = sorted(d for d in os.listdir(res) if d[:1].isdigit())[0]
rd = os.path.join(res, boot, "runs", "UDP_STREAM")
r = json.load(open(os.path.join(rd, "results.json")))
st = json.load(open(os.path.join(rd, "1", "status")))
p = st["params"]
# the 0-day host's facts and queue options are recorded, not used
for k, v in {"lkp.nr_cpu": "64", "lkp.memory": "256G", "lkp.tbox_group": "example-box",
             "lkp.repeat_to": "3", "lkp.perf-profile": "{debug_mode: 0, lite_mode: 1}"}.items():
    if p.get(k) != v:
        sys.exit("param %s = %r, want %r" % (k, p.get(k), v))
# LKP's sums: ThroughputBoth = Throughput + ThroughputRecv, totals over the clients
for i in range(len(r["netperf.Throughput_Mbps"])):
    t, rv, b = (r["netperf.%s_Mbps" % n][i] for n in ("Throughput", "ThroughputRecv", "ThroughputBoth"))
    if abs(t + rv - b) > 1e-6 * b:
        sys.exit("ThroughputBoth %s != %s + %s" % (b, t, rv))
    tot = r["netperf.Throughput_total_Mbps"][i]
    if abs(tot - 4 * t) > 1e-6 * tot:
        sys.exit("Throughput_total %s is not 4 clients x mean %s" % (tot, t))
print("0-day keys recorded; 4 clients (200% of 2 CPUs); Throughput", r["netperf.Throughput_Mbps"],
      "ThroughputRecv", r["netperf.ThroughputRecv_Mbps"])
PY
