# compare's calibration: how often each mark fires when nothing changes (A/A), and how many
# boots it takes to see a known change (power). docs/compare.md explains the design.
#
# A/A: one job whose run-level axis cannot matter (kernel.printk_ratelimit 5 vs 6, the same
# kernel and image), netperf SCTP_STREAM_MANY, 2 clients, 10K messages, ITER iterations of
# RUNTIME per value in every boot, AA x PER boots. Every PER consecutive boots are one
# comparison (both values ran in each boot: paired by boot), compared with `benchboot compare
# --by printk_ratelimit --json`; the script counts how often benchboot's mark (I: the 95%
# interval of the throughput's %change excludes 0) and LKP's mark (L) fire on
# netperf.Throughput_Mbps, and, per single boot, how often the iterations-only interval
# excludes 0 (what a one-boot comparison would claim). Expected for I at 95%: about 5%.
#
# Power: send_size 10K vs 5K (fewer bytes per send: less throughput), POWER boots; compared
# on the first k boots for k = 2..POWER, printing the interval at each k and the first k from
# which I stays set.
#
# Small: pairs of consecutive boots (one per order of the turned run order, docs/compare.md
# "Counterbalanced order") compared as a user with 2 boots would: neither mark may fire.
#
# Warm-up: from the same A/A boots, bench/position-effect.py tells whether the first iteration
# of a boot differs from the others (docs/compare.md "Warm-up").
#
# The run order within a boot is the init's: all iterations of one value, then the other's
# (blocked), unless the init interleaves them; the script prints which order env.json
# records, if any. Environment: AA (default 20), PER (3), POWER (6), RUNTIME (2s), ITER (2),
# KEEP=DIR to keep the results and JSON there (default: a temporary folder, removed at the end).
# A boot that fails leaves fewer boots: comparisons are taken from the boots collected.
. tests/lib.sh
AA=${AA:-20}
PER=${PER:-3}
POWER=${POWER:-6}
RUNTIME=${RUNTIME:-2s}
ITER=${ITER:-2}
command -v python3 >/dev/null || skip "python3 is needed to read compare's JSON"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	rmdir "$T"
	T=$(cd "$KEEP" && pwd)
	BB_KEEP_TMP=1 # tests/lib.sh's cleanup leaves T alone
	echo "results kept in $T"
fi

. bench/calibration.inc
calib_job "$T/aa.yaml" 10K 2 "sysctl:
  kernel.printk_ratelimit: [5, 6]"
calib_job "$T/power.yaml" "[10K, 5K]" 2 ""

run() { # NAME BOOTS
	local start=$SECONDS rc=0
	echo "$1: $2 boots ..."
	bb_timeout $((600 + 120 * $2)) "$BENCHBOOT" run "$T/$1.yaml" --repeat "$2" -o "$T/$1" \
		--images "$T/images" >"$T/$1.log" 2>&1 || rc=$?
	grep -m1 '^accelerator:' "$T/$1.log" || true
	echo "$1: exit $rc, $((SECONDS - start)) s"
	grep 'FAILED' "$T/$1.log" || true
	[ "$rc" -le 1 ] || { tail -20 "$T/$1.log"; fail "benchboot run $1 failed"; }
}
echo "host load before: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min; $(nproc) CPUs)"
run aa $((AA * PER))
run power "$POWER"

echo "host load after: $(cut -d' ' -f1-3 /proc/loadavg)"
nboots=$(find "$T/aa" -mindepth 1 -maxdepth 1 -type d -name '0*-*' | wc -l)
for ((i = 0; (i + 1) * PER <= nboots && i < AA; i++)); do
	calib_group "$T/aa" $((i * PER)) "$PER" "$T/aa-$i"
	calib_compare "$T/aa-$i" printk_ratelimit "$T/aa-$i.json"
done
# the small-boot case: 2 consecutive boots (rounds 2i and 2i+1: one in each order)
for ((i = 0; 2 * i + 2 <= nboots && i < AA; i++)); do
	calib_group "$T/aa" $((2 * i)) 2 "$T/two-$i"
	calib_compare "$T/two-$i" printk_ratelimit "$T/two-$i.json"
done
for ((i = 0; i < nboots; i++)); do
	calib_group "$T/aa" "$i" 1 "$T/one-$i"
	calib_compare "$T/one-$i" printk_ratelimit "$T/one-$i.json"
