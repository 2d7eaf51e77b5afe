# config/jobs/netperf-sctp-cgroup.yaml run as it is (TCG): two boots (cgroup v1, v2 with the
# memory controller), each with two runs of 300 s (nr_threads 50% and 100%: 1 and 2 clients); netperf's stats > 0
# and each boot's cgroup mode as asked.
. tests/lib.sh
[ -x "$B/netperf/netperf" ] || skip "no build/netperf (make netperf)"
. tests/qemu/job.inc
start=$(date +%s)
JOB_RUN_TIMEOUT=3600 job_run netperf-sctp-cgroup
echo "benchboot run took $(($(date +%s) - start)) s"
expect_grep "boot 2/2: finished in" "$T/run.out"
job_check "$T/res" netperf.Throughput_Mbps netperf.Throughput_total_Mbps >"$T/check" ||
	fail "$(cat "$T/check")"
cat "$T/check"
expect_grep "cgroup v1 mounted" "$T/check"
expect_grep "cgroup v2 mounted" "$T/check"
