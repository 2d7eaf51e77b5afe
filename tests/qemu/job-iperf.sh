# config/jobs/iperf.yaml end to end (TCG): the image's iperf3 (Debian testing's) as LKP runs
# it, iperf3 --server in the server role, iperf3 -t 5 -J -c 127.0.0.1 [-u] as the client;
# LKP's stats iperf.tcp.sender.bps, iperf.tcp.receiver.bps (TCP) and iperf.udp.bps (UDP) > 0,
# with iperf3's own JSON in the client's output and the server's lines in its own.
. tests/lib.sh
. tests/qemu/job.inc
# one vCPU and no monitors (job-hackbench.sh boots a suite with them): the boot leaves the
# QEMU test in the other lane its CPU
JOB_RUN_OPTS="--cpus 1 --monitors none"
job_run iperf
job_check "$T/res" iperf.time.elapsed_time iperf.tcp.sender.bps@protocol-tcp \
	iperf.tcp.receiver.bps@protocol-tcp iperf.udp.bps@protocol-udp >"$T/check" ||
	fail "$(cat "$T/check")"
cat "$T/check"
# a UDP session gives no TCP stats (iperf3 writes sum_sent and sum_received for UDP too)
if grep -q '"iperf\.tcp\.' "$T"/res/0*/runs/iperf.protocol-udp/results.json; then
	fail "TCP stats in the UDP run: $(cat "$T"/res/0*/runs/iperf.protocol-udp/results.json)"
fi
for proto in tcp udp; do
	out=$(echo "$T"/res/0*/runs/iperf.protocol-$proto/1/client.0.out)
	expect_grep '"version":[[:space:]]*"iperf 3\.' "$out"
	expect_grep '"protocol":[[:space:]]*"'"$(echo $proto | tr a-z A-Z)"'"' "$out"
	expect_grep '"duration":[[:space:]]*5,' "$out"
	expect_grep '"bits_per_second":' "$out"
	srv=$(echo "$T"/res/0*/runs/iperf.protocol-$proto/1/server.0.out)
	expect_grep "^Server listening on 5201" "$srv"
	expect_grep "^Accepted connection from 127.0.0.1" "$srv"
done
