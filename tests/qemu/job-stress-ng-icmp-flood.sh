# config/jobs/stress-ng-icmp-flood-short.yaml end to end (TCG): stress-ng icmp-flood on every
# CPU, stress-ng.icmp-flood.ops and ops_per_sec and stress-ng.time.* > 0.
. tests/lib.sh
. tests/qemu/job.inc
job_run stress-ng-icmp-flood-short
job_check "$T/res" stress-ng.icmp-flood.ops stress-ng.icmp-flood.ops_per_sec \
	stress-ng.time.elapsed_time stress-ng.time.system_time \
	stress-ng.time.maximum_resident_set_size >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
out=$(echo "$T"/res/0*/runs/icmp-flood/1/client.0.out)
expect_grep "dispatching hogs: 2 icmp-flood" "$out"
