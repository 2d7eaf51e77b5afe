# sysbench-cpu, -memory, -threads and -mutex jobs as `check` reads them: jobs in the style of
# LKP's sysbench jobs (tests/fixtures/lkp/sysbench-*.yaml) give LKP's runs and LKP's command
# lines (sysbench 1.0's --threads=N --time=T TEST OPTIONS run; nr_threads P% through a /bin/sh
# line that resolves it in the guest); config/jobs/sysbench-*.yaml as they ship; bad values
# named with their place.
. tests/lib.sh
F=tests/fixtures/lkp
check() { "$BENCHBOOT" check "$@" >"$T/out" 2>"$T/err" || fail "check $*: $(cat "$T/err")"; }

# nr_threads 1, 50%, 200%: a count is sysbench's --threads itself, a percentage the guest's
check -v $F/sysbench-cpu-threads.yaml
expect_grep "^total: 1 boot, 3 runs," "$T/out"
expect_eq "nr_threads 1" "$(bb_plan_args "$T/out" sysbench-cpu-threads.nr_threads-1)" \
	"/usr/bin/sysbench --threads=1 --time=60 cpu --cpu-max-prime=20000 run "
case $(bb_plan_args "$T/out" sysbench-cpu-threads.nr_threads-200pct) in
"/bin/sh -c "*'t=$((n * ${1%\%} / 100))'*'exec /usr/bin/sysbench --threads=$t "$@" sysbench 200% --time=60 cpu --cpu-max-prime=20000 run ') ;;
*) fail "nr_threads 200%: $(bb_plan_args "$T/out" sysbench-cpu-threads.nr_threads-200pct)" ;;
esac
# the guest's line itself: 200% of 3 CPUs is 6 threads, 25% of 3 is 0 (the run dropped)
script=$(sed -n '/^\[run sysbench-cpu-threads.nr_threads-200pct\]$/,/^\[run /p' "$T/out" |
	sed -n 's/^client.arg=\(n=.*\)$/\1/p')
[ -n "$script" ] || fail "no /bin/sh line in the plan"
mkdir -p "$T/bin"
printf '#!/bin/sh\necho 3\n' >"$T/bin/nproc"
chmod +x "$T/bin/nproc"
got=$(PATH="$T/bin:$PATH" sh -c "${script/exec \/usr\/bin\/sysbench/echo}" sysbench 200% --time=60 cpu run)
expect_eq "200% of 3 CPUs" "$got" "--threads=6 --time=60 cpu run"
rc=0
PATH="$T/bin:$PATH" sh -c "$script" sysbench 25% --time=60 cpu run 2>"$T/sh.err" || rc=$?
expect_eq "25% of 3 CPUs: exit" "$rc" 1
expect_grep "sysbench: nr_threads 25% of 3 CPUs is 0 threads" "$T/sh.err"

# memory: mem_operation x mem_access_mode, 4 runs of nr_processes 2 clients each, LKP's order
check -v $F/sysbench-memory-matrix.yaml
expect_grep "^total: 1 boot, 4 runs," "$T/out"
run=sysbench-memory-matrix.mem_operation-read.mem_access_mode-rnd
case $(bb_plan_args "$T/out" $run) in
*" sysbench 100% --time=300 memory --memory-block-size=1K --memory-total-size=100G --memory-scope=global --memory-hugetlb=off --memory-oper=read --memory-access-mode=rnd run ") ;;
*) fail "client of $run: $(bb_plan_args "$T/out" $run)" ;;
esac
[ "$(grep -c '^client.count=2$' "$T/out")" = 4 ] || fail "not 2 clients in each run: $(grep '^client.count' "$T/out")"

# threads: LKP puts its options before `threads run`; LKP's runtime default, 600 s
check -v $F/sysbench-threads-locks.yaml
expect_grep "^total: 1 boot, 2 runs," "$T/out"
expect_eq "thread_locks 64" "$(bb_plan_args "$T/out" sysbench-threads-locks.thread_locks-64)" \
	"/usr/bin/sysbench --threads=4 --time=600 --thread-yields=1000 --thread-locks=64 threads run "

