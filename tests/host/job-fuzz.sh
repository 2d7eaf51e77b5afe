# The job parser under libFuzzer (tests/host/src/fuzz_job.c: parse, expand, write the plans),
# with the sanitizers, for BB_FUZZ_SECONDS (default 20), each input at most 10 s (a slower one
# is a hang: the fuzzer stops and the test fails). Its corpus starts from the project's jobs:
# config/jobs, the fixtures of LKP's and 0-day's jobs, and the hostile ones that once hung
# (deep [ nesting, a matrix of millions of runs), and in tests/fixtures/fuzz the inputs it once
# crashed on (cmdline-realloc.yaml: kernel_cmdline and bootloader_append read after a realloc).
. tests/lib.sh
command -v clang >/dev/null || skip "clang not installed"
make -s B="$B" "$B/tests/progs/fuzz-job" >"$T/cc.err" 2>&1 ||
	{ cat "$T/cc.err"; fail "the job fuzz target does not build"; }
mkdir -p "$T/seeds" "$T/corpus"
n=0
for j in config/jobs/*.yaml tests/fixtures/lkp/*.yaml tests/fixtures/monitors/*.yaml tests/fixtures/fuzz/*.yaml; do
	[ -f "$j" ] || continue
	[ "$(stat -c %s "$j")" -le 65536 ] || continue
	cp "$j" "$T/seeds/$n.yaml"
	n=$((n + 1))
done
printf 'suite: netperf\ntest: %s\n' "$(printf '[%.0s' $(seq 1 5000))" >"$T/seeds/nest.yaml"
{
	printf 'suite: netperf\nnr_threads: [%s]\nsysctl:\n' "$(seq -s, 1 20)"
	for i in 1 2 3 4 5; do printf '  net.core.x%s: [%s]\n' "$i" "$(seq -s, 1 30)"; done
} >"$T/seeds/matrix.yaml"
secs=${BB_FUZZ_SECONDS:-20}
(cd "$T" && "$BB_TOP/$B/tests/progs/fuzz-job" -max_total_time="$secs" -timeout=10 -max_len=65536 \
	-rss_limit_mb=2048 -print_final_stats=1 corpus seeds) >"$T/fuzz.log" 2>&1 ||
	{
		# the report's head (what and where), its summary and the input that did it
		grep -a -m1 -A30 -e '==ERROR' -e 'ERROR: libFuzzer' -e 'Deadly signal' "$T/fuzz.log" || tail -n 30 "$T/fuzz.log"
		grep -a -e '^SUMMARY' -e 'Test unit written' "$T/fuzz.log" || true
		for f in "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$T"/oom-* "$T"/slow-unit-*; do
			[ -f "$f" ] || continue
			echo "the input ($(stat -c %s "$f") bytes), escaped:"
			head -c 1500 "$f" | od -An -c | head -n 40
		done
		fail "the fuzzer found a crash, a leak or a hang"
	}
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$T/fuzz.log")
echo "job parser fuzzed for ${secs}s: $n seed jobs, ${runs:-?} inputs, no crash, leak or hang"
