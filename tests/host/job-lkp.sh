# LKP's own job syntax, as LKP reads it (tests/fixtures/lkp: job files written for these
# tests): runs per document, includes, program options at the top level, LKP keys recorded
# and not acted on, warnings for keys LKP would drop, a 0-day job.yaml attachment, and the
# stress-ng command line of LKP's run script.
. tests/lib.sh
F=tests/fixtures/lkp
check() { "$BENCHBOOT" check "$@" >"$T/out" 2>"$T/err" || fail "check $*: $(cat "$T/err")"; }

# three documents: document 0 is a job (6 runs), 1 replaces the role block (4), 2 replaces
# nr_threads and the block (1)
check $F/netperf-3docs.yaml
expect_grep "^  document 0: 6 runs$" "$T/out"
expect_grep "^  document 1: 4 runs$" "$T/out"
expect_grep "^  document 2: 1 run$" "$T/out"
expect_grep "^total: 1 boot, 11 runs," "$T/out"
expect_grep "^  run SCTP_STREAM_MANY.nr_threads-1.send_size-4K: " "$T/out"
expect_grep "^  run SCTP_STREAM.nr_threads-100pct.net-buffer-1: " "$T/out"
expect_grep "^  LKP variables no program benchboot runs reads: set_nic_irq_affinity$" "$T/out"
[ "$(grep -c "^  run TCP_RR" "$T/out")" = 2 ] || fail "TCP_RR should run with nr_threads 1 and 50%"

# includes: relative to the including file; the included three documents stay three
check $F/netperf-cgroup2-include.yaml
expect_grep "^  includes $F/cgroup2-knobs.yaml$" "$T/out"
expect_grep "^  includes $F/netperf-3docs.yaml$" "$T/out"
expect_grep "^total: 1 boot, 11 runs," "$T/out"
expect_grep "kernel_cmdline=systemd.unified_cgroup_hierarchy=1" "$T/out"
# cgroup2: v2 for the boot, the controllers of the knobs that have a value, the knobs as
# limits of the job cgroup (the init resolves 90% of memory to bytes)
check -v $F/netperf-cgroup2-include.yaml
expect_grep "^cgroup.mode=v2$" "$T/out"
expect_grep "^cgroup.controllers=memory pids$" "$T/out"
expect_grep "^cgroup.limit.memory.high=90%$" "$T/out"
expect_grep "^cgroup.limit.pids.max=10000$" "$T/out"
if grep -q "memory.swap.max" "$T/out"; then fail "a knob without a value was set"; fi
# net-buffer (LKP's old key setup-net-buffer): the buffers the init computes, sctp loaded
expect_grep "^sysctl.net.core.wmem_max=@netbuf:100%@$" "$T/out"
expect_grep "^sysctl.net.sctp.sctp_rmem=4096 349500 @netbuf:100%@$" "$T/out"
# v1 knobs in cgroup:, sc_NAME sysctls, =0 on the command line
check -v $F/cgroup-v1-sysctl.yaml
expect_grep "^total: 1 boot, 2 runs," "$T/out"
expect_grep "^cgroup.mode=v1$" "$T/out"
expect_grep "^cgroup.controllers=memory cpuset$" "$T/out"
expect_grep "^cgroup.limit.memory.limit_in_bytes=50%$" "$T/out"
expect_grep "^cgroup.limit.cpuset.cpus=all$" "$T/out"
expect_grep "^sysctl.sc_somaxconn=2048$" "$T/out"
expect_grep "^sysctl.sc_pid_max=65536$" "$T/out"
printf 'suite: netperf\nkernel_cmdline: [systemd.unified_cgroup_hierarchy=0, systemd.unified_cgroup_hierarchy=1]\n' >"$T/hier.yaml"
check "$T/hier.yaml"
expect_grep "^boot 0: kernel_cmdline=systemd.unified_cgroup_hierarchy=0 cgroup.mode=v1$" "$T/out"
expect_grep "^boot 1: kernel_cmdline=systemd.unified_cgroup_hierarchy=1 cgroup.mode=v2$" "$T/out"
check -v $F/include-overrides.yaml
expect_grep "^total: 1 boot, 11 runs," "$T/out"
expect_grep "^client.arg=1$" "$T/out"   # runtime: 1s in every document
if grep -q "^param.ip=" "$T/out" && ! grep -q "^param.ip=ipv4$" "$T/out"; then fail "ip"; fi
# an include that is not there: exit 100, the including file and line
printf 'suite: netperf\n<<: nope.yaml\n' >"$T/inc.yaml"
set +e
"$BENCHBOOT" check "$T/inc.yaml" >/dev/null 2>"$T/err"
rc=$?
set -e
expect_eq "exit code of a missing include" "$rc" 100
expect_grep "inc.yaml:2:5: <<: included file 'nope.yaml' not found" "$T/err"

