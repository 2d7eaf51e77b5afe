# Every job of config/jobs as it ships (its runtime, its iterations, LKP's default monitors),
# booted under TCG once per VM shape, CPUS="1 2 4" vCPUs by default: does each end with exit 0,
# how long does it take against `check`'s estimate, and do its monitored iterations give
# perf-stat's and perf-profile's stats where the job runs them. JOBS="a b" picks jobs (names
# without .yaml), FIXTURES=1 adds the 0-day attachment fixtures as they ship
# (tests/fixtures/lkp/zday-*.yaml). Hours of boots: not part of `make bench` (bench/run skips
# it); run it by hand. Resumable: each job and shape keeps its line in OUT (default
# ~/.cache/benchboot/jobs-as-shipped/results), and a second run boots only what has no line.
# bench/run: by hand (hours of boots)
. tests/lib.sh
bb_need init netperf sysroot kernel qemu
OUT=${OUT:-$CACHE/jobs-as-shipped}
CPUS=${CPUS:-1 2 4}
mkdir -p "$OUT"
touch "$OUT/results"
jobs=()
if [ -n "${JOBS:-}" ]; then
	for j in $JOBS; do jobs+=("config/jobs/$j.yaml"); done
else
	jobs=(config/jobs/*.yaml)
fi
[ "${FIXTURES:-0}" = 1 ] && jobs+=(tests/fixtures/lkp/zday-*.yaml)
for cpus in $CPUS; do
	for job in "${jobs[@]}"; do
		name=$(basename "$job" .yaml)
		if grep -q "^$name cpus=$cpus " "$OUT/results"; then
			echo "$name --cpus $cpus: done before: $(grep "^$name cpus=$cpus " "$OUT/results")"
			continue
		fi
		est=$("$BENCHBOOT" check "$job" 2>/dev/null | sed -n 's/.*estimated wall time \([^ ]*\( to [^ ]*\)\?\) .*/\1/p')
		res="$OUT/res-$name-$cpus"
		rm -rf "$res"
		echo "$name --cpus $cpus: booting (check estimates ${est:-?})"
		start=$(date +%s)
		rc=0
		bb_timeout 7200 "$BENCHBOOT" run "$job" --accel tcg --cpus "$cpus" --images "$T/images" \
			-o "$res" >"$OUT/$name-$cpus.out" 2>&1 || rc=$?
		wall=$(($(date +%s) - start))
		perf=$(python3 - "$res" <<'PY'
import glob, json, os, sys
# per perf monitor: monitored iterations with stats / those where it ran
seen, stats = {}, {}
for st in glob.glob(os.path.join(sys.argv[1], "*", "runs", "*", "monitored-*", "monitor.*.status*")):
    m = os.path.basename(st).split(".")[1]
    if not m.startswith("perf-"):
        continue
    seen[m] = seen.get(m, 0) + 1
    rj = os.path.join(os.path.dirname(st), "results.json")
    try:
        r = json.load(open(rj))
    except (OSError, ValueError):
        continue
    stats[m] = stats.get(m, 0) + any(k.startswith(m + ".") for k in r)
print(" ".join("%s=%d/%d" % (m, stats.get(m, 0), n) for m, n in sorted(seen.items())) or "no-perf-monitors")
PY
)
		line="$name cpus=$cpus exit=$rc wall=${wall}s estimate=${est:-?} $perf"
		echo "$line" | tee -a "$OUT/results"
		[ "$rc" = 0 ] || tail -n 15 "$OUT/$name-$cpus.out"
	done
done
echo "== $OUT/results"
sort "$OUT/results"
if grep -v " exit=0 " "$OUT/results" >/dev/null; then
	echo "not every job ended with exit 0 (the .out files in $OUT say why)"
fi
