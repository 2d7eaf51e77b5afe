# Harness bias: does benchboot's init change the number it measures? The same netperf run
# (SCTP_STREAM_MANY, one client on cpu1, netserver on cpu0, both in a cgroup v2 job cgroup,
# ITER iterations of RUNTIME s, bench/script-init.inc) booted with benchboot's init (with its
# results disk, as in normal use) and with a plain BusyBox shell script as /init, on the same
# kernel, modules, netperf and QEMU flags. BOOTS pairs of boots (default 5, so 5 boots each),
# alternating: pair i is one boot of each, the init first in odd pairs and the script first in
# even ones, so neither side always comes first.
#
# The unit is the boot: one number per boot, the mean throughput of its ITER iterations
# (netperf.Throughput_Mbps as the init reports it; the script's from the same netperf output
# line). Printed: the per-boot means, then the difference of the means in % of the script's:
# - paired by alternation (the method the aim is judged by): d_i = 100 (init_i / script_i - 1)
#   for pair i, whose two boots ran back to back and so under about the same host load; the
#   mean of d_i with its 95% Student-t interval on BOOTS - 1 degrees of freedom;
# - unpaired, for comparison: Welch's t on the two sets of per-boot means (the difference over
#   the script's mean).
# Aim (issue 16): the interval contains 0 and lies within +/-3%. The host's load
# (/proc/loadavg) is printed at each boot: the machine may be shared.
. tests/lib.sh
bb_need init netperf sysroot busybox kernel qemu
command -v python3 >/dev/null || skip "python3 is needed for the interval"
. tests/qemu/init-image.inc
. bench/script-init.inc
BOOTS=${BOOTS:-5}
RUNTIME=${RUNTIME:-5}
ITER=${ITER:-3}
[ "$BOOTS" -ge 2 ] || fail "BOOTS must be 2 or more"

script_init_plan "$T/plan" "$RUNTIME" "$ITER"
script_init_write "$T/shinit" "$RUNTIME" "$ITER"
script_init_images "$T/plan" "$T/shinit"

# mean_of VALUES...: their mean, or fail when there are not ITER of them
mean_of() {
	[ $# -eq "$ITER" ] || fail "expected $ITER values, got $# ($*)"
	printf '%s\n' "$@" | awk '{ s += $1 } END { printf "%.3f", s / NR }'
}
boot_init() { # I: one boot of the init; its mean into init_means
	local log=$T/init$1.log
	"$BENCHBOOT" mkdisk "$T/disk$1.img" --size 64M >/dev/null
	INITRD=$A_INITRD init_boot "$log" -drive "file=$T/disk$1.img,format=raw,if=virtio" --
	expect_count "ok iterations" '^BENCHBOOT run-end id=SCTP_STREAM .*status=ok' "$log" "$ITER"
	mapfile -t v < <(sed -n 's/^benchboot: SCTP_STREAM iteration [0-9]*: netperf.Throughput_Mbps = \([0-9.e+]*\) .*/\1/p' "$log")
	init_means+=("$(mean_of "${v[@]}")")
	echo "init   boot $1: ${v[*]} Mbps (load $(cut -d' ' -f1 /proc/loadavg))"
}
boot_script() { # I: one boot of the script; its mean into script_means
	local log=$T/script$1.log
	INITRD=$B_INITRD init_boot "$log"
	expect_grep "SHELL-DONE rc=0" "$log"
	mapfile -t v < <(awk '$1 == "SHELL-RESULT" && NF == 7 { print $7 }' "$log")
	script_means+=("$(mean_of "${v[@]}")")
	echo "script boot $1: ${v[*]} Mbps (load $(cut -d' ' -f1 /proc/loadavg))"
}

echo "host load before: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min; $(nproc) CPUs)"
init_means=() script_means=()
for ((i = 1; i <= BOOTS; i++)); do
	if ((i % 2)); then
		boot_init "$i"
		boot_script "$i"
	else
		boot_script "$i"
		boot_init "$i"
	fi
done
echo "host load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$RUNTIME" "$ITER" "${init_means[*]}" "${script_means[*]}" <<'PY'
import statistics, sys
sys.path.insert(0, "bench")
from bbstats import interval, welch
runtime, iters = sys.argv[1], sys.argv[2]
a = [float(x) for x in sys.argv[3].split()]
b = [float(x) for x in sys.argv[4].split()]
print("netperf SCTP_STREAM_MANY, 1 client, %s x %s s per boot; per-boot mean Mbps:" % (iters, runtime))
print("  init   %s" % " ".join("%.1f" % x for x in a))
print("  script %s" % " ".join("%.1f" % x for x in b))
print("  means: init %.1f, script %.1f" % (statistics.mean(a), statistics.mean(b)))
d = [100 * (x / y - 1) for x, y in zip(a, b)]
m, lo, hi = interval(d)
print("paired by alternation (%d pairs): init - script = %+.2f%% [%+.2f, %+.2f] (95%%, t on %d df); pairs %s"
      % (len(d), m, lo, hi, len(d) - 1, " ".join("%+.1f" % x for x in d)))
w, wlo, whi, df = welch(a, b)
s = statistics.mean(b)
print("unpaired, Welch on per-boot means: %+.2f%% [%+.2f, %+.2f] (95%%, %.1f df)"
      % (100 * w / s, 100 * wlo / s, 100 * whi / s, df))
holds = lo <= 0 <= hi and lo >= -3 and hi <= 3
print("aim (paired interval contains 0 and within +/-3%%): %s" % ("holds" if holds else "does not hold: " + (
    "a bias shows (0 is outside)" if not lo <= 0 <= hi else "the interval is wider than +/-3% (more BOOTS)")))
PY
