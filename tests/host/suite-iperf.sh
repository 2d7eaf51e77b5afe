# iperf jobs as `check` reads them: jobs in the style of LKP's jobs/iperf.yaml
# (tests/fixtures/lkp/iperf-*.yaml) give LKP's runs, its iperf3 command lines in the client and
# server roles, tune's sysctls, and on two hosts the server host's address after -c;
# config/jobs/iperf.yaml as it ships; bad values named with their file, line and key.
. tests/lib.sh
F=tests/fixtures/lkp
check() { "$BENCHBOOT" check "$@" >"$T/out" 2>"$T/err" || fail "check $*: $(cat "$T/err")"; }
# server_args PLAN RUN: the run's server.0.arg words
server_args() {
	awk -v r="[run $2]" '$0 == r {on=1; next} /^\[run /{on=0} on && /^server.0.arg=/{sub(/^server.0.arg=/,""); printf "%s ", $0}' "$1"
}

# protocol an axis of the client role's block: 2 runs, LKP's client command line (udp: -u),
# the server role's iperf-server as iperf3 --server, ready when 127.0.0.1:5201 listens
check -v $F/iperf-tune.yaml
expect_grep "^total: 1 boot, 2 runs," "$T/out"
expect_eq "tcp client" "$(bb_plan_args "$T/out" iperf-tune.protocol-tcp)" \
	"/usr/bin/iperf3 -t 20 -J -c 127.0.0.1 "
expect_eq "udp client" "$(bb_plan_args "$T/out" iperf-tune.protocol-udp)" \
	"/usr/bin/iperf3 -t 20 -J -c 127.0.0.1 -u "
expect_eq "server" "$(server_args "$T/out" iperf-tune.protocol-udp)" "/usr/bin/iperf3 --server -4 "
expect_grep "^server.0.ready=tcp:127.0.0.1:5201$" "$T/out"
expect_grep "^client.count=1$" "$T/out"
expect_grep "^modules.boot=dummy$" "$T/out"
# tune: LKP's KEY VALUE pairs, each a sysctl of the run; numactl recorded
expect_grep "^sysctl.net.core.rmem_max=4194304$" "$T/out"
expect_grep "^sysctl.net.core.wmem_max=4194304$" "$T/out"
expect_grep "^param.lkp.numactl=true$" "$T/out"
# iperf-server: is the server's key, not a parameter of the run
if grep -q "^param.iperf-server" "$T/out"; then fail "iperf-server: written as a run parameter"; fi

# two hosts: the client host's -c is the server host's address; the server checks locally
check -v $F/iperf-two-host.yaml
expect_grep "^total: 1 boot, 1 run," "$T/out"
expect_eq "two-host client" "$(bb_plan_args "$T/out" iperf-two-host)" \
	"/usr/bin/iperf3 -t 10 -J -c 192.168.77.1 "
expect_grep "^server.0.ready=tcp:127.0.0.1:5201$" "$T/out"

# LKP's sessions: the server role starts that many servers on 5001 and up (ready when the
# last listens, started once the others do), the client LKP's clients at once and their
# outputs one after the other; on two hosts the address after -c is rewritten, the script not
check -v $F/iperf-sessions.yaml
args=$(server_args "$T/out" iperf-sessions)
case $args in
"/bin/sh -c "*"/usr/bin/iperf3 --server -4 -p \$((p + i - 1)) & "*" iperf-server 2 5001 ") ;;
*) fail "server of iperf-sessions: $args" ;;
esac
expect_grep "^server.0.ready=tcp:127.0.0.1:5002$" "$T/out"
args=$(bb_plan_args "$T/out" iperf-sessions)
case $args in
"/bin/sh -c "*"/usr/bin/iperf3 -c \$a -p \$((p + i - 1)) -i 10 -T \$((i - 1)) -J -t \$5 \$u >"*" iperf 2 -c 127.0.0.1 5001 3 tcp ") ;;
*) fail "client of iperf-sessions: $args" ;;
esac
sed 's/^runtime: 3s$/runtime: 3s\ncluster: cs-qemu-pair/' $F/iperf-sessions.yaml >"$T/iperf-sessions.yaml"
check -v "$T/iperf-sessions.yaml"
case $(bb_plan_args "$T/out" iperf-sessions) in
"/bin/sh -c n=\$1; "*" iperf 2 -c 192.168.77.1 5001 3 tcp ") ;;
*) fail "two-host client of iperf-sessions: $(bb_plan_args "$T/out" iperf-sessions)" ;;
esac
expect_grep "^server.0.ready=tcp:127.0.0.1:5002$" "$T/out"

# the job as it ships: tcp and udp of 5 s; without runtime LKP's 300 s
check -v config/jobs/iperf.yaml
expect_grep "^total: 1 boot, 2 runs," "$T/out"
expect_grep "^client.arg=-u$" "$T/out"
printf 'suite: iperf\n' >"$T/default.yaml"
check -v "$T/default.yaml"
expect_eq "default client" "$(bb_plan_args "$T/out" default)" "/usr/bin/iperf3 -t 300 -J -c 127.0.0.1 "
expect_grep "^param.protocol=tcp$" "$T/out"

# bad values: the file, line and key
expect_check_refuses 'suite: iperf\niperf:\n  protocol: sctp\n' \
	"bad.yaml:3:13: protocol: 'sctp' is not tcp or udp"
expect_check_refuses 'suite: iperf\ntune: net.core.rmem_max\n' \
	"bad.yaml:2:7: tune: 'net.core.rmem_max' is not pairs of a sysctl and its value"
expect_check_refuses 'suite: iperf\ntune: 4194304 net.core.rmem_max\n' \
	"bad.yaml:2:7: tune: '4194304' is not a sysctl name"
expect_check_refuses 'suite: iperf\nif role server:\n  iperf-server:\n    port: 5001\n' \
	"bad.yaml:4:5: iperf-server: takes no options (benchboot runs iperf3 --server -4)"
expect_check_refuses 'suite: iperf\niperf:\n  sessions: 0\n' \
	"bad.yaml:3:13: sessions: '0' is not a whole number 1..64 (iperf3 sessions at once)"
expect_check_refuses 'suite: iperf\nsessions: 65\n' "bad.yaml:2:11: sessions: '65' is not a whole number 1..64"
expect_check_refuses 'suite: iperf\nruntime: 0s\n' "bad.yaml:2:10: runtime:"
expect_check_refuses 'suite: netperf\niperf-server:\n' "bad.yaml:2:1: iperf-server: not part of suite netperf"
