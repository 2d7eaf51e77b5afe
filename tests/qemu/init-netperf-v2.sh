# The init under TCG with cgroup v2 and a results disk: modules, dummy interface, the memory
# controller and the job cgroup with every benchmark process inside it, net.sctp.prsctp_enable
# 0 then 1 in two runs (read back), cpufreq recorded as absent, SCTP_STREAM_MANY with 2
# clients and TCP_STREAM throughputs; a run with an unknown sysctl, a hanging client (watchdog)
# and a module the image lacks each fail with their reason while the next runs complete; the
# machine powers off by itself and every run is on the disk.
. tests/lib.sh
. tests/qemu/init-image.inc

netperf_run() { # ID TEST SECONDS CLIENTS PRSCTP [DAEMON: netserver without -D]
	cat <<RUN

[run $1]
suite=netperf
param.test=$2
param.nr_threads=$4
iterations=1
runtime=$3
grace=30
${5:+needs.module=sctp
sysctl.net.sctp.prsctp_enable=$5}
$(netserver_stanza ${6:+daemon})
server.0.cpus=0
$(netperf_client_stanza 127.0.0.1 "$2" "$3" -c -C -- -m 10K)
client.count=$4
client.cpus=1
RUN
}

{
	cat <<'PLAN'
benchboot-plan 1
job=init-netperf-v2
plan.digest=0123abcd
cgroup.mode=v2
cgroup.controllers=memory
cgroup.limit.memory.high=768M
cpufreq.governor=performance
modules.boot=sctp dummy
PLAN
	netperf_run SCTP_STREAM_MANY.prsctp_enable=0 SCTP_STREAM_MANY 5 2 0
	cat <<'PLAN'

[run badsysctl]
suite=netperf
runtime=2
sysctl.net.sctp.no_such_knob=1
client.arg=/usr/bin/netperf

[run hang]
suite=netperf
runtime=2
grace=3
client.arg=/bin/busybox
client.arg=sleep
client.arg=1000

[run needs-missing-module]
suite=netperf
runtime=2
needs.module=no_such_module
client.arg=/usr/bin/netperf
PLAN
	# this netserver daemonizes (no -D): the daemon is killed with the job cgroup at the end
	# of the run, so the next run's netserver gets port 12865
	netperf_run SCTP_STREAM_MANY.prsctp_enable=1 SCTP_STREAM_MANY 3 2 1 daemon
	netperf_run TCP_STREAM TCP_STREAM 3 1
} >"$T/plan"

"$BENCHBOOT" mkdisk "$T/disk.img" --size 64M >/dev/null
init_image "$T/plan" "$T/img" --module virtio_blk --module virtio_pci
init_boot "$T/console" -drive "file=$T/disk.img,format=raw,if=virtio" -- benchboot.bogus=1
c="$T/console"

# setup
expect_grep "^BENCHBOOT boot-start id=.* runs=6 iterations=6 job=init-netperf-v2 cpus=2" "$c"
for m in sctp dummy libcrc32c udp_tunnel; do expect_grep "^BENCHBOOT module name=$m status=ok" "$c"; done
expect_grep "^BENCHBOOT net lo=up dummy0=192.0.2.1/24" "$c"
expect_grep "^BENCHBOOT cgroup mode=v2 controllers=memory job=/benchboot" "$c"
expect_grep "^BENCHBOOT cgroup-limit file=memory.high requested=768M actual=805306368" "$c"
expect_grep "^BENCHBOOT cpufreq status=absent requested=performance" "$c"
expect_grep "cmdline: benchboot.bogus: unknown key" "$c"
# every benchmark process is in the job cgroup: 2+1+2+1 clients, 3 servers (the failed
# runs start nothing)
expect_count "clients in the job cgroup" "^BENCHBOOT proc .*role=client.* cgroup=0::/benchboot$" "$c" 6
expect_count "servers in the job cgroup" "^BENCHBOOT proc .*role=server.* cgroup=0::/benchboot$" "$c" 3
expect_count "processes" "^BENCHBOOT proc " "$c" 9
expect_grep "role=server index=0 pid=[0-9]* cpus=0 " "$c"
expect_grep "role=client index=1 pid=[0-9]* cpus=1 " "$c"
# sysctls, read back, per run
expect_grep "^BENCHBOOT sysctl run=SCTP_STREAM_MANY.prsctp_enable=0 key=net.sctp.prsctp_enable requested=0 actual=0$" "$c"
expect_grep "^BENCHBOOT sysctl run=SCTP_STREAM_MANY.prsctp_enable=1 key=net.sctp.prsctp_enable requested=1 actual=1$" "$c"
# results and failures, in order, the matrix going on after each failure
expect_grep "^BENCHBOOT run-end id=SCTP_STREAM_MANY.prsctp_enable=0 iter=1 status=ok " "$c"
expect_grep "^BENCHBOOT run-end id=badsysctl iter=1 status=failed .*reason=sysctl net.sctp.no_such_knob: unknown key (no /proc/sys/net/sctp/no_such_knob)$" "$c"
expect_grep "^BENCHBOOT run-end id=hang iter=1 status=timeout .*reason=clients still running after runtime 2s + grace 3s: SIGTERM$" "$c"
expect_grep "^BENCHBOOT run-end id=needs-missing-module iter=1 status=failed .*reason=needs module no_such_module: not in the image" "$c"
expect_grep "^BENCHBOOT run-end id=SCTP_STREAM_MANY.prsctp_enable=1 iter=1 status=ok " "$c"
expect_grep "^BENCHBOOT run-end id=TCP_STREAM iter=1 status=ok " "$c"
# the daemon (setsid: out of its process group) is always left; the child it forks for each
# control connection may still be closing when the clients end (netserver.c spawn_child): one
# to three netservers, never anything else
expect_grep "^benchboot: SCTP_STREAM_MANY.prsctp_enable=1 iteration 1: [1-3] process(es) left in the job cgroup: killed: netserver\[[0-9]*\]\( netserver\[[0-9]*\]\)*$" "$c"
grep "^BENCHBOOT run-end" "$c" | sed 's/ .*id=/ /; s/ elapsed=.*reason=/ /' >"$T/order"
printf '%s\n' "SCTP_STREAM_MANY.prsctp_enable=0 iter=1 status=ok -" "badsysctl iter=1 status=failed" \
	"hang iter=1 status=timeout" "needs-missing-module iter=1 status=failed" \
	"SCTP_STREAM_MANY.prsctp_enable=1 iter=1 status=ok -" "TCP_STREAM iter=1 status=ok -" >"$T/want"
