# LKP's monitors in a job, without booting: options under a monitor's key (`vmstat: {interval:
# 2}`) reach the plan as monitor.NAME.OPTION, an unknown option is a warning naming
# FILE:LINE:COL, a bad value an error (exit 100) naming FILE:LINE:COL and the key;
# `category: benchmark` brings LKP's default set and the job's keys add to it, `NAME-:` takes
# one out; check lists what will run, what is unavailable here and why, and what benchboot
# does not implement; `run --monitors` takes none, default or names and refuses anything else
# with exit 100 before building anything.
. tests/lib.sh
job=tests/fixtures/monitors/netperf-monitor-options.yaml
"$BENCHBOOT" check -v "$job" >"$T/out" 2>"$T/err" || fail "check: $(cat "$T/err")"
cat "$T/err"
expect_grep "^benchboot check: warning: $job:15:3: mpstat: unknown option 'intervall' (did you mean 'interval'?); LKP's mpstat takes interval, delay, count, nodes, cpus, per_node: ignored, as LKP ignores it$" "$T/err"
[ "$(wc -l <"$T/err")" = 1 ] || fail "one warning expected: $(cat "$T/err")"
# the job's monitors first, then the rest of LKP's default set, without those taken out
expect_grep "^monitors (sampled in the measured window of the iterations they run in): vmstat proc-vmstat interrupts mpstat uptime meminfo slabinfo softirqs cpuidle sched_debug perf-stat$" "$T/out"
expect_grep "^monitor options (plan monitor.NAME.OPTION): vmstat.interval=2 proc-vmstat.interval=0.5 interrupts.interval=1$" "$T/out"
expect_grep "^monitors unavailable here:$" "$T/out"
expect_grep "^  cpuidle: under TCG (QEMU's CPUs have no cpuidle driver): its status says unavailable, it has no stats$" "$T/out"
for m in numa-numastat numa-vmstat numa-meminfo; do
	expect_grep "^  $m: needs a second NUMA node; benchboot's VM has one" "$T/out"
done
expect_grep "^  turbostat: reads the CPUs' MSRs, which QEMU's TCG CPUs do not have" "$T/out"
if grep -q '^  perf-stat: ' "$T/out"; then fail "perf-stat listed as unavailable: $(grep '^  perf-stat: ' "$T/out")"; fi
expect_grep "^monitors taken out (NAME-: keys): kmsg perf-profile$" "$T/out"
expect_grep "^monitors not implemented yet (recorded only): boot-time iostat heartbeat proc-stat lock_stat perf-sched bdi_dev_mapping diskstats nfsstat cpufreq-stats perf-c2c$" "$T/out"
if grep -E '^monitors (not implemented|\(sampled).* (kmsg|perf-profile)( |$)' "$T/out"; then
	fail "a monitor taken out is still listed"
fi
# the plan: the list, and the options of the monitors that run (not those of perf-profile)
expect_grep "^monitors=vmstat proc-vmstat interrupts mpstat uptime meminfo slabinfo softirqs cpuidle sched_debug perf-stat$" "$T/out"
expect_grep "^monitor.vmstat.interval=2$" "$T/out"
expect_grep "^monitor.proc-vmstat.interval=0.5$" "$T/out"
expect_grep "^monitor.interrupts.interval=1$" "$T/out"
if grep -q "^monitor.perf-profile\|^monitor.mpstat" "$T/out"; then fail "options of monitors that do not run, or LKP's recorded ones, in the plan"; fi
# the options are recorded with the rest of the key
expect_grep "^param.lkp.mpstat={per_node: 1, intervall: 3}$" "$T/out"

# a bad value: exit 100, FILE:LINE:COL and the key
bad() { # bad YAML-LINES MESSAGE
	printf 'suite: netperf\nruntime: 3s\n%s\nnetperf:\n  test: TCP_STREAM\n' "$1" >"$T/bad.yaml"
	local rc=0
	"$BENCHBOOT" check "$T/bad.yaml" >"$T/out" 2>"$T/err" || rc=$?
	expect_eq "check of '$1': exit code" "$rc" 100
	expect_grep "^benchboot check: $T/bad.yaml:$2" "$T/err"
}
bad "vmstat:
  interval: 2x" "4:13: vmstat.interval: '2x' is not a number of seconds 0.01..86400 (e.g. 2 or 0.5)$"
bad "sched_debug: {interval: 0}" "3:25: sched_debug.interval: '0' is not a number of seconds 0.01..86400"
bad "vmstat:
  interval: [1, x]" "4:17: vmstat.interval: 'x' is not a number of seconds"
bad "perf-profile:
  delay: -1" "4:10: perf-profile.delay: '-1' is not a number of seconds 0..86400"
