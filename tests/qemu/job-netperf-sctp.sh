# config/jobs/netperf-sctp.yaml end to end (TCG): two SCTP_STREAM_MANY runs in one cgroup v2
# boot, prsctp_enable 0 then 1, read back; LKP's netperf stats > 0.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
job_run netperf-sctp
expect_grep "run 2/2 SCTP_STREAM_MANY.prsctp_enable-1 iteration 1: ok" "$T/run.out"
job_check "$T/res" netperf.Throughput_Mbps netperf.Throughput_total_Mbps \
	netperf.local_cpu_util_percent netperf.remote_cpu_util_percent \
	netperf.local_service_demand_us_per_KB netperf.time.elapsed_time \
	netperf.time.system_time netperf.time.maximum_resident_set_size >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
expect_grep "/SCTP_STREAM_MANY.prsctp_enable-0: .*net.sctp.prsctp_enable read back 0" "$T/check"
expect_grep "/SCTP_STREAM_MANY.prsctp_enable-1: .*net.sctp.prsctp_enable read back 1" "$T/check"
expect_grep "cgroup v2 mounted" "$T/check"
