# config/jobs/netperf-tcp-stream.yaml run as it is (TCG, 3 CPUs): TCP_STREAM for 30 s per
# measurement with netperf's confidence options (-i 50,3 -I 99,5: 3 to 30 measurements),
# netserver on cpu0, netperf on the last CPU; netperf's stats > 0.
. tests/lib.sh
[ -x "$B/netperf/netperf" ] || skip "no build/netperf (make netperf)"
. tests/qemu/job.inc
start=$(date +%s)
JOB_RUN_TIMEOUT=2400 JOB_RUN_OPTS="--cpus 3" job_run netperf-tcp-stream
echo "benchboot run took $(($(date +%s) - start)) s"
job_check "$T/res" netperf.Throughput_Mbps netperf.Throughput_total_Mbps \
	netperf.local_cpu_util_percent >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
