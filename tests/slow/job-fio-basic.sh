# config/jobs/fio-basic.yaml run as it is (TCG, the default 2 vCPUs and LKP's default monitors,
# whose monitored iteration makes its own filesystem): fio's stats in every iteration > 0.
. tests/lib.sh
. tests/qemu/job.inc
start=$(date +%s)
job_run fio-basic
echo "benchboot run fio-basic took $(($(date +%s) - start)) s"
job_check "$T/res" fio.workload fio-basic.time.elapsed_time >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
