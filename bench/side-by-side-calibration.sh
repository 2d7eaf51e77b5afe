# Side by side against one at a time (`benchboot run --parallel 2` against the default), in one
# run, on the same job and kernel (docs/compare.md "Side by side: calibration"):
#
# A/A: the pinned kernel booted as two "kernels" A and B (the same file: nothing differs),
# netperf SCTP_STREAM_MANY, 1 client, ITER iterations of RUNTIME, 1 vCPU per VM. AA x PER
# rounds (an A boot and a B boot each) one at a time, then the same side by side; every PER
# consecutive rounds are one comparison (`benchboot compare --by kernel --json`), and the
# script counts how often benchboot's mark (I: the 95% interval of the throughput's %change
# excludes 0) fires on netperf.Throughput_Mbps: expected at most 5% in both modes. The wall
# time of each mode is printed, and the ratio.
#
# --until: `--until UNTIL` (default 2%) on the A/A and on a known change (kernel B booted with
# KNOWN, default pti=on: page table isolation forced, -44% on this job under TCG, on its
# command line: a kernel-side cost), one at a time and side by side: the boots, the wall
# time, whether it settled and the interval it ended with.
# Aim (issue 28): side by side in half the wall time of one at a time, or less, at the same
# false-positive rate.
#
# Environment: AA (default 20), PER (3), ITER (1), RUNTIME (3s), UNTIL (2%), MAXBOOTS (20),
# KNOWN (pti=on), KEEP=DIR to keep the results there. About 2 x AA x PER x 2 boots:
# with the defaults 240 boots, about two hours under TCG on 2 CPUs.
. tests/lib.sh
AA=${AA:-20}
PER=${PER:-3}
ITER=${ITER:-1}
RUNTIME=${RUNTIME:-3s}
UNTIL=${UNTIL:-2%}
MAXBOOTS=${MAXBOOTS:-20}
KNOWN=${KNOWN:-pti=on}
command -v python3 >/dev/null || skip "python3 is needed to read compare's JSON"
[ "$(nproc)" -ge 2 ] || skip "side by side needs 2 host CPUs, this host has $(nproc)"
vmlinuz=$(ls "$SYSROOT"/boot/vmlinuz-* 2>/dev/null | head -n1)
[ -n "$vmlinuz" ] || skip "no pinned kernel (make fetch)"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	rmdir "$T"
	T=$(cd "$KEEP" && pwd)
	BB_KEEP_TMP=1
	echo "results kept in $T"
fi
. bench/calibration.inc
calib_job "$T/aa.yaml" 10K 1 ""
# the known change: the boot-level axis of the kernel command line, B with KNOWN
calib_job "$T/known.yaml" 10K 1 "kernel_cmdline: [printk.time=1, $KNOWN]"

run() { # NAME JOB MODE(seq|par) ARGS...: benchboot run, its wall time into $T/NAME.time
	local name=$1 jobf=$2 mode=$3 start=$SECONDS rc=0 par=()
	shift 3
	[ "$mode" = par ] && par=(--parallel 2)
	bb_timeout $((900 + 200 * AA * PER)) "$BENCHBOOT" run "$jobf" --accel tcg --cpus 1 "${par[@]}" \
		--images "$T/images" -o "$T/$name" "$@" >"$T/$name.log" 2>&1 || rc=$?
	echo $((SECONDS - start)) >"$T/$name.time"
	echo "$name: exit $rc, $((SECONDS - start)) s$(grep -m1 '^until: stopped' "$T/$name.log" | sed 's/^/; /')"
	[ "$rc" -le 1 ] || { tail -20 "$T/$name.log"; fail "benchboot run $name failed"; }
}
echo "host load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
kern=(--kernel "A=$vmlinuz" --kernel "B=$vmlinuz")
for mode in seq par; do
	run "aa-$mode" "$T/aa.yaml" "$mode" "${kern[@]}" --repeat $((AA * PER))
done
for mode in seq par; do
	run "until-aa-$mode" "$T/aa.yaml" "$mode" "${kern[@]}" --until "$UNTIL" --max-boots "$MAXBOOTS"
	run "until-known-$mode" "$T/known.yaml" "$mode" --until "$UNTIL" --by kernel_cmdline \
		--max-boots "$MAXBOOTS"
done
echo "host load after: $(cut -d' ' -f1-3 /proc/loadavg)"

for mode in seq par; do
	n=$(find "$T/aa-$mode" -mindepth 1 -maxdepth 1 -type d -name '0*-*' | wc -l)
	for ((i = 0; (i + 1) * 2 * PER <= n && i < AA; i++)); do
		calib_group "$T/aa-$mode" $((i * 2 * PER)) $((2 * PER)) "$T/aa-$mode-$i"
		calib_compare "$T/aa-$mode-$i" kernel "$T/aa-$mode-$i.json"
	done
	calib_compare "$T/until-aa-$mode" kernel "$T/until-aa-$mode.json"
	calib_compare "$T/until-known-$mode" kernel_cmdline "$T/until-known-$mode.json"
done
python3 - "$T" "$AA" "$PER" "$UNTIL" "$KNOWN" <<'PY'
import glob, os, sys
sys.path.insert(0, "bench")
import compare_json
T, AA, PER, UNTIL, KNOWN = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
STAT = "netperf.Throughput_Mbps"
def stat(path):
    return compare_json.stat(path, STAT)
iv = compare_json.interval_text
def secs(name):
    return int(open(os.path.join(T, name + ".time")).read())
def boots(name):
    return len(glob.glob(os.path.join(T, name, "0*-*")))
print("A/A: %d comparisons of %d rounds (an A and a B boot each), %s" % (AA, PER, STAT))
rate = {}
for mode, what in (("seq", "one at a time"), ("par", "side by side")):
    n = marks = 0
    for i in range(AA):
        s = stat("%s/aa-%s-%d.json" % (T, mode, i))
        if s:
            n += 1
            marks += s["interval_changed"]
    rate[mode] = 100.0 * marks / n if n else float("nan")
    print("  %-13s: I fired %d of %d = %.0f%%; %d boots in %d s (%.1f s a boot)" % (
        what, marks, n, rate[mode], boots("aa-" + mode), secs("aa-" + mode),
        secs("aa-" + mode) / max(1, boots("aa-" + mode))))
print("  wall time side by side / one at a time: %.2f (aim: 0.5 or less)" % (secs("aa-par") / max(1, secs("aa-seq"))))
for case, key in (("aa", "A/A"), ("known", "B with " + KNOWN)):
    print("--until %s, %s:" % (UNTIL, key))
    for mode, what in (("seq", "one at a time"), ("par", "side by side")):
        name = "until-%s-%s" % (case, mode)
        s = stat(os.path.join(T, name + ".json"))
        log = open(os.path.join(T, name + ".log")).read()
        why = [l for l in log.splitlines() if l.startswith("until: stopped")]
        print("  %-13s: %d boots, %d s, %s %s%s" % (
            what, boots(name), secs(name), "%+.1f%%" % s["change_percent"] if s else "-",
            iv(s) if s else "", ("; " + why[0][len("until: stopped: "):]) if why else ""))
PY
