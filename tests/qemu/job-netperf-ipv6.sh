# netperf over IPv4 and IPv6 (netserver -6, readiness on ::1), a stream and an RR test:
# Throughput_Mbps for TCP_STREAM, Throughput_tps for UDP_RR, both > 0.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
cat >"$T/ip.yaml" <<'JOB'
suite: netperf
runtime: 3s
ip: [ipv4, ipv6]
netperf:
  test: [TCP_STREAM, UDP_RR]
JOB
job_run "$T/ip.yaml"
expect_grep "run 4/4 UDP_RR.ip-ipv6 iteration 1: ok" "$T/run.out"
for r in TCP_STREAM.ip-ipv4 TCP_STREAM.ip-ipv6; do
	grep -q '"netperf.Throughput_Mbps"' "$T"/res/0*/runs/$r/results.json || fail "$r: no Mbps"
done
for r in UDP_RR.ip-ipv4 UDP_RR.ip-ipv6; do
	grep -q '"netperf.Throughput_tps"' "$T"/res/0*/runs/$r/results.json || fail "$r: no tps"
done
job_check "$T/res" netperf.time.elapsed_time netperf.local_cpu_util_percent >"$T/check" ||
	fail "$(cat "$T/check")"
cat "$T/check"
expect_grep "AF_INET6 to ::1" "$(echo "$T"/res/0*/runs/TCP_STREAM.ip-ipv6/1/client.0.out)"
