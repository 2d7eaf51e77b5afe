# config/jobs/iperf.yaml run as it is (TCG, the default 2 vCPUs and LKP's default monitors):
# LKP's stats of each protocol in every iteration > 0.
. tests/lib.sh
. tests/qemu/job.inc
start=$(date +%s)
job_run iperf
echo "benchboot run iperf took $(($(date +%s) - start)) s"
job_check "$T/res" iperf.tcp.sender.bps@protocol-tcp iperf.tcp.receiver.bps@protocol-tcp \
	iperf.udp.bps@protocol-udp >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
