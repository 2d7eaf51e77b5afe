# Reading `benchboot compare --json` in the bench scripts (bench/compare-calibration.sh,
# bench/side-by-side-calibration.sh): one stat's comparison, and its interval as text.
import json


def stat(path, name):
    """The comparison of stat name in compare's JSON at path (its first run), or None."""
    try:
        j = json.load(open(path))
    except (OSError, ValueError):
        return None
    for r in j["runs"]:
        for s in r["stats"]:
            if s["name"] == name:
                return s
    return None


def interval_text(s):
    """The %change's interval: "[lo, hi]", or "unbounded"."""
    lo, hi = s["interval"]["low_percent"], s["interval"]["high_percent"]
    return "unbounded" if lo is None else "[%.1f, %.1f]" % (lo, hi)
