# benchboot check: every job in config/jobs is valid and expands as documented; a bad job is
# exit 100 with FILE:LINE:COL on stderr; --plans writes plans the init's parser would read.
. tests/lib.sh
"$BENCHBOOT" check --help >"$T/help" || fail "check --help failed"
expect_grep "usage: benchboot check" "$T/help"
for j in config/jobs/*.yaml; do
	"$BENCHBOOT" check "$j" >"$T/out" 2>"$T/err" || fail "$j: $(cat "$T/err")"
	expect_grep "^total: " "$T/out"
done

"$BENCHBOOT" check config/jobs/netperf-cgroup.yaml >"$T/out"
cat >"$T/want" <<'OUT'
job netperf-cgroup (config/jobs/netperf-cgroup.yaml): suite netperf, 1 document
boot 0: cgroup.mode=v1 cgroup.controllers=memory
  2 runs; modules: dummy sctp; programs: /usr/bin/netperf /usr/bin/netserver
  run SCTP_STREAM_MANY.nr_threads-50pct: 1 x 10s, clients 50% (1 at 2 vCPUs)
  run SCTP_STREAM_MANY.nr_threads-100pct: 1 x 10s, clients 100% (2 at 2 vCPUs)
boot 1: cgroup.mode=v2 cgroup.controllers=memory
  2 runs; modules: dummy sctp; programs: /usr/bin/netperf /usr/bin/netserver
  run SCTP_STREAM_MANY.nr_threads-50pct: 1 x 10s, clients 50% (1 at 2 vCPUs)
  run SCTP_STREAM_MANY.nr_threads-100pct: 1 x 10s, clients 100% (2 at 2 vCPUs)
total: 2 boots, 4 runs, 4 iterations, estimated wall time 1m18s (about 15 s per boot, 2 s per iteration on top of its runtime)
OUT
diff -u "$T/want" "$T/out" || fail "check output of netperf-cgroup.yaml changed"

"$BENCHBOOT" check config/jobs/stress-ng-cpu.yaml >"$T/out"
expect_grep "^  run cpu.cpu-method-fft: 2 x 5s, clients 1$" "$T/out"
expect_grep "^  run vm.vm-bytes-64M: 2 x 5s, clients 1$" "$T/out"

# warm-up (`warmup: N`): shown on the boot, on the run it warms up and in the total
printf 'suite: netperf\nwarmup: 2\nruntime: 5\ntest: TCP_STREAM\nnr_threads: [1, 2]\n' >"$T/warm.yaml"
"$BENCHBOOT" check "$T/warm.yaml" >"$T/out" || fail "check of a warm-up job failed"
expect_grep "^  warm-up: 2 iterations of run TCP_STREAM.nr_threads-1 before the measured ones" "$T/out"
expect_grep "^  run TCP_STREAM.nr_threads-1: 1 x 5s + 2 warm-up, clients 1$" "$T/out"
expect_grep "^  run TCP_STREAM.nr_threads-2: 1 x 5s, clients 2$" "$T/out"
expect_grep "^total: 1 boot, 2 runs, 2 iterations + 2 warm-up, " "$T/out"
printf 'suite: netperf\nwarmup: 1\norder: random\nruntime: 5\ntest: TCP_STREAM\nnr_threads: [1, 2]\n' >"$T/warm.yaml"
"$BENCHBOOT" check "$T/warm.yaml" >"$T/out" || fail "check of a random-order warm-up job failed"
expect_grep "^  warm-up: 1 iteration of the random order's first run before" "$T/out"
! grep -q "+ 1 warm-up, clients" "$T/out" || fail "random order: the warmed-up run is not known"

# plans: one per boot group, the boot's cgroup mode in each
"$BENCHBOOT" check --plans "$T/plans" config/jobs/netperf-cgroup.yaml >/dev/null
expect_eq "plan files" "$(cd "$T/plans" && echo plan.*)" "plan.0 plan.1"
expect_eq "plan header" "$(head -1 "$T/plans/plan.1")" "benchboot-plan 1"
expect_grep "^cgroup.mode=v1$" "$T/plans/plan.0"
expect_grep "^cgroup.mode=v2$" "$T/plans/plan.1"
expect_grep "^modules.boot=dummy sctp$" "$T/plans/plan.1"
expect_grep "^client.count=100%$" "$T/plans/plan.1"

# a key no program reads: a warning with the nearest key, the job still runs (as in LKP)
printf 'suite: netperf\nnr_thread: 2\n' >"$T/warn.yaml"
"$BENCHBOOT" check "$T/warn.yaml" >"$T/out" 2>"$T/err" || fail "a warning made check fail"
expect_eq "stderr" "$(cat "$T/err")" \
	"benchboot check: warning: $T/warn.yaml:2:1: unknown key 'nr_thread' at the top level (did you mean 'nr_threads'?): no program benchboot runs reads it; ignored, as LKP ignores it"
expect_grep "^total: 1 boot, 1 run," "$T/out"
# a bad job: exit 100, the place on stderr, nothing on stdout
printf 'suite: netperf\nnetperf:\n  tset: TCP_RR\n' >"$T/bad.yaml"
set +e
"$BENCHBOOT" check "$T/bad.yaml" >"$T/out" 2>"$T/err"
rc=$?
set -e
expect_eq "exit code of a bad job" "$rc" 100
expect_eq "stderr" "$(cat "$T/err")" \
	"benchboot check: $T/bad.yaml:3:3: unknown key 'tset' in 'netperf:' (did you mean 'test'?)"
[ ! -s "$T/out" ] || fail "stdout not empty for a bad job"
printf 'suite: netperf\nnr_threads: 250x\n' >"$T/bad2.yaml"
set +e
"$BENCHBOOT" check "$T/bad2.yaml" 2>"$T/err"
rc=$?
set -e
expect_eq "exit code of a bad value" "$rc" 100
expect_grep "bad2.yaml:2:13: nr_threads: '250x' is not a count" "$T/err"
set +e
"$BENCHBOOT" check "$T/missing.yaml" 2>"$T/err"
rc=$?
"$BENCHBOOT" check 2>/dev/null
rc2=$?
set -e
expect_eq "exit code of a missing file (bad input: ENOENT)" "$rc" 100
expect_grep "missing.yaml: No such file or directory" "$T/err"
expect_eq "exit code without a job" "$rc2" 100

# a mistyped top-level key that the job needs: named where it is, with the key it wants
printf 'sutie: netperf\nruntime: 5s\n' >"$T/sutie.yaml"
rc=0
"$BENCHBOOT" check "$T/sutie.yaml" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check of a job with 'sutie:': exit" "$rc" 100
expect_grep "^benchboot check: $T/sutie.yaml:1:1: unknown key 'sutie' (did you mean 'suite'?), and the job has no 'suite' (benchboot runs netperf, stress-ng, hackbench, .*)$" "$T/err"

# what build refuses, check refuses first (exit 100, the file named): a job file's name that
# cannot name an image (a space, non-ASCII), a name without .yaml, a size netperf cannot take
for bad in "a job.yaml" "jöb.yaml" "job.txt"; do
	printf 'suite: netperf\nruntime: 5s\ntest: TCP_STREAM\n' >"$T/$bad"
	rc=0
	"$BENCHBOOT" check "$T/$bad" >"$T/out" 2>"$T/err" || rc=$?
	expect_eq "check of '$bad': exit" "$rc" 100
	expect_grep "^benchboot check: $T/$bad: " "$T/err"
done
expect_grep "a job file's name ends in .yaml (or .yml): rename it$" "$T/err"
printf 'suite: netperf\nruntime: 5s\ntest: TCP_STREAM\nsend_size: 99999999999G\n' >"$T/big.yaml"
rc=0
"$BENCHBOOT" check "$T/big.yaml" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check of send_size 99999999999G: exit" "$rc" 100
expect_grep "big.yaml:4:12: send_size: '99999999999G' is more than netperf takes (at most 2147483647 bytes, 2047M: it reads a C int)$" "$T/err"

# hostile jobs get an answer at once: [ nested 5000 deep (libyaml took minutes), a matrix of
# millions of runs (gigabytes before anything was said)
printf 'suite: netperf\ntest: %s\n' "$(printf '[%.0s' $(seq 1 5000))" >"$T/nest.yaml"
rc=0
bb_timeout 10 "$BENCHBOOT" check "$T/nest.yaml" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check of [ nested 5000 deep: exit" "$rc" 100
expect_grep "nest.yaml:2:39: \[ and { nested deeper than 32 levels: not a job" "$T/err"
{
	printf 'suite: netperf\nnr_threads: [%s]\nsysctl:\n' "$(seq -s, 1 20)"
	for i in 1 2 3 4 5; do printf '  net.core.x%s: [%s]\n' "$i" "$(seq -s, 1 30)"; done
} >"$T/matrix.yaml"
rc=0
bb_timeout 10 "$BENCHBOOT" check "$T/matrix.yaml" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check of a 486-million-run matrix: exit" "$rc" 100
expect_grep "matrix.yaml: the matrix has more than 10000 runs (20 nr_threads x 30 sysctl.net.core.x1 x " "$T/err"
