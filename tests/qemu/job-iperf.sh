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
# LKP's sessions: 2 servers and 2 clients at once; the client's output is the 2 sessions'
# JSON documents one after the other (ports 5001 and 5002), the stats their means. Its image
# has no perf (no monitors): iperf3 cancels its threads, which needs libgcc_s.so.1 there too.
rm -rf "$T/res"
job_run tests/fixtures/lkp/iperf-sessions.yaml
job_check "$T/res" iperf.tcp.sender.bps iperf.tcp.receiver.bps >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
out=$(echo "$T"/res/0*/runs/iperf-sessions/1/client.0.out)
expect_eq "iperf3 documents in the sessions' output" "$(grep -c '^{' "$out")" 2
expect_grep '"port":[[:space:]]*5001$' "$out"
expect_grep '"port":[[:space:]]*5002$' "$out"
if grep -q "pthread_cancel" "$T"/res/0*/runs/iperf-sessions/1/*.err; then
	fail "iperf3 without libgcc_s.so.1: $(cat "$T"/res/0*/runs/iperf-sessions/1/*.err)"
fi
