# config/jobs/fsmark.yaml run as it is (TCG, the default 2 vCPUs and LKP's default monitors,
# whose monitored iteration makes its own filesystem): fsmark's stats in every iteration > 0.
. tests/lib.sh
. tests/qemu/job.inc
start=$(date +%s)
job_run fsmark
echo "benchboot run fsmark took $(($(date +%s) - start)) s"
job_check "$T/res" fsmark.files_per_sec fsmark.app_overhead >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
