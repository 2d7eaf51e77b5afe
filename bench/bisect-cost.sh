# The cost of a bisection here (issue: boots and wall time to find a known culprit among 8 and
# 16 candidates, and the wrong-culprit rate), against the two usual ways, in one run:
#   1. the boot-to-boot spread and the boot length measured on this machine: BOOTS boots of the
#      short stress-ng null job of the bisection tests (tests/qemu/bisect.inc) on the pinned
#      kernel (CV of the per-boot means of stress-ng.null.ops_per_sec; wall time a boot);
#   2. bench/bisect_cost.c: RUNS seeded bisections a line (8 and 16 candidates; a step of -2%,
#      -5%, -10%, -20% or -50% at a random candidate; 2% of boots failing) decided by
#      benchboot's decision core (the defaults), by hand with one boot a candidate, and by
#      LKP's min..max separation with 3 boots a candidate, on the same boots' generator.
# CV=0.03 BOOT_S=20 skip step 1. BOOTS (default 8), RUNS (default 1000), ACCEL (default auto).
set -euo pipefail
cd "$(dirname "$0")/.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
BOOTS=${BOOTS:-8} RUNS=${RUNS:-1000}
mkdir -p build/bench
cc -O2 -std=gnu11 -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE -Ilib -o build/bench/bisect-cost \
	bench/bisect_cost.c build/libbenchboot-host.a \
	$(make -s --no-print-directory print-host-libs)

if [ -z "${CV:-}" ] || [ -z "${BOOT_S:-}" ]; then
	cat >"$T/null.yaml" <<'JOB'
suite: stress-ng
nr_threads: 1
testtime: 3s
iterations: 2
stress-ng:
  test: "null"
JOB
	start=$(date +%s)
	timeout --signal=KILL $((BOOTS * 120 + 300)) ./build/benchboot run "$T/null.yaml" --repeat "$BOOTS" \
		--accel "${ACCEL:-auto}" --images "$T/images" -o "$T/res" >"$T/run.out" 2>&1 ||
		{ tail -20 "$T/run.out"; echo "bench: the boots to measure the spread failed" >&2; exit 1; }
	took=$(($(date +%s) - start))
	read -r CV BOOT_S < <(python3 - "$T/res" "$took" "$BOOTS" <<'PY'
import glob, json, statistics, sys
res, took, boots = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
means = []
for f in sorted(glob.glob(res + "/[0-9]*/runs/*/results.json")):
    vals = json.load(open(f)).get("stress-ng.null.ops_per_sec", [])  # LKP style: a stat's iterations
    if vals:
        means.append(sum(vals) / len(vals))
if len(means) < 3:
    sys.exit("bench: fewer than 3 boots with stress-ng.null.ops_per_sec in " + res)
print("%.4f %.1f" % (statistics.stdev(means) / statistics.mean(means), took / boots))
PY
	)
	echo "measured here: $BOOTS boots of the stress-ng null job, CV of the per-boot means $CV, $BOOT_S s a boot ($(grep -o 'accelerator: [A-Z]*' "$T/run.out" | head -n1))"
fi
./build/bench/bisect-cost "$CV" "$BOOT_S" "$RUNS"
