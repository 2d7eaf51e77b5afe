# The report of bench/calibrate.sh over its folder: per kind of A/A comparison, how often
# benchboot's mark (I) and LKP's (L) fire with the exact one-sided 95% upper bound of each rate,
# the median half-width of I's interval against the spread of the %changes, and for the kernel
# axis the same boots analysed as pairs and as independent boots.
import glob, json, math, os, re, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bbstats
import compare_json

STAT = "netperf.Throughput_Mbps"


def boot_means(res):
    """Per boot of results folder res: (kernel, its mean of STAT, its side-by-side partners)."""
    try:
        boots = json.load(open(os.path.join(res, "run.json")))["boots"]
    except (OSError, ValueError, KeyError):
        return {}
    out = {}
    for b in boots:
        vals = []
        for rj in glob.glob(os.path.join(res, b.get("folder") or "-", "runs", "*", "results.json")):
            vals += [v for v in json.load(open(rj)).get(STAT, []) if isinstance(v, (int, float))]
        if vals:
            sbs = b.get("side_by_side") or {}
            out[b["boot_id"]] = (b["params"]["kernel"], statistics.mean(vals), sbs.get("partners", []))
    return out


def pct_interval(d, lo, hi, base):
    return 100 * d / base, 100 * lo / base, 100 * hi / base


def both_analyses(res):
    """The %change of B against A on res's per-boot means, as independent boots (Welch) and as
    the pairs that ran side by side (paired t): each (estimate, lo, hi) or None."""
    m = boot_means(res)
    a = [v for k, v, _ in m.values() if k == "A"]
    b = [v for k, v, _ in m.values() if k == "B"]
    if len(a) < 2 or len(b) < 2:
        return None, None
    base = statistics.mean(a)
    d, lo, hi, _ = bbstats.welch(b, a)
    indep = pct_interval(d, lo, hi, base)
    diffs = []
    for bid, (k, v, partners) in m.items():
        if k == "B" and len(partners) == 1 and partners[0] in m and m[partners[0]][0] == "A":
            diffs.append(v - m[partners[0]][1])
    paired = None
    if len(diffs) >= 2:
        mean, plo, phi = bbstats.interval(diffs)
        paired = pct_interval(mean, plo, phi, base)
    return indep, paired


def rate_line(what, k, n):
    if not n:
        return "%s: no comparisons" % what
    return "%s %d of %d = %.1f%% (exact 95%% upper bound %.1f%%)" % (
        what, k, n, 100.0 * k / n, 100 * bbstats.clopper_pearson_upper(k, n))


def report(top, kind, title):
    stats = []
    for path in sorted(glob.glob(os.path.join(top, kind + "-*.json")),
                       key=lambda p: int(re.sub(r"\D", "", os.path.basename(p)) or 0)):
        s = compare_json.stat(path, STAT)
        if s and s.get("change_percent") is not None:
            stats.append((path[:-5], s))
    n = len(stats)
    print("%s: %d comparisons (%s)" % (title, n, STAT))
    if not n:
        return
    marks_i = sum(1 for _, s in stats if s["interval_changed"])
    marks_l = sum(1 for _, s in stats if s["lkp_changed"])
    print("  I (benchboot): " + rate_line("marked", marks_i, n))
    print("  L (LKP's rule): " + rate_line("marked", marks_l, n))
    changes = [s["change_percent"] for _, s in stats]
    halves = [(s["interval"]["high_percent"] - s["interval"]["low_percent"]) / 2
              for _, s in stats if s["interval"]["low_percent"] is not None]
    spread = statistics.stdev(changes) if n > 1 else float("nan")
    if halves:
        med = statistics.median(halves)
        print("  spread of the %%changes (sd): %.2f%%; median half-width of I's 95%% interval: %.2f%% "
              "(%.1f x the spread; a calibrated interval is about 2 x)" % (spread, med, med / spread if spread else float("nan")))
    if kind.startswith("kernel"):
        indep, paired = [], []
        for res, _ in stats:
            i, p = both_analyses(res)
            if i:
                indep.append(i)
            if p:
                paired.append(p)
        for name, ivs in (("independent boots (Welch)", indep), ("pairs side by side (paired t)", paired)):
            if not ivs:
                continue
            fp = sum(1 for _, lo, hi in ivs if lo > 0 or hi < 0)
            print("  as %s: %s; median half-width %.2f%%" % (
                name, rate_line("excludes 0", fp, len(ivs)),
                statistics.median([(hi - lo) / 2 for _, lo, hi in ivs])))


top = sys.argv[1]
report(top, "kernel-par", "kernel axis, side by side (--parallel 2), 4 boots a side")
report(top, "kernel-seq", "kernel axis, one boot at a time, 4 boots a side")
report(top, "run", "run-level axis (printk_ratelimit 5 vs 6) in 4 boots")
