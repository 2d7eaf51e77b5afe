# perf-bench-sched-pipe and perf-bench-sched-messaging jobs as `check` reads them: LKP's
# `loops: 10000000ops` (tests/fixtures/lkp/perf-bench-sched-pipe.yaml) gives perf's -l
# 10000000; the messaging job gives LKP's options; bad values are named with their place.
. tests/lib.sh
F=tests/fixtures/lkp
check() { "$BENCHBOOT" check "$@" >"$T/out" 2>"$T/err" || fail "check $*: $(cat "$T/err")"; }

check -v $F/perf-bench-sched-pipe.yaml
expect_grep "^total: 1 boot, 2 runs," "$T/out"
expect_eq "process mode" "$(bb_plan_args "$T/out" perf-bench-sched-pipe.mode-process)" \
	"/usr/bin/perf bench sched pipe -l 10000000 "
expect_eq "thread mode" "$(bb_plan_args "$T/out" perf-bench-sched-pipe.mode-threads)" \
	"/usr/bin/perf bench sched pipe -l 10000000 -T "

check -v config/jobs/perf-bench-sched-messaging.yaml
expect_eq "pipes" "$(bb_plan_args "$T/out" perf-bench-sched-messaging.ipc-pipe)" \
	"/usr/bin/perf bench sched messaging --nr_loops 100 --group 2 --pipe "
expect_eq "sockets" "$(bb_plan_args "$T/out" perf-bench-sched-messaging.ipc-socket)" \
	"/usr/bin/perf bench sched messaging --nr_loops 100 --group 2 "
expect_grep "^param.mode=process$" "$T/out"

expect_check_refuses 'suite: perf-bench-sched-pipe\nloops: 10Mops\n' \
	"bad.yaml:2:8: loops: '10Mops' is not a count 1..2147483647 (LKP writes 10000000ops)"
expect_check_refuses 'suite: perf-bench-sched-pipe\nperf-bench-sched-pipe:\n  mode: thread\n' \
	"bad.yaml:3:9: mode: 'thread' is not process or threads"
expect_check_refuses 'suite: perf-bench-sched-messaging\nperf-bench-sched-messaging:\n  mode: threads\n' \
	"bad.yaml:3:9: mode: 'threads' is not process or thread"
