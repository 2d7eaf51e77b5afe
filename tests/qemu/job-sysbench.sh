# config/jobs/sysbench-{cpu,memory,threads,mutex}.yaml end to end (TCG): the image's sysbench
# (Debian testing's 1.0.20) as LKP's run scripts start it, one thread per CPU (nr_threads:
# 100%); LKP's stats > 0 in every iteration, with sysbench's own lines in the client's output.
. tests/lib.sh
. tests/qemu/job.inc
# one vCPU and no monitors: four short boots, which leave the QEMU test in the other lane its CPU
JOB_RUN_OPTS="--cpus 1 --monitors none"
for s in cpu memory threads mutex; do
	start=$(date +%s)
	job_run sysbench-$s
	echo "benchboot run sysbench-$s took $(($(date +%s) - start)) s"
	case $s in
	cpu) stats="throughput_events/s workload latency_ms.avg events/thread.avg runtime/thread.avg" ;;
	memory) stats="throughput_MB/s throughput_ops/s throughput_events/s workload latency_ms.max" ;;
	threads) stats="throughput_events/s workload latency_ms.avg latency_ms.95th" ;;
	mutex) stats="runtime/thread.avg workload latency_ms.min latency_ms.max" ;;
	esac
	# shellcheck disable=SC2086
	job_check "$T/res" $(printf "sysbench-$s.%s " $stats) sysbench-$s.time.elapsed_time \
		>"$T/check" || fail "$(cat "$T/check")"
	cat "$T/check"
	# sysbench's report of the first iteration: its version, one thread, its statistics
	out=$(ls "$T"/res/0*/runs/*/1/client.0.out | sed -n 1p)
	[ -f "$out" ] || fail "no client output of sysbench-$s in $T/res"
	expect_grep "^sysbench 1\.0\.20 " "$out"
	expect_grep "^Number of threads: 1$" "$out"
	expect_grep "^    total number of events: *[1-9][0-9]*$" "$out"
	expect_grep "^    execution time (avg/stddev): *[0-9.]*/[0-9.]*$" "$out"
	case $s in
	cpu)
		expect_grep "^Prime numbers limit: 20000$" "$out"
		expect_grep "^    events per second: *[0-9.]*$" "$out"
		;;
	memory)
		expect_grep "^  operation: write$" "$out"
		expect_grep "^[0-9.]* MiB transferred ([0-9.]* MiB/sec)$" "$out"
		;;
	threads) expect_grep "^Threads started!$" "$out" ;;
	mutex) expect_grep "^    total number of events: *1$" "$out" ;;
	esac
	rm -rf "$T/res"
done
