# config/jobs/hackbench.yaml end to end (TCG): hackbench from the image's rt-tests, in process
# and thread mode over pipes, 3 iterations each: LKP's hackbench.throughput (KB/s) and its
# best/avg/worst > 0, hackbench.time.* from the rusage; hackbench's own lines in the client's
# output, with one group per CPU as LKP's nr_threads: 100% asks.
. tests/lib.sh
. tests/qemu/job.inc
# one vCPU: one group of 40 tasks, which leaves the QEMU test in the other lane its CPU
JOB_RUN_OPTS="--cpus 1" job_run hackbench
job_check "$T/res" hackbench.throughput hackbench.throughput_best hackbench.throughput_avg \
	hackbench.throughput_worst hackbench.time.elapsed_time >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
cpus=$(sed -n 's/^boot 1\/1: kernel .*, TCG, \([0-9]*\) CPUs*,.*/\1/p' "$T/run.out" | sed -n 1p)
[ -n "$cpus" ] || fail "no CPU count in benchboot run's progress"
for mode in process threads; do
	out=$(ls "$T"/res/0*/runs/*"$mode"*/1/client.0.out | sed -n 1p)
	[ -f "$out" ] || fail "no client output of the $mode run in $T/res"
	said=$mode
	[ "$mode" = threads ] && said=threaded
	# 20 fds a group: hackbench counts both ends, 40
	expect_grep "^Running in $said mode with $cpus groups using 40 file descriptors each" "$out"
	expect_grep "^Each sender will pass 1000 messages of 100 bytes$" "$out"
	expect_grep "^Time: [0-9.]*$" "$out"
done