# a list of intervals is an axis: one boot each
printf 'suite: netperf\nruntime: 3s\nvmstat:\n  interval: [1, 2]\nnetperf:\n  test: TCP_STREAM\n' >"$T/axis.yaml"
"$BENCHBOOT" check "$T/axis.yaml" >"$T/out" 2>&1 || fail "check: $(cat "$T/out")"
expect_grep "^boot 0: monitor.vmstat.interval=1 " "$T/out"
expect_grep "^boot 1: monitor.vmstat.interval=2 " "$T/out"

# --set NAME.OPTION=VALUE overrides one option, as for a program's block
"$BENCHBOOT" check -v --set vmstat.interval=3 "$job" >"$T/out" 2>&1 || fail "check --set: $(cat "$T/out")"
expect_grep "^monitor.vmstat.interval=3$" "$T/out"
expect_grep "^monitor.proc-vmstat.interval=0.5$" "$T/out"
rc=0
"$BENCHBOOT" check --set vmstat.interval=-1 "$job" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check --set vmstat.interval=-1: exit code" "$rc" 100
expect_grep "^benchboot check: --set vmstat.interval=-1:2:13: vmstat.interval: '-1' is not a number of seconds" "$T/err"

# run --monitors: bad lists are usage errors (exit 100), nothing built
runbad() { # runbad LIST MESSAGE
	local rc=0
	"$BENCHBOOT" run "$job" --monitors "$1" --images "$T/images" -o "$T/res" >"$T/out" 2>"$T/err" || rc=$?
	expect_eq "run --monitors '$1': exit code" "$rc" 100
	expect_grep "^benchboot run: --monitors $1: $2" "$T/err"
	[ ! -e "$T/images" ] && [ ! -e "$T/res" ] || fail "run --monitors '$1' built or wrote something"
}
runbad vmstt "'vmstt' is not a monitor (did you mean 'vmstat'?) (benchboot runs: vmstat proc-vmstat "
runbad vmstat,iostat "'iostat': LKP's monitor, not implemented by benchboot (it runs: vmstat "
runbad turbostat "'turbostat': reads the CPUs' MSRs, which QEMU's TCG CPUs do not have"
runbad vmstat,,uptime "expected none, default, or monitor names separated by commas (vmstat,uptime)$"
runbad "" "expected none, default, or monitor names separated by commas"
runbad none,vmstat "'none' stands alone, not in a list of names$"
"$BENCHBOOT" run --help >"$T/help"
expect_grep "^  --monitors none|default|LIST  the monitors every boot runs instead of the job's:$" "$T/help"
echo "check: options, default set, minus keys and reasons as expected; run --monitors refuses bad lists"

# where they run (`monitored:`): by default one monitored iteration of each run, kept apart, the
# measured ones clean (the plan writes nothing: the init's default is 1); `monitored: 0` (here
# through --set) in every measured iteration, as LKP, in the plan; a bad count is an error
"$BENCHBOOT" check -v "$job" >"$T/out" 2>"$T/err" || fail "check: $(cat "$T/err")"
expect_grep "^  monitored: 1 iteration of each run with the monitors, after the measured ones (runs/RUNID/monitored-K); the measured iterations run without them" "$T/out"
expect_grep "^total: 1 boot, 1 run, 1 iteration + 1 monitored, " "$T/out"
if grep -q "^monitored=" "$T/out"; then fail "the default monitored count written into the plan"; fi
"$BENCHBOOT" check -v "$job" --set monitored=0 >"$T/out0" 2>"$T/err0" || fail "check --set monitored=0: $(cat "$T/err0")"
expect_grep "^  monitored: 0, the monitors run in every measured iteration as LKP runs them" "$T/out0"
expect_grep "^monitored=0$" "$T/out0"
# a netperf run with confidence options (3 to 30 measurements of 30 s): its monitored iteration
# makes one 30 s measurement, without -i and -I, and the estimate counts it so
"$BENCHBOOT" check -v config/jobs/netperf-tcp-stream.yaml >"$T/conf" 2>"$T/conf.err" ||
	fail "check netperf-tcp-stream: $(cat "$T/conf.err")"
expect_grep "^monitored.runtime=30$" "$T/conf"
sed -n 's/^monitored.client.arg=//p' "$T/conf" | paste -sd' ' >"$T/conf.argv"
expect_grep "^/usr/bin/netperf -4 -H 127.0.0.1 -t TCP_STREAM -c -C -l 30 -- -m 4096 -s 57344 -S 57344$" "$T/conf.argv"
expect_grep "^client.arg=99,5$" "$T/conf"
expect_grep "estimated wall time 2m19s to 15m49s " "$T/conf"
rc=0
"$BENCHBOOT" check "$job" --set monitored=11 >"$T/out11" 2>&1 || rc=$?
expect_eq "check --set monitored=11: exit code" "$rc" 100
expect_grep "monitored: '11' is not a number of monitored iterations 0..10" "$T/out11"