done
for ((k = 2; k <= POWER; k++)); do
	calib_group "$T/power" 0 "$k" "$T/power-$k"
	calib_compare "$T/power-$k" send_size "$T/power-$k.json"
done
order=$(python3 -c 'import json,glob,sys
for f in sorted(glob.glob(sys.argv[1] + "/0*/env.json")):
    e = json.load(open(f)); print(e.get("run_order") or e.get("order") or "blocked (not recorded)"); break' "$T/aa")
python3 - "$T" "$AA" "$PER" "$POWER" "$order" <<'PY'
import json, statistics, sys
sys.path.insert(0, "bench")
import compare_json
T, AA, PER, POWER, order = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
STAT = "netperf.Throughput_Mbps"
def stat(path):
    return compare_json.stat(path, STAT)
def fmt(s):
    ivs = compare_json.interval_text(s)
    return "%+6.1f%% %-16s %s%s" % (s["change_percent"], ivs, "I" if s["interval_changed"] else " ",
                                   "L" if s["lkp_changed"] else " ")
print("run order within a boot: %s" % order)
print("A/A: up to %d comparisons of %d boots each (printk_ratelimit 5 vs 6, %s)" % (AA, PER, STAT))
n = i_marks = l_marks = 0
for i in range(AA):
    s = stat("%s/aa-%d.json" % (T, i))
    if not s:
        print("  comparison %d: no %s" % (i + 1, STAT)); continue
    n += 1
    i_marks += s["interval_changed"]
    l_marks += s["lkp_changed"]
    print("  %2d: %s" % (i + 1, fmt(s)))
# 2 boots, one in each order: the order effect taken out leaves no degree of freedom
two = two_i = two_l = 0
effects = []
for i in range(AA):
    s = stat("%s/two-%d.json" % (T, i))
    if not s:
        continue
    two += 1
    two_i += s["interval_changed"]
    two_l += s["lkp_changed"]
    if s["interval"].get("order_effect_percent") is not None:
        effects.append(s["interval"]["order_effect_percent"])
if two:
    print("A/A of 2 boots (one per order): I %d of %d, L %d of %d; order effect (second slot vs first) mean %s over %d"
          % (two_i, two, two_l, two, "%+.2f%%" % statistics.mean(effects) if effects else "-", len(effects)))
one = one_n = 0
for i in range(AA * PER):
    try:
        s = stat("%s/one-%d.json" % (T, i))
    except (OSError, ValueError):
        s = None
    if s and s["interval"]["basis"] == "iterations":
        one_n += 1
        one += s["interval"]["excludes_zero"]
if n:
    print("false positives: I (benchboot, 95%%, boot-level) %d of %d = %.0f%%; L (LKP) %d of %d = %.0f%%"
          % (i_marks, n, 100.0 * i_marks / n, l_marks, n, 100.0 * l_marks / n))
if one_n:
    print("one boot a side, iterations-only interval excluding 0: %d of %d boots = %.0f%% (why one boot claims nothing)"
          % (one, one_n, 100.0 * one / one_n))
# the two spreads of Kalibera and Jones' two levels, from side A of the single boots
import statistics
means, within = [], []
for i in range(AA * PER):
    try:
        s = stat("%s/one-%d.json" % (T, i))
    except (OSError, ValueError):
        s = None
    if s and len(s["a"]["values"]) >= 2:
        v = s["a"]["values"]
        means.append(statistics.mean(v))
        within.append(statistics.stdev(v) / statistics.mean(v))
if len(means) >= 2:
    print("spread (printk_ratelimit=5): boot to boot %.1f%% (CV of %d per-boot means), within a boot %.1f%% (mean CV of the iterations)"
          % (100 * statistics.stdev(means) / statistics.mean(means), len(means), 100 * statistics.mean(within)))
print("power: send_size 10K vs 5K, first k boots")
first = None
for k in range(2, POWER + 1):
    s = stat("%s/power-%d.json" % (T, k))
    if not s:
        continue
    print("  k=%d: %s" % (k, fmt(s)))
    if s["interval_changed"]:
        first = k if first is None else first
    else:
        first = None
print("power: I set from %s boots a side on" % first if first else "power: I not set within %d boots" % POWER)
PY
python3 bench/position-effect.py "$T/aa"
