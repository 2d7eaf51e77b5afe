# config/jobs/iperf.yaml end to end (TCG): the image's iperf3 (Debian testing's) as LKP runs
# it, iperf3 --server in the server role, iperf3 -t 5 -J -c 127.0.0.1 [-u] as the client;
# LKP's stats iperf.tcp.sender.bps, iperf.tcp.receiver.bps (TCP) and iperf.udp.bps (UDP) > 0,
# with iperf3's own JSON in the client's output and the server's lines in its own.
. tests/lib.sh
. tests/qemu/job.inc
# one vCPU and no monitors (job-hackbench.sh boots a suite with them): the boot leaves the
# QEMU test in the other lane its CPU
JOB_RUN_OPTS="--cpus 1 --monitors none"
job_run iperf
# job_check wants each stat in every run: the time, there; the protocols' own stats below
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
    other = [s for s in res if s.startswith("iperf.") and ".time." not in s and s not in stats]
    assert not other, (proto, other)
    assert res["iperf.time.elapsed_time"][0] >= 5, res["iperf.time.elapsed_time"]
PY
for proto in tcp udp; do
	out=$(echo "$T"/res/0*/runs/iperf.protocol-$proto/1/client.0.out)
	expect_grep '"version":[[:space:]]*"iperf 3\.' "$out"
	expect_grep '"connecting_to":' "$out"
	expect_grep '"bits_per_second":' "$out"
	srv=$(echo "$T"/res/0*/runs/iperf.protocol-$proto/1/server.0.out)
	expect_grep "^Server listening on 5201" "$srv"
	expect_grep "^Accepted connection from 127.0.0.1" "$srv"
done
expect_grep '"protocol":[[:space:]]*"UDP"' "$(echo "$T"/res/0*/runs/iperf.protocol-udp/1/client.0.out)"
expect_grep '"protocol":[[:space:]]*"TCP"' "$(echo "$T"/res/0*/runs/iperf.protocol-tcp/1/client.0.out)"
