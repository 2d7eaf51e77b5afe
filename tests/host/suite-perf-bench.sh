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
	"bad.yaml:2:8: loops: '10Mops' is not a whole number 1..2147483647 (LKP writes 10000000ops)"
expect_check_refuses 'suite: perf-bench-sched-pipe\nperf-bench-sched-pipe:\n  mode: thread\n' \
	"bad.yaml:3:9: mode: 'thread' is not process or threads"
expect_check_refuses 'suite: perf-bench-sched-messaging\nperf-bench-sched-messaging:\n  mode: threads\n' \
	"bad.yaml:3:9: mode: 'threads' is not process or thread"

# perf-bench-futex: LKP's `shared: [shared, ]` gives runs with and without --shared; runtime
# only for hash and lock-pi; each test's option for itself only; nr_task resolved in the guest
check -v $F/perf-bench-futex.yaml
expect_grep "^total: 1 boot, 10 runs," "$T/out"
futex() { bb_plan_args "$T/out" "$1" | sed 's/^\/bin\/sh -c .* perf-bench-futex /perf-bench-futex /'; }
expect_eq "hash, shared" "$(futex hash.shared-shared)" \
	"perf-bench-futex 50% hash --runtime 300 --shared --futexes 512 "
expect_eq "hash" "$(futex hash)" "perf-bench-futex 50% hash --runtime 300 --futexes 512 "
expect_eq "lock-pi" "$(futex lock-pi)" "perf-bench-futex 50% lock-pi --runtime 300 --multi "
expect_eq "requeue, shared" "$(futex requeue.shared-shared)" \
	"perf-bench-futex 50% requeue --shared --nrequeue 4 "
expect_eq "wake" "$(futex wake)" "perf-bench-futex 50% wake --nwakes 2 "
expect_eq "wake-parallel" "$(futex wake-parallel)" "perf-bench-futex 50% wake-parallel "
case $(bb_plan_args "$T/out" wake) in
*'exec /usr/bin/perf bench futex "$@" --threads $t'*) ;;
*) fail "the script does not end with perf's --threads: $(bb_plan_args "$T/out" wake)" ;;
esac
grep -q '^param.shared=$' "$T/out" && fail "shared's empty value became a parameter"
# LKP's false words: no --shared
printf 'suite: perf-bench-futex\nperf-bench-futex:\n  test: hash\n  shared: no\n' >"$T/f.yaml"
check -v "$T/f.yaml"
case $(bb_plan_args "$T/out" hash) in *--shared*) fail "shared: no gave --shared" ;; esac
expect_check_refuses 'suite: perf-bench-futex\nperf-bench-futex:\n  test: hsah\n' \
	"bad.yaml:3:9: test: 'hsah' is not hash, lock-pi, requeue, wake or wake-parallel (did you mean 'hash'?)"
expect_check_refuses 'suite: perf-bench-futex\nnr_task: 1\n' "perf-bench-futex: no test"
