#!/usr/bin/env python3
# usage: bench/position-effect.py RESULTS-DIR [STAT]
# Is the first iteration of a boot different from the rest? From a benchboot results folder
# (one boot per 0NNN-BOOTID folder) whose boots ran several iterations, read each measured
# iteration's value of STAT (default netperf.Throughput_Mbps) and its position in the boot
# (runs/RUNID/ITER/status: position, positions; warm-up iterations, which are not in
# results.json, are left out). Per boot, on logarithms (the noise here is a factor: a shared
# host slows a whole iteration down; a mean of plain ratios x_1 / mean(rest) would lean
# upwards by itself when that noise is large):
#   d = 100 (ln x_1 - mean(ln x_2 .. ln x_T))   the first measured iteration against the rest,
#                                               in % (100 ln r is about the % change for small r)
# and the same for every position p (x_p against the others), so a trend shows. Printed: the
# mean of d over the boots with its 95% Student-t interval (the boot is the unit: one d per
# boot, boots independent), as a % change (exp), how many boots had d > 0, and how often
# position p was the boot's fastest (1 in T boots when position does not matter).
import glob
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bbstats import interval  # noqa: E402


def pct(d):
    """100 ln r back to a % change."""
    return 100 * (math.exp(d / 100) - 1)


def boot_values(boot, stat):
    """{position: value} of the boot's measured ok iterations."""
    out = {}
    for rundir in glob.glob(os.path.join(boot, "runs", "*")):
        try:
            vals = json.load(open(os.path.join(rundir, "results.json"))).get(stat)
        except (OSError, ValueError):
            continue
        if not vals:
            continue
        its = []
        for st in glob.glob(os.path.join(rundir, "*", "status")):
            try:
                s = json.load(open(st))
            except (OSError, ValueError):
                continue
            if s.get("warmup") or s.get("status") != "ok" or "position" not in s:
                continue
            its.append((s["iteration"], s["position"]))
        its.sort()
        # results.json lists the ok iterations in their order (iteration 1, 2, ...)
        for (_, pos), v in zip(its, vals):
            if v is not None:
                out[pos] = v
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: position-effect.py RESULTS-DIR [STAT]")
    stat = sys.argv[2] if len(sys.argv) > 2 else "netperf.Throughput_Mbps"
    boots = sorted(b for b in glob.glob(os.path.join(sys.argv[1], "0*-*")) if os.path.isdir(b))
    per_boot = [boot_values(b, stat) for b in boots]
    per_boot = [v for v in per_boot if len(v) >= 2 and min(v) == 1]
    if len(per_boot) < 2:
        print("position effect: fewer than 2 boots with a first and a later iteration of %s" % stat)
        return
    npos = max(len(v) for v in per_boot)
    print("position effect on %s: %d boots, up to %d measured iterations each" % (stat, len(per_boot), npos))
    print("  position   x_p against the others' geometric mean, over boots: mean %, 95% t interval;"
          " boots above; boots where p was the fastest")
    first = None
    for p in range(1, npos + 1):
        ds, fastest = [], 0
        for v in per_boot:
            if p in v:
                ds.append(100 * (math.log(v[p]) - statistics.mean(
                    [math.log(x) for q, x in v.items() if q != p])))
                fastest += v[p] == max(v.values())
        if len(ds) < 2:
            continue
        m, lo, hi = (pct(x) for x in interval(ds))
        print("  %8d   %+6.2f%% [%+.2f, %+.2f]   %d of %d   %d of %d"
              % (p, m, lo, hi, sum(d > 0 for d in ds), len(ds), fastest, len(ds)))
        if p == 1:
            first = (m, lo, hi, len(ds))
    m, lo, hi, n = first
    verdict = "differs" if lo > 0 or hi < 0 else "not told apart from the rest"
    print("first iteration of the boot vs the rest: %+.2f%% [%+.2f, %+.2f] (%d boots): %s"
          % (m, lo, hi, n, verdict))


main()
