# config/jobs/netperf-tcp-stream-short.yaml end to end (TCG): TCP_STREAM with netserver on
# cpu0, netperf on the last CPU (cpu2 on this 3-CPU VM), -s/-S 57344, -m 4096 and netperf's
# confidence options.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
JOB_RUN_OPTS="--cpus 3" job_run netperf-tcp-stream-short
job_check "$T/res" netperf.Throughput_Mbps netperf.Throughput_total_Mbps \
	netperf.local_cpu_util_percent netperf.time.user_time >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
st=$(echo "$T"/res/0*/runs/TCP_STREAM/1/status)
python3 - "$st" <<'PY' || fail "netserver and netperf not on cpu0 and the last CPU (2)"
import json, sys
st = json.load(open(sys.argv[1]))
print(json.dumps(st.get("servers"), indent=1), json.dumps(st.get("clients"), indent=1))
assert [s["cpus"] for s in st["servers"]] == ["0"], st["servers"]
assert [c["cpus"] for c in st["clients"]] == ["2"], st["clients"]
PY
out=$(echo "$T"/res/0*/runs/TCP_STREAM/1/client.0.out)
expect_grep "^ *114688 *114688 *4096 " "$out"   # Linux doubles SO_SNDBUF/SO_RCVBUF
