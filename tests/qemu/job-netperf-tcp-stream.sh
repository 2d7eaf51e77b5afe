# config/jobs/netperf-tcp-stream-short.yaml end to end (TCG): TCP_STREAM with netserver on
# cpu0, netperf on cpu1, -s/-S 57344, -m 4096 and netperf's confidence options.
. tests/lib.sh
[ -x "$B/netperf/netperf" ] || skip "no build/netperf (make netperf)"
. tests/qemu/job.inc
job_run netperf-tcp-stream-short
job_check "$T/res" netperf.Throughput_Mbps netperf.Throughput_total_Mbps \
	netperf.local_cpu_util_percent netperf.time.user_time >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
st=$(echo "$T"/res/0*/runs/TCP_STREAM/1/status)
expect_grep '"cpus": "1"' "$st"
out=$(echo "$T"/res/0*/runs/TCP_STREAM/1/client.0.out)
expect_grep "^ *114688 *114688 *4096 " "$out"   # Linux doubles SO_SNDBUF/SO_RCVBUF
