# config/jobs/perf-bench-sched-pipe.yaml and perf-bench-sched-messaging.yaml run as they are
# (TCG, the default 2 vCPUs and LKP's default monitors): their stats in every iteration > 0.
. tests/lib.sh
. tests/qemu/job.inc
start=$(date +%s)
job_run perf-bench-sched-pipe
echo "benchboot run perf-bench-sched-pipe took $(($(date +%s) - start)) s"
job_check "$T/res" perf-bench-sched-pipe.ops_per_sec >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
rm -rf "$T/res"
start=$(date +%s)
job_run perf-bench-sched-messaging
echo "benchboot run perf-bench-sched-messaging took $(($(date +%s) - start)) s"
job_check "$T/res" perf-bench-sched-messaging.total_time_sec >"$T/check" ||
	fail "$(cat "$T/check")"
cat "$T/check"
