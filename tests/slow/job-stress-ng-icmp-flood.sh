# config/jobs/stress-ng-icmp-flood.yaml run as it is (TCG): stress-ng icmp-flood on every CPU
# for 60 s; its ops and ops_per_sec > 0.
. tests/lib.sh
. tests/qemu/job.inc
start=$(date +%s)
job_run stress-ng-icmp-flood
echo "benchboot run took $(($(date +%s) - start)) s"
job_check "$T/res" stress-ng.icmp-flood.ops stress-ng.icmp-flood.ops_per_sec \
	stress-ng.time.elapsed_time >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
