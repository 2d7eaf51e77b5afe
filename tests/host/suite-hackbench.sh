# hackbench jobs as `check` reads them: a job in the style of LKP's hackbench jobs
# (tests/fixtures/lkp/hackbench-matrix.yaml) gives LKP's runs and LKP's run script as the
# client; config/jobs/hackbench.yaml as it ships; bad values named with their place; and LKP's
# suites benchboot does not run refused with the reason (exit 100).
. tests/lib.sh
F=tests/fixtures/lkp
check() { "$BENCHBOOT" check "$@" >"$T/out" 2>"$T/err" || fail "check $*: $(cat "$T/err")"; }

# 2 nr_threads x 2 modes x 2 ipcs; iterations: 8 is benchboot's repetitions, hackbench once
# in each (LKP's run_for_iterations)
check -v $F/hackbench-matrix.yaml
expect_grep "^total: 1 boot, 8 runs," "$T/out"
expect_grep "^iterations=8$" "$T/out"
run=$(sed -n 's/^\[run \(.*50pct.*process.*pipe.*\)\]$/\1/p' "$T/out" | sed -n 1p)
[ -n "$run" ] || fail "no run with nr_threads 50%, process mode and pipes in: $(grep '^\[run' "$T/out")"
args=$(bb_plan_args "$T/out" "$run")
case $args in
"/bin/sh -c "*"/usr/bin/hackbench -g \$g -f \$4 --\$2 \$p -l \$l -s \$5"*" hackbench 50% process pipe 20 100 - 600 once ") ;;
*) fail "client of $run: $args" ;;
esac
expect_grep "^param.mode=process$" "$T/out"
expect_grep "^param.ipc=pipe$" "$T/out"

# the job as it ships: 2 runs of 3 iterations, 1000 loops, one group per CPU, sockets not
# asked for
check -v config/jobs/hackbench.yaml
expect_grep "^total: 1 boot, 2 runs," "$T/out"
run=$(sed -n 's/^\[run \(.*threads.*\)\]$/\1/p' "$T/out" | sed -n 1p)
case $(bb_plan_args "$T/out" "$run") in
*" hackbench 100% threads pipe 20 100 1000 600 once ") ;;
*) fail "client of $run: $(bb_plan_args "$T/out" "$run")" ;;
esac

# without iterations: one iteration runs hackbench again and again for runtime
printf 'suite: hackbench\nruntime: 20s\nnr_threads: 2\n' >"$T/timed.yaml"
check -v "$T/timed.yaml"
expect_grep "^client.arg=20$" "$T/out"
expect_grep "^client.arg=time$" "$T/out"
expect_grep "^param.ipc=socket$" "$T/out"

# bad values: the file, line and key
expect_check_refuses 'suite: hackbench\nhackbench:\n  mode: thr\n' \
	"bad.yaml:3:9: mode: 'thr' is not process, threads or thread"
expect_check_refuses 'suite: hackbench\nhackbench:\n  ipc: tcp\n' "bad.yaml:3:8: ipc: 'tcp' is not pipe or socket"
expect_check_refuses 'suite: hackbench\nfds: 0\n' "bad.yaml:2:6: fds: '0' is not a whole number 1..1000"
expect_check_refuses 'suite: hackbench\nhackbench:\n  send_size: 4K\n' "unknown key 'send_size' in 'hackbench:'"
# LKP's duration for hackbench is runtime: testtime is recorded, with a warning
printf 'suite: hackbench\ntesttime: 5s\n' >"$T/tt.yaml"
check "$T/tt.yaml"
expect_grep "testtime: LKP's hackbench reads 'runtime', not 'testtime'" "$T/err"

# LKP's suites benchboot does not run: the reason, exit 100
expect_check_refuses 'suite: will-it-scale\n' \
	"suite: LKP's suite 'will-it-scale' cannot run here: no Debian package provides it"
expect_grep "benchboot fetches only through apt" "$T/err"
expect_check_refuses 'suite: fio\n' "suite: LKP's suite 'fio' is not run by benchboot yet: Debian packages it (fio)"
