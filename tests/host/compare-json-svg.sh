# compare --json is valid JSON with the numbers of the table; --svg is well-formed SVG with one
# point per iteration of each side for every changed stat.
. tests/lib.sh
F=tests/fixtures/results
command -v python3 >/dev/null || skip "python3 is needed to check the JSON and SVG"
set +e
"$BENCHBOOT" compare $F/cgroup --by cgroup --json --svg "$T/c.svg" >"$T/c.json"
rc=$?
set -e
expect_eq "exit code" $rc 1
python3 - "$T/c.json" "$T/c.svg" <<'PY' || fail "JSON or SVG check failed"
import json, sys, xml.etree.ElementTree as ET
j = json.load(open(sys.argv[1]))
assert j["a"]["label"] == "cgroup=v1" and j["a"]["boots"] == 3, j["a"]
assert j["significant_changes"] == 3
env = {e["key"]: (e["a"], e["b"]) for e in j["environment"]}
assert env["cgroup.mode_requested"] == ("v1", "v2"), env
run = j["runs"][0]
assert run["params"] == {"cgroup.controllers": "memory", "nr_threads": "2", "send_size": "10K", "test": "SCTP_STREAM_MANY"}
s = {x["name"]: x for x in run["stats"]}
tp = s["netperf.Throughput_Mbps"]
assert tp["a"]["values"] == [1093.41, 1108.17, 1101.65], tp["a"]["values"]
assert abs(tp["change_percent"] - (-9.3617)) < 1e-4
# 3 boots a side, independent: Fieller's interval on per-boot means (tests/unit/test_compare_stats.c)
iv = tp["interval"]
assert iv["basis"] == "boots" and not iv["paired"] and iv["units_a"] == 3, iv
assert abs(iv["low_percent"] - (-10.72469)) < 1e-4 and abs(iv["high_percent"] - (-7.97777)) < 1e-4, iv
assert tp["lkp"]["median_a"] == 1101.65 and tp["lkp"]["threshold_percent"] == 1, tp["lkp"]
assert tp["lkp_changed"] and tp["interval_changed"] and tp["significant"]
# LKP's KPI, higher is better: the marked -9.4% is a regression (0-day's word); a stat that is
# no KPI has neither
assert tp["kpi_direction"] == 1 and tp["verdict"] == "regression", tp
other = s["netperf.time.voluntary_context_switches"]
assert other["kpi_direction"] is None and other["verdict"] is None, other
# every mark explainable: the rule that decided, in words
assert tp["lkp"]["rule"].startswith("changed: apart, medians "), tp["lkp"]["rule"]
assert all(x["lkp"]["rule"] for x in run["stats"]), [x["name"] for x in run["stats"] if not x["lkp"]["rule"]]
assert "netperf.time.elapsed_time" not in s
svg = ET.parse(sys.argv[2]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert svg.tag == ns + "svg"
circles = svg.findall(".//" + ns + "circle")
rects = [r for r in svg.findall(".//" + ns + "rect") if r.get("width") == "7"]
assert len(circles) == 9 and len(rects) == 9, (len(circles), len(rects))
PY
# --all in JSON lists the unchanged stats too
"$BENCHBOOT" compare $F/cgroup --by cgroup --json --all >"$T/all.json" || [ $? = 1 ]
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert len(j["runs"][0]["stats"]) == 4' "$T/all.json" ||
	fail "--json --all does not list every stat"
