# config/jobs/hackbench.yaml run as it is (TCG, the default 2 vCPUs and LKP's default
# monitors): process and thread mode over pipes, 3 iterations and a monitored one each;
# hackbench.throughput of every iteration > 0.
. tests/lib.sh
. tests/qemu/job.inc
start=$(date +%s)
job_run hackbench
echo "benchboot run took $(($(date +%s) - start)) s"
job_check "$T/res" hackbench.throughput hackbench.throughput_worst >"$T/check" ||
	fail "$(cat "$T/check")"
cat "$T/check"
expect_grep "all runs done: 2 ok, 0 failed" "$T/run.out"
