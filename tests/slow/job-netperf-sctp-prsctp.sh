# config/jobs/netperf-sctp-prsctp.yaml run as it is (TCG): 2 runs of 300 s, 4 SCTP_STREAM_MANY
# clients (200% of 2 CPUs), prsctp_enable 0 then 1, read back; netperf's stats > 0. The runs
# are far longer than the boot allowance: the silence limit holds from run-start to run-end.
. tests/lib.sh
[ -x "$B/netperf/netperf" ] || skip "no build/netperf (make netperf)"
. tests/qemu/job.inc
start=$(date +%s)
JOB_RUN_TIMEOUT=2400 job_run netperf-sctp-prsctp
echo "benchboot run took $(($(date +%s) - start)) s"
expect_grep "run 2/2 SCTP_STREAM_MANY.prsctp_enable-1 iteration 1: ok" "$T/run.out"
job_check "$T/res" netperf.Throughput_Mbps netperf.Throughput_total_Mbps \
	netperf.local_cpu_util_percent >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
expect_grep "/SCTP_STREAM_MANY.prsctp_enable-1: .*net.sctp.prsctp_enable read back 1" "$T/check"
