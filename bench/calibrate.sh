# Calibration with the power to show a rate (docs/compare.md, "Calibration with power"): A/A
# comparisons in numbers that can tell a 5% false-positive rate from 10%, resumable.
#
#   kernel-par  KPAR (default 100) comparisons of the kernel axis side by side: the pinned
#               kernel booted as two kernels A and B (the same file: nothing differs), 4 boots
#               a side, `--parallel 2`, each VM on its own host CPU;
#   kernel-seq  KSEQ (40) of the same, one boot at a time;
#   run         RUNAA (100) run-level A/A comparisons: 4 boots (side by side) each holding both
#               values of an axis that changes nothing (kernel.printk_ratelimit 5 and 6), in
#               the init's counterbalanced order.
#
# The job: netperf SCTP_STREAM_MANY, 1 client, ITER (1) iterations of RUNTIME (2s) per value,
# 1 vCPU, 1 GB; `--repeat 4` boots each kernel (or the run-level job) 4 times. Each comparison
# is its own `benchboot run` into OUT/KIND-N (OUT default
# ~/.cache/benchboot/calibration) and its `benchboot compare --json` into OUT/KIND-N.json: a
# comparison with its JSON is done, one without is booted again from nothing, so the command
# can stop (Ctrl-C, the end of a day) and go on later with the same OUT. REPORT=1 boots
# nothing and reports on what OUT holds. bench/calibrate.py reports per kind: how often
# benchboot's mark (I) and LKP's (L) fire, each with its exact one-sided 95% upper bound
# (Clopper-Pearson), the median half-width of I's interval against the spread of the
# %changes, and for the kernel axis the same boots analysed as pairs (the partners that ran
# side by side) and as independent boots (Welch). About 1,500 boots, about 4 hours under TCG on
# 2 CPUs with the defaults.
# bench/run: by hand (about 4 hours of boots: bench/calibrate.sh)
. tests/lib.sh
bb_need init netperf sysroot kernel qemu
command -v python3 >/dev/null || skip "python3 is needed to read compare's JSON"
KPAR=${KPAR:-100}
KSEQ=${KSEQ:-40}
RUNAA=${RUNAA:-100}
ITER=${ITER:-1}
RUNTIME=${RUNTIME:-2s}
OUT=${OUT:-$CACHE/calibration}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
vmlinuz=$(ls "$SYSROOT"/boot/vmlinuz-* 2>/dev/null | head -n1)
[ -n "$vmlinuz" ] || skip "no pinned kernel (make fetch)"
. bench/calibration.inc
calib_job "$OUT/kernel.yaml" 10K 1 ""
calib_job "$OUT/run.yaml" 10K 1 "sysctl:
  kernel.printk_ratelimit: [5, 6]"

# one comparison: KIND N, booted unless its JSON is there
compare_one() {
	local kind=$1 i=$2 dir="$OUT/$1-$2" rc=0 args=() by=kernel
	[ -s "$dir.json" ] && return 0
	rm -rf "$dir" "$dir.log"
	case $kind in
	kernel-par) args=(--kernel "A=$vmlinuz" --kernel "B=$vmlinuz" --repeat 4 --parallel 2) ;;
	kernel-seq) args=(--kernel "A=$vmlinuz" --kernel "B=$vmlinuz" --repeat 4) ;;
	run) args=(--repeat 4 --parallel 2) by=printk_ratelimit ;;
	esac
	local job=$OUT/kernel.yaml
	[ "$kind" = run ] && job=$OUT/run.yaml
	bb_timeout 1800 "$BENCHBOOT" run "$job" --accel tcg --cpus 1 --mem 1024 "${args[@]}" \
		--images "$OUT/images" -o "$dir" --no-store >"$dir.log" 2>&1 || rc=$?
	if [ "$rc" -gt 1 ]; then
		tail -n 15 "$dir.log"
		fail "$kind $i: benchboot run ended with exit $rc ($dir.log)"
	fi
	calib_compare "$dir" "$by" "$dir.json.new"
	[ -s "$dir.json.new" ] && mv "$dir.json.new" "$dir.json"
	echo "$kind $i: exit $rc, $(grep -c '^  boot [0-9]*: .*finished' "$dir.log") boots finished, load $(cut -d' ' -f1 /proc/loadavg)"
}

if [ "${REPORT:-0}" != 1 ]; then
	echo "calibration into $OUT: $KPAR side by side, $KSEQ one at a time, $RUNAA run-level; host load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
	for ((i = 0; i < KPAR || i < KSEQ || i < RUNAA; i++)); do
		[ "$i" -lt "$KPAR" ] && compare_one kernel-par "$i"
		[ "$i" -lt "$KSEQ" ] && compare_one kernel-seq "$i"
		[ "$i" -lt "$RUNAA" ] && compare_one run "$i"
	done
	echo "done: host load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
fi
python3 bench/calibrate.py "$OUT"
