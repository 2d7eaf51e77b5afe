# benchboot run with two kernels and --repeat 2: boots alternate A, B, A, B; every boot carries
# its kernel's name (run.json), so `compare --by kernel` splits them. Both "kernels" are the
# pinned one here: the environment shows no difference and the table is still printed.
. tests/lib.sh
bb_need init netperf
vmlinuz=$(ls "$SYSROOT"/boot/vmlinuz-* 2>/dev/null | sed -n 1p)
[ -n "$vmlinuz" ] || skip "no pinned kernel (make fetch)"
cat >"$T/k.yaml" <<'JOB'
suite: netperf
runtime: 2s
nr_threads: 1
cluster: cs-localhost
if role server:
  netserver:
if role client:
  netperf:
    test: TCP_STREAM
JOB
rc=0
bb_timeout 1400 "$BENCHBOOT" run "$T/k.yaml" --kernel "A=$vmlinuz" --kernel "B=$vmlinuz" \
	--repeat 2 --accel tcg --images "$T/images" -o "$T/k" >"$T/k.out" 2>&1 || rc=$?
cat "$T/k.out"
expect_eq "exit code" $rc 0
grep "^boot [0-9]/4: kernel " "$T/k.out" | sed 's/,.*//' >"$T/order"
printf 'boot 1/4: kernel A\nboot 2/4: kernel B\nboot 3/4: kernel A\nboot 4/4: kernel B\n' >"$T/want"
diff -u "$T/want" "$T/order" || fail "boots not interleaved A, B, A, B"
expect_grep "compare: benchboot compare $T/k --by kernel" "$T/k.out"
bb_compare "$T/cmp.out" "$T/k" --by kernel --all
expect_grep "^A: kernel=A (2 boots)" "$T/cmp.out"
expect_grep "^B: kernel=B (2 boots)" "$T/cmp.out"
expect_grep "  A: 2 runs in 2 boots, kernel=A   B: 2 runs in 2 boots, kernel=B" "$T/cmp.out"
expect_grep " netperf.Throughput_Mbps$" "$T/cmp.out"
# two boots a side: the interval of the %change has the boot as its unit ([lo, hi], not the
# one-boot (lo, hi)), and --json carries it
expect_grep "^  intervals \[ \]: the boot is the unit (per-boot means of 2 and 2 boots, independent boots)$" "$T/cmp.out"
# (with 2 boots a side and 1-2 degrees of freedom the interval may be wide or unbounded)
grep -E -q ' \[(unbounded|-?[0-9.]+, -?[0-9.]+)\] .* netperf\.Throughput_Mbps$' "$T/cmp.out" ||
	fail "no [lo, hi] interval on netperf.Throughput_Mbps"
"$BENCHBOOT" compare "$T/k" --by kernel --all --json >"$T/cmp.json" || [ $? = 1 ]
grep -q '"basis": *"boots"' "$T/cmp.json" || fail "no boot-level interval in --json"
