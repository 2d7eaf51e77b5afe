# benchboot report: a job's trends as one HTML page. Synthetic boots as tests/host/trend.sh
# makes them (tests/host/src/trend-series.py: 12 kernels x 3 boots, -5% from K09 on): the page
# is written, well-formed and self-contained (tests/host/src/html-check.py), has one trend plot
# per stat (primary: one a run; --stat all: every stat), the change point marked between K08
# and K09 in the plot and in a section with both kernels' environment differences and 0-day
# table, and the flame graph when their boots have call stacks; exit 1 as trend's. A flat
# series: exit 0, no mark. Hostile names (kernels, job) come out escaped. A job the store does
# not have: exit 100 and no page.
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is needed to make the series and read the page"
fixture=$(ls -d tests/fixtures/results/kernels/A/0*)
run='SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=0'
python3 tests/host/src/trend-series.py "$fixture" "$T/step" 12 3 9 -5 || fail "series"
python3 tests/host/src/trend-series.py "$fixture" "$T/flat" 12 3 0 0 2 || fail "series"
# K08's boots (22-24) and K09's (25-27) with perf-profile call stacks: more sctp_sendmsg in K09
for n in 22 23 24 25 26 27; do
	for d in "$T"/step/00"$n"-*/runs/*/[0-9]; do
		more=$([ "$n" -ge 25 ] && echo 700 || echo 400)
		printf '# event: cpu-clock\nnetperf;entry_SYSCALL_64_[k];sctp_sendmsg_[k] %s\nswapper;default_idle_[k] 300\n' \
			"$more" >"$d/monitor.perf-profile.folded"
	done
done
db=$T/s.db
"$BENCHBOOT" store add "$T/step" --db "$db" >"$T/out" 2>&1 || fail "store add: $(cat "$T/out")"
rc=0
"$BENCHBOOT" report netperf-sctp-cgroup --db "$db" -o "$T/r.html" >"$T/out" 2>&1 || rc=$?
cat "$T/out"
expect_eq "report with a step: exit code (as trend's)" "$rc" 1
[ -s "$T/r.html" ] || fail "no page written"
python3 tests/host/src/html-check.py "$T/r.html" >"$T/shape" || fail "the page"
cat "$T/shape"
# two runs, the primary stat of each: two plots, each with the one change point
expect_eq "trend plots" "$(grep -c '^plot netperf.Throughput_Mbps$' "$T/shape")" 2
expect_eq "change points marked in the plots" "$(grep -c '^changepoint K08 K09$' "$T/shape")" 2
expect_eq "change points' sections" "$(grep -c '^section K08 K09$' "$T/shape")" 2
expect_eq "lines in the page's outline" "$(grep -vc '^flamegraph$' "$T/shape")" 6
grep -q '^flamegraph$' "$T/shape" || fail "no flame graph at the change point (K08 and K09 have call stacks)"
# a boot a point: 36 in each plot; the change point's numbers, the bisection, the comparison
expect_eq "boots drawn" "$(grep -o '<circle class="boot"' "$T/r.html" | wc -l)" 72
expect_grep "change between K08 and K09 (kernel 9 of 12): -[45].[0-9]% \[-[0-9.]*, -[0-9.]*\]" "$T/r.html"
expect_grep "<pre class=\"bisect\">benchboot bisect netperf-sctp-cgroup --kernels KERNELS --stat netperf.Throughput_Mbps</pre>" "$T/r.html"
expect_grep "<tr><td>label.kernel</td><td>K08</td><td>K09</td></tr>" "$T/r.html"
expect_grep '<td class="mark">IL</td><td>netperf.Throughput_Mbps</td>' "$T/r.html"
expect_grep "<title>K09, boot 1000001[9a-f]: 9[0-9.]*</title>" "$T/r.html"
# --stat all: a plot for every stat of the run; --run: one run
rc=0
"$BENCHBOOT" report netperf-sctp-cgroup --db "$db" --run "$run" --stat all -o "$T/all.html" >/dev/null 2>&1 || rc=$?
expect_eq "report --stat all: exit code" "$rc" 1
python3 tests/host/src/html-check.py "$T/all.html" >"$T/shape" || fail "the page of --stat all"
stats=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$fixture/runs/$run/results.json")
expect_eq "plots of --stat all (the stats of the run)" "$(grep -c '^plot ' "$T/shape")" "$stats"
# the default file name: JOB.html in the current folder
(cd "$T" && "$BENCHBOOT" report netperf-sctp-cgroup --db "$db" --run "$run" >/dev/null 2>&1) || [ $? = 1 ] || fail "report without -o"
[ -s "$T/netperf-sctp-cgroup.html" ] || fail "report without -o wrote no netperf-sctp-cgroup.html"
# a flat series: exit 0, nothing marked
"$BENCHBOOT" store add "$T/flat" --db "$T/flat.db" >/dev/null 2>&1 || fail "store add flat"
"$BENCHBOOT" report netperf-sctp-cgroup --db "$T/flat.db" -o "$T/flat.html" >"$T/out" 2>&1 || fail "report of a flat series: exit $?: $(cat "$T/out")"
python3 tests/host/src/html-check.py "$T/flat.html" >"$T/shape" || fail "the flat page"
expect_eq "plots of the flat series" "$(grep -c '^plot ' "$T/shape")" 2
grep -q '^changepoint\|^section' "$T/shape" && fail "a change point marked in a flat series"
expect_grep "no change point (max p 0.0001, at least 2 kernels a side)" "$T/flat.html"
# hostile names: the job and the kernels around the step, from the results, escaped
python3 - "$T/step" "$T/evil" <<'PY' || fail "hostile copy"
import json, os, shutil, sys
src, out = sys.argv[1:]
shutil.copytree(src, out)
names = {"K08": "K08 \"q\" & <b>bold</b>", "K09": "<script>alert('K09')</script>"}
rj = json.load(open(os.path.join(out, "run.json")))
for e in rj["boots"]:
    e["params"]["kernel"] = names.get(e["params"]["kernel"], e["params"]["kernel"])
json.dump(rj, open(os.path.join(out, "run.json"), "w"))
for d in os.listdir(out):
    p = os.path.join(out, d, "env.json")
    if os.path.exists(p):
        env = json.load(open(p))
        env["job"] = "<script>x</script>&\"job'"
        env["boot_id"] = "e" + env["boot_id"][1:]
        json.dump(env, open(p, "w"))
PY
"$BENCHBOOT" store add "$T/evil" --db "$T/evil.db" >"$T/out" 2>&1 || fail "store add of hostile names: $(cat "$T/out")"
rc=0
"$BENCHBOOT" report "<script>x</script>&\"job'" --db "$T/evil.db" -o "$T/evil.html" >"$T/out" 2>&1 || rc=$?
expect_eq "report of hostile names: exit code" "$rc" 1
python3 tests/host/src/html-check.py "$T/evil.html" >"$T/shape" || fail "the page of hostile names"
grep -qi '<script\|<b>bold' "$T/evil.html" && fail "a name from the results came out as markup: $(grep -i -m3 '<script\|<b>bold' "$T/evil.html")"
expect_grep "<title>benchboot report: &lt;script&gt;x&lt;/script&gt;&amp;&quot;job&#39;</title>" "$T/evil.html"
expect_grep 'data-before="K08 &quot;q&quot; &amp; &lt;b&gt;bold&lt;/b&gt;" data-after="&lt;script&gt;alert(&#39;K09&#39;)&lt;/script&gt;"' "$T/evil.html"
expect_eq "change points between the hostile kernels" "$(grep -c "^changepoint K08 \"q\" & <b>bold</b> <script>alert('K09')</script>\$" "$T/shape")" 2
# a change point whose folders are gone: said in the page, the rest written
rm -rf "$T"/step/0022-*
rc=0
"$BENCHBOOT" report netperf-sctp-cgroup --db "$db" -o "$T/gone.html" >"$T/out" 2>&1 || rc=$?
expect_eq "report with a boot folder gone: exit code" "$rc" 1
python3 tests/host/src/html-check.py "$T/gone.html" >/dev/null || fail "the page with a folder gone"
expect_grep "no comparison of the two kernels' boots: .*0022-" "$T/gone.html"
# no such job: exit 100, no page
rc=0
"$BENCHBOOT" report nosuchjob --db "$db" -o "$T/none.html" >"$T/out" 2>&1 || rc=$?
expect_eq "report of a job the store does not have: exit code" "$rc" 100
expect_grep "has no boot of the job 'nosuchjob'" "$T/out"
[ -e "$T/none.html" ] && fail "a page written for a job the store does not have"
rc=0
"$BENCHBOOT" report >"$T/out" 2>&1 || rc=$?
expect_eq "report without JOB: exit code" "$rc" 100
echo "report ok"
