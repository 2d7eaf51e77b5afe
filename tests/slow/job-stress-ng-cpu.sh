# config/jobs/stress-ng-cpu.yaml run as it is (TCG): three runs (cpu fft, cpu matrixprod, vm
# 64M), 2 iterations of 5 s each; the ops_per_sec of each > 0.
. tests/lib.sh
. tests/qemu/job.inc
start=$(date +%s)
job_run stress-ng-cpu
echo "benchboot run took $(($(date +%s) - start)) s"
expect_grep "all runs done: [1-9][0-9]* ok, 0 failed" "$T/run.out"
expect_grep "boot 1/1: finished in" "$T/run.out"
