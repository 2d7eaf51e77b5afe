# benchboot report's page as a user sees it: rendered by headless Chromium (Debian's chromium),
# the page of tests/host/report.sh's step (12 kernels x 3 boots, -5% from K09 on). The
# screenshot is not blank (many colours, the change point's red dashes drawn); the DOM Chromium
# built holds a trend plot per stat (two runs: two) with the change point marked between K08
# and K09 in each. Chromium runs under bb_timeout with a profile in $T, and no process of it
# is left when the test ends (the ones it started are found by a tag in their environment).
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is needed to make the series and read the PNG"
command -v chromium >/dev/null || skip "chromium is missing (tools/scripts/install-deps: chromium)"
fixture=$(ls -d tests/fixtures/results/kernels/A/0*)
python3 tests/host/src/trend-series.py "$fixture" "$T/step" 12 3 9 -5 || fail "series"
"$BENCHBOOT" store add "$T/step" --db "$T/s.db" >"$T/out" 2>&1 || fail "store add: $(cat "$T/out")"
"$BENCHBOOT" report netperf-sctp-cgroup --db "$T/s.db" -o "$T/r.html" >"$T/out" 2>&1 || [ $? = 1 ] ||
	fail "report: $(cat "$T/out")"
# as root Chromium refuses to start without --no-sandbox
sandbox=()
[ "$(id -u)" = 0 ] && sandbox=(--no-sandbox)
tag="BB_CHROMIUM_OF=$T"
# the live processes this test's Chromium left (zombies are nobody's to end)
chromium_left() {
	local e p
	for e in /proc/[0-9]*/environ; do
		p=${e#/proc/}
		p=${p%/environ}
		tr '\0' '\n' 2>/dev/null <"$e" | grep -qxF "$tag" || continue
		[ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" = Z ] || echo "$p"
	done
}
chrome=(env "$tag" chromium --headless "${sandbox[@]}" --user-data-dir="$T/profile" --disable-gpu
	--no-first-run --hide-scrollbars)
rc=0
bb_timeout 120 "${chrome[@]}" --screenshot="$T/r.png" --window-size=1300,2400 "file://$T/r.html" >"$T/shot.log" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "chromium --screenshot: exit $rc: $(tail -5 "$T/shot.log")"
rc=0
bb_timeout 120 "${chrome[@]}" --dump-dom "file://$T/r.html" >"$T/dom.html" 2>"$T/dom.log" || rc=$?
[ "$rc" = 0 ] || fail "chromium --dump-dom: exit $rc: $(tail -5 "$T/dom.log")"
left=$(chromium_left)
if [ -n "$left" ]; then
	echo "NOTE: chromium left processes $left after it exited; ended"
	kill -9 $left 2>/dev/null || true
	sleep 1
	[ -z "$(chromium_left)" ] || fail "chromium processes $(chromium_left) could not be ended"
fi
# the screenshot: the window's size, not one colour, the change point's red (#d62728) drawn
[ -s "$T/r.png" ] || fail "no screenshot"
# (into a file first: a process substitution's python3 could outlive the test)
python3 tests/host/src/png_pixels.py "$T/r.png" 214,39,40 >"$T/pixels" || fail "the screenshot is not a PNG"
read -r w h colours red <"$T/pixels"
echo "screenshot: ${w}x$h, $colours colours, $red pixels of the change point's red"
expect_eq "screenshot width" "$w" 1300
[ "$colours" -ge 50 ] || fail "the screenshot is (nearly) blank: $colours colours"
[ "$red" -ge 200 ] || fail "the change point's red line is not in the screenshot: $red pixels"
# the DOM Chromium built: a plot per stat, the change point marked in each
python3 tests/host/src/html-check.py "$T/dom.html" >"$T/shape" || fail "the rendered DOM"
expect_eq "trend plots in the rendered DOM" "$(grep -c '^plot netperf.Throughput_Mbps$' "$T/shape")" 2
expect_eq "change points marked in the rendered DOM" "$(grep -c '^changepoint K08 K09$' "$T/shape")" 2
expect_eq "boots drawn in the rendered DOM" "$(grep -o '<circle class="boot"' "$T/dom.html" | wc -l)" 72
echo "report in chromium ok"
