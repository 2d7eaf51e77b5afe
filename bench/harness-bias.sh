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
# - paired by alternation (the method the aim is judged by): d_i = 100 ln(init_i / script_i)
#   for pair i, whose two boots ran back to back and so under about the same host load; the
#   mean of d_i with its 95% Student-t interval on BOOTS - 1 degrees of freedom, shown as a %
#   change (exp; on logarithms because the host's noise is a factor, and a mean of plain
#   ratios leans upwards when it is large);
# - unpaired, for comparison: Welch's t on the two sets of per-boot means (the difference over
#   the script's mean).
#   And, as the boots form an AB/BA crossover (init first in odd pairs, script first in even
#   ones), the same on d_i with the order taken out: bias = (mean d over init-first pairs +
#   mean d over script-first pairs) / 2, its interval from the pooled variance within the two
#   groups (t on BOOTS - 2 df), and the order effect (how much faster the second boot of a
#   pair was), which the alternation cancels but which widens the plain paired interval.
# Aim (issue 16): the interval contains 0 and lies within +/-3%. The host's load
# (/proc/loadavg) is printed at each boot: the machine may be shared. Also printed: the CPU
# time the init itself used while the clients ran (run-end init_cpu_us), the one cost of the
# init that lands inside the measured window.
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
sed -n 's/^BENCHBOOT run-end .* elapsed=\([0-9.]*\) .*init_cpu_us=\([0-9]*\).*/\1 \2/p' "$T"/init*.log |
	awk '{ s += $1; c += $2; n++ } END { if (n) printf "init CPU while the clients ran: %.1f ms per iteration on average, %.3f%% of the %d iterations'"'"' %.0f s\n", c / n / 1000, 100 * c / 1e6 / s, n, s }'
python3 - "$RUNTIME" "$ITER" "${init_means[*]}" "${script_means[*]}" <<'PY'
import math, statistics, sys
sys.path.insert(0, "bench")
from bbstats import interval, t_quantile, welch
runtime, iters = sys.argv[1], sys.argv[2]
a = [float(x) for x in sys.argv[3].split()]
b = [float(x) for x in sys.argv[4].split()]
print("netperf SCTP_STREAM_MANY, 1 client, %s x %s s per boot; per-boot mean Mbps:" % (iters, runtime))
print("  init   %s" % " ".join("%.1f" % x for x in a))
print("  script %s" % " ".join("%.1f" % x for x in b))
print("  means: init %.1f, script %.1f" % (statistics.mean(a), statistics.mean(b)))
d = [100 * math.log(x / y) for x, y in zip(a, b)]
m, lo, hi = (100 * (math.exp(x / 100) - 1) for x in interval(d))
print("paired by alternation (%d pairs, on logarithms): init vs script %+.2f%% [%+.2f, %+.2f] (95%%, t on %d df); pairs %s"
      % (len(d), m, lo, hi, len(d) - 1, " ".join("%+.1f" % (100 * (x / y - 1)) for x, y in zip(a, b))))
first = [x for i, x in enumerate(d) if i % 2 == 0]  # pairs 1, 3, ...: the init first
second = [x for i, x in enumerate(d) if i % 2 == 1]
if len(first) >= 2 and len(second) >= 2:
    mf, ms = statistics.mean(first), statistics.mean(second)
    ss = sum((x - mf) ** 2 for x in first) + sum((x - ms) ** 2 for x in second)
    dfc = len(d) - 2
    se = math.sqrt(ss / dfc / 4 * (1 / len(first) + 1 / len(second)))
    half = t_quantile(0.975, dfc) * se
    e = lambda x: 100 * (math.exp(x / 100) - 1)
    print("crossover (order taken out): init vs script %+.2f%% [%+.2f, %+.2f] (95%%, t on %d df);"
          " the second boot of a pair %+.1f%% against the first"
          % (e((mf + ms) / 2), e((mf + ms) / 2 - half), e((mf + ms) / 2 + half), dfc, e((ms - mf) / 2)))
w, wlo, whi, df = welch(a, b)
s = statistics.mean(b)
print("unpaired, Welch on per-boot means: %+.2f%% [%+.2f, %+.2f] (95%%, %.1f df)"
      % (100 * w / s, 100 * wlo / s, 100 * whi / s, df))
holds = lo <= 0 <= hi and lo >= -3 and hi <= 3
print("aim (paired interval contains 0 and within +/-3%%): %s" % ("holds" if holds else "does not hold: " + (
    "a bias shows (0 is outside)" if not lo <= 0 <= hi else "the interval is wider than +/-3% (more BOOTS)")))
PY
