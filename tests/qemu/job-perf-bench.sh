# config/jobs/perf-bench-sched-pipe.yaml and perf-bench-sched-messaging.yaml end to end (TCG):
# the image's perf (Debian's linux-perf, the perf monitors' binary) as LKP's run scripts start
# it; LKP's stats: perf-bench-sched-pipe.ops_per_sec (process and thread mode) and
# perf-bench-sched-messaging.total_time_sec (pipes and sockets) > 0, with perf's own lines in
# the client's output.
. tests/lib.sh
. tests/qemu/job.inc
# one vCPU and no monitors (job-hackbench.sh boots a suite with them): the two boots leave the
# QEMU test in the other lane its CPU
JOB_RUN_OPTS="--cpus 1 --monitors none"
job_run perf-bench-sched-pipe
job_check "$T/res" perf-bench-sched-pipe.ops_per_sec perf-bench-sched-pipe.time.elapsed_time \
	>"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
out=$(ls "$T"/res/0*/runs/*threads*/1/client.0.out | sed -n 1p)
expect_grep "^# Executed 20000 pipe operations between two threads" "$out"
expect_grep "ops/sec$" "$out"
rm -rf "$T/res"
job_run perf-bench-sched-messaging
job_check "$T/res" perf-bench-sched-messaging.total_time_sec >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
out=$(ls "$T"/res/0*/runs/*pipe*/1/client.0.out | sed -n 1p)
expect_grep "^# 20 sender and receiver processes per group" "$out"
expect_grep "^# 2 groups == 80 processes run" "$out"
expect_grep "Total time: [0-9.]* \[sec\]" "$out"
