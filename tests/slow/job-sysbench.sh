# config/jobs/sysbench-{cpu,memory,threads,mutex}.yaml run as they are (TCG, the default 2
# vCPUs and LKP's default monitors): LKP's leading stat of each in every iteration > 0.
. tests/lib.sh
. tests/qemu/job.inc
for s in cpu:throughput_events/s memory:throughput_MB/s threads:throughput_events/s \
	mutex:runtime/thread.avg; do
	start=$(date +%s)
	job_run "sysbench-${s%%:*}"
	echo "benchboot run sysbench-${s%%:*} took $(($(date +%s) - start)) s"
	job_check "$T/res" "sysbench-${s%%:*}.${s#*:}" >"$T/check" || fail "$(cat "$T/check")"
	cat "$T/check"
	rm -rf "$T/res"
done