diff <(cut -d' ' -f2-4 "$T/order") <(cut -d' ' -f1-3 "$T/want") || fail "run order/status"
# throughputs: LAVA lines between the markers, positive
for id in SCTP_STREAM_MANY.prsctp_enable_0 SCTP_STREAM_MANY.prsctp_enable_1 TCP_STREAM; do
	v=$(sed -n "s/^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$id.netperf.Throughput_Mbps RESULT=pass UNITS=Mbps MEASUREMENT=\([0-9.e+]*\)>$/\1/p" "$c")
	[ -n "$v" ] || fail "no throughput for $id"
	awk -v t="$v" 'BEGIN { exit !(t > 0) }' || fail "$id: throughput $v"
	echo "$id: netperf.Throughput_Mbps $v"
done
expect_grep "^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=hang RESULT=fail>$" "$c"
sed -n '/^BENCHBOOT results-start$/,/^BENCHBOOT results-end$/p' "$c" | grep -c LAVA_SIGNAL_TESTCASE >"$T/nlava"
[ "$(cat "$T/nlava")" = "$(grep -c LAVA_SIGNAL_TESTCASE "$c")" ] || fail "LAVA lines outside the markers"
expect_grep "^BENCHBOOT boot-end id=.* ok=3 failed=3$" "$c"
expect_grep "reboot: Power down" "$c"
grep "^BENCHBOOT setup-time" "$c"
grep "^BENCHBOOT run-end" "$c" | sed 's/reason=.*//'

# the disk: every run's files, env.json read back from the system
"$BENCHBOOT" collect "$T/disk.img" -o "$T/res" >"$T/collect.log" 2>&1 || { cat "$T/collect.log"; fail "collect"; }
boot=$(ls -d "$T"/res/0*)
e="$boot/env.json"
expect_grep '"release": "6.1.0-' "$e"
expect_grep '"plan_digest": "0123abcd"' "$e"
expect_grep '"image_id": "[0-9a-f]\{64\}"' "$e"
expect_grep '"type": "cgroup2"' "$e"
expect_grep '"job_controllers": "memory"' "$e"
expect_grep '"present": false' "$e"
expect_grep '"net.sctp.prsctp_enable": "1"' "$e"
expect_grep '"online": "0-1"' "$e"
for r in SCTP_STREAM_MANY.prsctp_enable=0 SCTP_STREAM_MANY.prsctp_enable=1 TCP_STREAM; do
	expect_grep '"netperf.Throughput_Mbps"' "$boot/runs/$r/results.json"
	expect_grep '"status": "ok"' "$boot/runs/$r/1/status"
	expect_grep '"all_in_job_cgroup": true' "$boot/runs/$r/1/status"
	[ -s "$boot/runs/$r/1/client.0.out" ] && [ -s "$boot/runs/$r/1/client.0.rusage" ] ||
		fail "$r: client files missing"
done
expect_grep '"leftover_processes_killed": [1-3],' "$boot/runs/SCTP_STREAM_MANY.prsctp_enable=1/1/status"
expect_grep '"leftover_processes_killed": 0' "$boot/runs/TCP_STREAM/1/status"
expect_grep '"status": "timeout"' "$boot/runs/hang/1/status"
expect_grep '"signal": 15' "$boot/runs/hang/1/status"
[ -e "$boot/done" ] || fail "no done file on the disk"