# program options at the top level; the block's value wins
check -v $F/netperf-toplevel-options.yaml
expect_grep "^total: 1 boot, 2 runs," "$T/out"
expect_eq "netperf arguments of TCP_STREAM" \
	"$(bb_plan_args "$T/out" TCP_STREAM)" \
	"/usr/bin/netperf -4 -H 127.0.0.1 -t TCP_STREAM -c -C -l 2 -- -m 10K -s 32K -S 32K "

# nr_threads P%: 3 runs in the plan, the count resolved by the init (0 drops the run there);
# check counts them at the VM's vCPUs (--cpus, default 2), names the run that would do nothing
# with the way out, and exits 1; at --cpus 4 every run has a client (exit 0)
rc=0
"$BENCHBOOT" check -v $F/nr-threads-percent.yaml >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check of a job with a run LKP's rule drops: exit" "$rc" 1
expect_grep "^total: 1 boot, 3 runs," "$T/out"
expect_grep "^client.count=25%$" "$T/out"
expect_grep "^  run TCP_RR.nr_threads-25pct: 1 x 1s, clients 25% (0 at 2 vCPUs)$" "$T/out"
expect_grep "^    warning: nr_threads 25% of 2 vCPUs is 0 clients: LKP's rule drops the run (the init fails it); --cpus 4 gives 1, or --set nr_threads=1$" "$T/out"
expect_grep "^  run TCP_RR.nr_threads-200pct: 1 x 1s, clients 200% (4 at 2 vCPUs)$" "$T/out"
expect_grep "^1 of 3 runs would do nothing at 2 vCPUs (LKP's rule drops them; warnings above)$" "$T/out"
check --cpus 4 $F/nr-threads-percent.yaml
expect_grep "^  run TCP_RR.nr_threads-25pct: 1 x 1s, clients 25% (1 at 4 vCPUs)$" "$T/out"

# stress-ng: testtime (default 1 s), a missing stressor warns with the version, LKP's
# sysctls and options
check -v $F/stress-ng-2docs.yaml
expect_grep "^total: 1 boot, 8 runs," "$T/out"
expect_grep "stress-ng-2docs.yaml:17:7: test: stress-ng 0.22.01 (the image's) has no stressor 'ng': that run will fail" "$T/err"
# category: benchmark: its monitors run in one monitored iteration of each run, counted too
expect_grep "^  run sock.type-dgram: 1 x 1s + 1 monitored, clients 1$" "$T/out"
expect_grep "^total: 1 boot, 8 runs, 8 iterations + 8 monitored, " "$T/out"
expect_grep "^sysctl.net.core.somaxconn=4096$" "$T/out"
expect_grep "^sysctl.kernel.sched_autogroup_enabled=0$" "$T/out"
expect_grep "^sysctl.net.ipv4.ping_group_range=0 2147483647$" "$T/out"
expect_grep "^client.arg=--sock-type$" "$T/out"
expect_grep "^param.stress-ng_version=0.22.01$" "$T/out"
check -v $F/stress-ng-options.yaml
args() { bb_plan_args "$T/out" "$1"; }
expect_eq "class cpu-cache" "$(args cpu-cache)" \
	"/usr/bin/stress-ng --timeout 1 --times --verify --metrics --no-rand-seed --log-file /proc/self/fd/1 --sequential 2 --class cpu-cache --exclude spawn,exec "
