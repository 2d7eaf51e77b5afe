# benchboot run on real jobs (TCG): (1) two boot groups (cgroup v1 and v2), results collected
# from the results disk and compared; (2) a job whose second boot group cannot boot (rdinit
# points nowhere: the kernel panics): reported, and the first group's results are there.
. tests/lib.sh
bb_need init netperf qemu

cat >"$T/cg.yaml" <<'JOB'
suite: netperf
runtime: 3s
iterations: 2
nr_threads: 1
cluster: cs-localhost
cgroup:
  mode: [v1, v2]
  controllers: memory
if role server:
  netserver:
if role client:
  netperf:
    test: TCP_STREAM
JOB
rc=0
bb_timeout 1200 "$BENCHBOOT" run "$T/cg.yaml" --accel tcg --images "$T/images" -o "$T/cg" >"$T/cg.out" 2>&1 || rc=$?
cat "$T/cg.out"
expect_eq "cgroup job: exit code" $rc 0
expect_grep "boot 1/2: kernel .*, boot group 0" "$T/cg.out"
expect_grep "boot 2/2: kernel .*, boot group 1" "$T/cg.out"
expect_grep "run 1/1 TCP_STREAM iteration 2: ok" "$T/cg.out"
# TCG, the default 2 vCPUs: warned once (two boots) when they crowd the host's CPUs
expect_vcpu_warning "$T/cg.out" "$T/cg/run.json" 2
[ "$(find "$T/cg" -mindepth 1 -maxdepth 1 -name '0*-*' -type d | wc -l)" = 2 ] || fail "expected 2 boot folders in $T/cg"
bb_compare "$T/cmp.out" "$T/cg" --by cgroup.mode --all
expect_grep "^A: cgroup.mode=v1 (1 boot)" "$T/cmp.out"
expect_grep "^environment differences (A | B):" "$T/cmp.out"
expect_grep "^  cgroup.mounts  *only in A: .*; only in B: .*type=cgroup2" "$T/cmp.out"
expect_grep "^run .*test=TCP_STREAM" "$T/cmp.out"
expect_grep "  A: 1 run in 1 boot, cgroup.mode=v1   B: 1 run in 1 boot, cgroup.mode=v2" "$T/cmp.out"
expect_grep " netperf.Throughput_Mbps$" "$T/cmp.out"

cat >"$T/bad.yaml" <<'JOB'
suite: netperf
runtime: 3s
nr_threads: 1
cluster: cs-localhost
kernel_cmdline: ["quiet", "rdinit=/no/such/init"]
if role server:
  netserver:
if role client:
  netperf:
    test: TCP_STREAM
JOB
rc=0
bb_timeout 1200 "$BENCHBOOT" run "$T/bad.yaml" --accel tcg --images "$T/images" -o "$T/bad" >"$T/bad.out" 2>&1 || rc=$?
cat "$T/bad.out"
expect_eq "job with a panicking boot: exit code" $rc 1
expect_grep "boot 1/2: finished in" "$T/bad.out"
expect_grep "boot 2/2: FAILED (panic after .*Kernel panic - not syncing" "$T/bad.out"
[ "$(find "$T/bad" -mindepth 1 -maxdepth 1 -name '0*-*' -type d | wc -l)" = 1 ] || fail "expected the first boot's folder"
ls "$T"/bad/0*-*/runs/TCP_STREAM*/results.json >/dev/null || fail "the first boot's results are missing"
expect_grep '"outcome": "panic"' "$T/bad/run.json"
if pgrep -f -- "$T/images" >/dev/null; then fail "a QEMU is still running"; fi
