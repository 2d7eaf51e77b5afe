# config/jobs/iperf.yaml run as it is (TCG, the default 2 vCPUs and LKP's default monitors):
# LKP's stats of each protocol in every iteration > 0; then the same on two machines.
. tests/lib.sh
. tests/qemu/job.inc
start=$(date +%s)
job_run iperf
echo "benchboot run iperf took $(($(date +%s) - start)) s"
job_check "$T/res" iperf.tcp.sender.bps@protocol-tcp iperf.tcp.receiver.bps@protocol-tcp \
	iperf.udp.bps@protocol-udp >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
# two machines (tests/fixtures/lkp/iperf-two-host.yaml, cluster cs-qemu-pair, 10 s, one vCPU
# each): iperf3 --server on the server host, the client host's iperf3 -c 192.168.77.1 over the
# network between the two VMs
rm -rf "$T/res"
JOB_RUN_OPTS="--cpus 1" job_run tests/fixtures/lkp/iperf-two-host.yaml
job_check "$T/res" iperf.tcp.sender.bps iperf.tcp.receiver.bps >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
expect_grep '"host":[[:space:]]*"192.168.77.1"' "$(echo "$T"/res/0*/runs/iperf-two-host/1/client.0.out)"
expect_grep "^Accepted connection from 192.168.77.2" \
	"$(echo "$T"/res/server-host/0*/runs/iperf-two-host/1/server.0.out)"
