# config/jobs/iperf.yaml run as it is (TCG, the default 2 vCPUs and LKP's default monitors):
# LKP's stats of each protocol in every iteration > 0.
. tests/lib.sh
. tests/qemu/job.inc
start=$(date +%s)
job_run iperf
echo "benchboot run iperf took $(($(date +%s) - start)) s"
job_check "$T/res" iperf.time.elapsed_time >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
python3 - "$T/res" <<'PY' || fail "iperf's stats"
import glob, json, sys
want = {"tcp": ["iperf.tcp.sender.bps", "iperf.tcp.receiver.bps"], "udp": ["iperf.udp.bps"]}
for proto, stats in want.items():
    runs = glob.glob(sys.argv[1] + "/0*/runs/iperf.protocol-%s/results.json" % proto)
    assert len(runs) == 1, (proto, runs)
    res = json.load(open(runs[0]))
    for s in stats:
        assert res.get(s) and all(v > 0 for v in res[s]), (proto, s, res.get(s))
        print("%s: %s = %s" % (proto, s, res[s]))
PY
