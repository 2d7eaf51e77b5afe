# config/jobs/netperf-cgroup.yaml end to end (TCG): two boots, cgroup v1 then v2, each with
# the memory controller and the clients in the job cgroup; 50% and 100% clients per boot.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
job_run netperf-cgroup
expect_grep "boot 2/2: .*boot group 1" "$T/run.out"
job_check "$T/res" netperf.Throughput_Mbps netperf.Throughput_total_Mbps \
	netperf.time.elapsed_time >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
expect_grep "cgroup v1 mounted (cgroup)" "$T/check"
expect_grep "cgroup v2 mounted (cgroup2)" "$T/check"
expect_eq "runs" "$(grep -c '/SCTP_STREAM_MANY.nr_threads-[0-9]*pct: ' "$T/check")" 4
expect_grep "cgroup v1 mounted (cgroup) at .*/sys/fs/cgroup/memory" "$T/check"
expect_grep "cgroup v2 mounted (cgroup2) at /sys/fs/cgroup, job cgroup /benchboot, controllers 'memory'" "$T/check"
# the clients ran in the job cgroup, under the memory controller
for s in "$T"/res/0*/runs/*/1/status; do
	grep -q '"in_job_cgroup": true' "$s" || fail "a client outside the job cgroup: $s"
done