expect_eq "tree: its method list has all" "$(args tree)" \
	"/usr/bin/stress-ng --timeout 1 --times --verify --metrics --no-rand-seed --log-file /proc/self/fd/1 --tree-method all --tree 2 "
expect_eq "sctp: method and sched" "$(args sctp.method-fft.sched-fifo)" \
	"/usr/bin/stress-ng --timeout 1 --times --verify --metrics --no-rand-seed --log-file /proc/self/fd/1 --sctp-method fft --sctp-sched fifo --sctp 2 "

# a 0-day job.yaml attachment: runs; its host facts are recorded, this machine's are used
check -v $F/zday-attachment.yaml
expect_grep "^total: 1 boot, 1 run," "$T/out"
expect_grep "^  facts of the 0-day host, recorded only: the CPUs and memory of the machine that boots the image are used: model=Example Lake nr_node=2 nr_cpu=64 memory=256G" "$T/out"
# its monitors run (those it names, then LKP's default set of category: benchmark), the rest
# are listed as unavailable here (with the reason) or not implemented, not among the notes
# (perf-stat and perf-profile run when this build has them)
if grep -q "^  LKP monitors" "$T/out"; then fail "monitors among the notes: $(grep "^  LKP monitors" "$T/out")"; fi
expect_grep "^monitors (sampled in the measured window of the iterations they run in): uptime vmstat proc-vmstat perf-stat perf-profile meminfo slabinfo interrupts softirqs cpuidle sched_debug mpstat$" "$T/out"
expect_grep "^monitors not implemented yet (recorded only): kmsg boot-time oom-killer watchdog iostat heartbeat proc-stat lock_stat perf-sched bdi_dev_mapping diskstats nfsstat cpufreq-stats perf-c2c$" "$T/out"
expect_grep "^  turbostat: reads the CPUs' MSRs" "$T/out"
expect_grep "^monitors=uptime vmstat proc-vmstat perf-stat perf-profile meminfo slabinfo interrupts softirqs cpuidle sched_debug mpstat$" "$T/out"
expect_grep "^param.lkp.nr_cpu=64$" "$T/out"
expect_grep "^param.lkp.bootloader_append=\[root=/dev/ram0, panic=-1\]$" "$T/out"
expect_grep "^client.count=200%$" "$T/out"
[ ! -s "$T/err" ] || fail "warnings for a 0-day attachment: $(cat "$T/err")"

# LKP's need_memory against the VM's memory (LKP's filters/need_memory removes a job the box
# cannot hold): a warning with the --mem that would do, exit 1; enough --mem, exit 0; P% is
# P% of the CPUs in GB; not a size, exit 100
printf 'suite: hackbench\nnr_threads: 1\nneed_memory: 4G\n' >"$T/mem.yaml"
rc=0
"$BENCHBOOT" check "$T/mem.yaml" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check of need_memory 4G in 1024 MB: exit code" "$rc" 1
expect_grep "warning: need_memory 4G (4096 MB) is more than a VM of 1024 MB has available (about 819 MB): LKP's filter drops such a job; run with --mem 5120 or more" "$T/out"
expect_grep "^1 of 1 runs need more memory than a VM of 1024 MB has" "$T/out"
"$BENCHBOOT" check --mem 5120 "$T/mem.yaml" >"$T/out" 2>"$T/err" || fail "check --mem 5120: $(cat "$T/err")"
printf 'suite: hackbench\nnr_threads: 1\nneed_memory: 100%%\n' >"$T/mem.yaml"
rc=0
"$BENCHBOOT" check --cpus 4 "$T/mem.yaml" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check of need_memory 100% at 4 vCPUs: exit code" "$rc" 1
expect_grep "need_memory 100% (4096 MB)" "$T/out"
printf 'suite: hackbench\nneed_memory: 4X\n' >"$T/mem.yaml"
rc=0
"$BENCHBOOT" check "$T/mem.yaml" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check of need_memory 4X: exit code" "$rc" 100
expect_grep "need_memory: '4X' is not a size (4G, 300MB) or a share (100%)" "$T/err"