# the jobs as they ship; the defaults every run records
check -v config/jobs/sysbench-mutex.yaml
case $(bb_plan_args "$T/out" sysbench-mutex) in
*" sysbench 100% --time=300 mutex --mutex-num=4096 --mutex-locks=50000 --mutex-loops=10000 run ") ;;
*) fail "client of sysbench-mutex: $(bb_plan_args "$T/out" sysbench-mutex)" ;;
esac
printf 'suite: sysbench-memory\nruntime: 5s\n' >"$T/mem.yaml"
check -v "$T/mem.yaml"
expect_grep "^param.mem_operation=write$" "$T/out"
expect_grep "^param.nr_processes=1$" "$T/out"
expect_eq "memory defaults" "$(bb_plan_args "$T/out" mem)" \
	"/usr/bin/sysbench --threads=1 --time=5 memory --memory-block-size=1K --memory-total-size=100G --memory-scope=global --memory-hugetlb=off --memory-oper=write --memory-access-mode=seq run "
printf 'suite: sysbench-memory\ncpu_node_bind: even\nrand_type: pareto\nrand_pareto_h: 0.3\n' >"$T/rand.yaml"
check -v "$T/rand.yaml"
expect_grep "^param.lkp.cpu_node_bind=even$" "$T/out"
case $(bb_plan_args "$T/out" rand) in
*" --memory-access-mode=seq --rand-type=pareto --rand-pareto-h=0.3 run ") ;;
*) fail "rand: $(bb_plan_args "$T/out" rand)" ;;
esac
for s in cpu threads; do
	check -v config/jobs/sysbench-$s.yaml
	expect_grep "^total: 1 boot, 1 run, 2 iterations" "$T/out"
	expect_grep "^client.arg=--time=2$" "$T/out"
done

# bad values: the file, line and key, and what sysbench takes
expect_check_refuses 'suite: sysbench-cpu\nsysbench-cpu:\n  cpu_max_prime: 0\n' \
	"bad.yaml:3:18: cpu_max_prime: '0' is not a whole number 1..2147483647 (sysbench --cpu-max-prime)"
expect_check_refuses 'suite: sysbench-memory\nsysbench-memory:\n  mem_operation: copy\n' \
	"bad.yaml:3:18: mem_operation: 'copy' is not one of read write none (sysbench --memory-oper)"
expect_check_refuses 'suite: sysbench-memory\nmem_blk_size: 12\n' \
	"bad.yaml:2:15: mem_blk_size: '12' is not a size for sysbench --memory-block-size (bytes, or with K/M/G/T: 1K, 100G; a multiple of 8 bytes)"
expect_check_refuses 'suite: sysbench-memory\nmem_total_size: 1.5G\n' \
	"bad.yaml:2:17: mem_total_size: '1.5G' is not a size"
expect_check_refuses 'suite: sysbench-memory\nnr_processes: 0\n' "bad.yaml:2:15: nr_processes: '0' must be at least 1"
expect_check_refuses 'suite: sysbench-memory\nrand_pareto_h: 1\n' \
	"bad.yaml:2:16: rand_pareto_h: '1' is not a number between 0 and 1"
expect_check_refuses 'suite: sysbench-threads\nsysbench-threads:\n  thread_locks: 8x\n' \
	"bad.yaml:3:17: thread_locks: '8x' is not a whole number 1..2147483647 (sysbench --thread-locks)"
expect_check_refuses 'suite: sysbench-mutex\nnr_threads: 50pct\n' \
	"bad.yaml:2:13: nr_threads: '50pct' is not a count or a percentage"
# a key of another sysbench suite is not this one's
expect_check_refuses 'suite: sysbench-mutex\nsysbench-mutex:\n  thread_locks: 8\n' \
	"unknown key 'thread_locks' in 'sysbench-mutex:'"
