# --set KEY=VALUE (check, build, run) overrides a job's key as LKP's split-job --set does, and
# check says what a 0-day job gets of 0-day's machine: its rootfs's cgroup layout, the kernel
# command line words applied and those left out (with the reason), the boots of repeat_to.
. tests/lib.sh
J=tests/fixtures/lkp/zday-rootfs.yaml

"$BENCHBOOT" check -v "$J" >"$T/plain" 2>"$T/plain.err" || fail "check $J: exit $?"
"$BENCHBOOT" check -v --set runtime=10s "$J" --set netperf.send_size=4K >"$T/set" 2>"$T/set.err" ||
	fail "check --set runtime=10s $J: exit $? ($(cat "$T/set.err"))"
# the plan changes: the runtime, the netperf option in its block, the overrides recorded
expect_grep '^param.runtime=300s$' "$T/plain"
expect_grep '^param.runtime=10s$' "$T/set"
! grep -q '^param.runtime=300s$' "$T/set" || fail "--set runtime=10s left runtime=300s in a plan"
expect_grep '^param.send_size=4K$' "$T/set"
expect_grep '^job.set=runtime=10s$' "$T/set"
expect_grep '^job.set=netperf.send_size=4K$' "$T/set"
! grep -q '^job.set=' "$T/plain" || fail "a plan without --set has job.set lines"
expect_grep '^  overridden: --set runtime=10s ' "$T/set"
expect_grep 'run TCP_STREAM.*: 1 x 10s' "$T/set"
expect_grep 'run TCP_STREAM: 1 x 5m00s' "$T/plain"
# an override of a list makes an axis: two runs per boot
"$BENCHBOOT" check --set 'nr_threads=[1, 2]' "$J" >"$T/axis" || fail "check --set nr_threads=[1, 2]: exit $?"
expect_grep '^total: 2 boots, 4 runs' "$T/axis"

# a bad --set is bad usage (100), before any work: no '=', no key, a key LKP cannot have
code() { # WHAT ARGS...
	local what=$1 rc=0
	shift
	"$BENCHBOOT" "$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
	expect_eq "$what: benchboot $*: exit code (stderr: $(head -c 300 "$T/err"))" "$rc" 100
}
for verb in check build run; do
	code "no '='" $verb --set runtime "$J"
	expect_grep "^benchboot $verb: --set runtime: expected KEY=VALUE" "$T/err"
	code "no key" $verb --set =10s "$J"
done
code "a key with a blank" check --set 'run time=10s' "$J"
expect_grep 'expected KEY=VALUE' "$T/err"
code "a value that is not YAML" check --set 'runtime=[10s' "$J"
code "--set without a job" run --set runtime=10s --initrd "$T/none"
expect_grep 'give a JOB file' "$T/err"
code "--set without a job" build --set runtime=10s --name x
expect_grep 'give a JOB.yaml' "$T/err"

# check on a 0-day job: the rootfs layout of each boot, the cmdline split, repeat_to
expect_grep '^  rootfs debian-11.1-x86_64-20220510.cgz: Debian 11 (bullseye), systemd 247, unified hierarchy, memory pids controllers on: job in /system.slice/lkp-bootstrap.service (cgroup.mode=v2)$' "$T/plain"
expect_grep '^  rootfs debian-10.4-x86_64-20200603.cgz: Debian 10 (buster), systemd 241, hybrid hierarchy, .*(cgroup.mode=hybrid)$' "$T/plain"
expect_grep '^  bootloader_append: applied (the boot.s kernel command line): nokaslr selinux=0 sysrq_always_enabled rcupdate.rcu_cpu_stall_timeout=100 softlockup_panic=1$' "$T/plain"
expect_grep '^  bootloader_append: left out (0-day.s rootfs and initrds: .*): root=/dev/ram0$' "$T/plain"
expect_grep '^  bootloader_append: left out (read by LKP.s boot scripts .*): RESULT_ROOT=.* LKP_SERVER=lkp-server.example$' "$T/plain"
expect_grep '^  bootloader_append: left out (0-day.s consoles.*): console=ttyS0,115200$' "$T/plain"
expect_grep '^repeat_to 2: 4 boots by repeat_to ' "$T/plain"
[ ! -s "$T/plain.err" ] || { cat "$T/plain.err"; fail "check $J: warnings on stderr"; }

# the job's own cgroup setup wins over the rootfs's layout, and check says so
# (one rootfs: with the job's own setup both rootfs of the axis would be the same run)
one=rootfs=debian-11.1-x86_64-20220510.cgz
"$BENCHBOOT" check --set $one --set cgroup=v1 "$J" >"$T/own" || fail "check --set cgroup=v1: exit $?"
expect_grep "^  rootfs debian-11.1-x86_64-20220510.cgz: not its systemd's layout: the job's own cgroup setup wins (cgroup.mode=v1)" "$T/own"
# systemd.unified_cgroup_hierarchy=0 on the command line: debian-11's systemd falls back to hybrid
"$BENCHBOOT" check --set $one --set 'kernel_cmdline=systemd.unified_cgroup_hierarchy=0' "$J" >"$T/v1" ||
	fail "check --set kernel_cmdline=...: exit $?"
expect_grep '^  rootfs debian-11.1-.*; cgroup.mode=hybrid: the kernel command line.s systemd.unified_cgroup_hierarchy=0$' "$T/v1"
echo "--set changes the plan and records itself; bad --set exits 100; check shows rootfs, cmdline, repeat_to"
