#!/usr/bin/env python3
# usage: bench/position-effect.py RESULTS-DIR [STAT]
# Is the first iteration of a boot different from the rest? From a benchboot results folder
# (one boot per 0NNN-BOOTID folder) whose boots ran several iterations, read each measured
# iteration's value of STAT (default netperf.Throughput_Mbps) and its position in the boot
# (runs/RUNID/ITER/status: position, positions; warm-up iterations, which are not in
# results.json, are left out). Per boot:
#   d = 100 (x_1 / mean(x_2 .. x_T) - 1)   the boot's first measured iteration against the rest
# and the same for every position p (x_p against the mean of the others), so a trend shows.
# Printed: the mean of d over the boots with its 95% Student-t interval (the boot is the unit:
# one d per boot, boots independent), and how many boots had d > 0.
import glob
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bbstats import interval  # noqa: E402


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
    print("  position   mean of 100 (x_p / mean(others) - 1) over boots, 95% t interval, boots above")
    for p in range(1, npos + 1):
        ds = []
        for v in per_boot:
            if p in v and len(v) >= 2:
                others = [x for q, x in v.items() if q != p]
                ds.append(100 * (v[p] / statistics.mean(others) - 1))
        if len(ds) < 2:
            continue
        m, lo, hi = interval(ds)
        print("  %8d   %+6.2f%% [%+.2f, %+.2f]   %d of %d" % (p, m, lo, hi, sum(d > 0 for d in ds), len(ds)))
    firsts = [100 * (v[1] / statistics.mean([x for q, x in v.items() if q != 1]) - 1) for v in per_boot]
    m, lo, hi = interval(firsts)
    verdict = "differs" if lo > 0 or hi < 0 else "not told apart from the rest"
    print("first iteration of the boot vs the rest: %+.2f%% [%+.2f, %+.2f] (%d boots): %s"
          % (m, lo, hi, len(firsts), verdict))


main()
