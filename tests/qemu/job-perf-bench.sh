# config/jobs/perf-bench-sched-pipe.yaml, perf-bench-sched-messaging.yaml and perf-bench-futex.yaml
# end to end (TCG):
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
# perf-bench-futex: its five tests with and without --shared (LKP's `shared: [shared, ]`), one
# task per CPU; hash and lock-pi for the job's 2 s, the others to the end of their work
rm -rf "$T/res"
job_run perf-bench-futex
job_check "$T/res" "perf-bench-futex.ops/s@hash" "perf-bench-futex.ops/s@lock-pi" \
	"perf-bench-futex.requeued_time_ms@requeue" "perf-bench-futex.wokeup_time_ms@wake.shared" \
	"perf-bench-futex.avg_per_thread_latency_ms@wake-parallel" >"$T/check" ||
	fail "$(cat "$T/check")"
cat "$T/check"
out=$(ls "$T"/res/0*/runs/hash.shared-shared/1/client.0.out | sed -n 1p)
expect_grep "^Run summary .* 1 threads, each operating on 1024 \[shared\] futexes for 2 secs" "$out"
out=$(ls "$T"/res/0*/runs/hash/1/client.0.out | sed -n 1p)
expect_grep "\[private\] futexes for 2 secs" "$out"
