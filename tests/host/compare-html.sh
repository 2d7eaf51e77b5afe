# compare A B --html FILE: the comparison of two folders as one page, by report's writer. On the
# fixture kernels (tests/fixtures/results/kernels/A and B, one boot each), with perf-profile
# call stacks on both sides: the page is well-formed and self-contained
# (tests/host/src/html-check.py), holds the environment differences (kernel.release), the 0-day
# table of each matched run with its marked stats, and the flame graph; the text and the exit
# code are compare's. Folders named with <, &, quotes come out escaped. Without call stacks: no
# flame graph. Each side with another event: said in the page.
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is needed to read the page"
K=tests/fixtures/results/kernels
a="$T/a<b>&\"q'" b="$T/B"
cp -r "$K/A" "$a"
cp -r "$K/B" "$b"
rc=0
"$BENCHBOOT" compare "$a" "$b" --html "$T/plain.html" >"$T/out" 2>&1 || rc=$?
expect_eq "compare --html: exit code (the table's changes)" "$rc" 1
expect_grep "netperf.Throughput_Mbps" "$T/out"
python3 tests/host/src/html-check.py "$T/plain.html" >"$T/shape" || fail "the page"
grep -q '^flamegraph$' "$T/shape" && fail "a flame graph without call stacks"
grep -q 'perf-profile' "$T/plain.html" && fail "the flame graph's heading without call stacks"
expect_grep "<tr><td>kernel.release</td><td>6.1.0-57-amd64</td><td>6.1.0-58-amd64</td></tr>" "$T/plain.html"
expect_grep "<h2>run nr_threads=2 sysctl.net.sctp.prsctp_enable=1 test=SCTP_STREAM_MANY</h2>" "$T/plain.html"
expect_grep '<td class="n">-5.0%</td>.*<td class="mark">L</td><td>netperf.Throughput_Mbps</td>' "$T/plain.html"
expect_grep "1 of 3 iterations failed" "$T/plain.html"
# the folder's name, escaped wherever it shows
grep -q "a<b>" "$T/plain.html" && fail "the folder's name came out as markup"
expect_grep "<li><b>A</b>: $T/a&lt;b&gt;&amp;&quot;q&#39; (1 boot)</li>" "$T/plain.html"
# call stacks on both sides: the flame graph in the page
for d in "$a"/*/runs/*/[0-9] "$b"/*/runs/*/[0-9]; do
	n=$(case "$d" in "$b"/*) echo 700 ;; *) echo 400 ;; esac)
	printf '# event: cpu-clock\nnetperf;sctp_sendmsg_[k] %s\nswapper;default_idle_[k] 300\n' "$n" >"$d/monitor.perf-profile.folded"
done
"$BENCHBOOT" compare "$a" "$b" --html "$T/fg.html" >/dev/null 2>&1 || [ $? = 1 ] || fail "compare --html with call stacks"
python3 tests/host/src/html-check.py "$T/fg.html" >"$T/shape" || fail "the page with a flame graph"
expect_eq "flame graphs" "$(grep -c '^flamegraph$' "$T/shape")" 1
expect_grep "<title>sctp_sendmsg_\[k\]&#10;A: 2400 samples (57.14%)&#10;B: 4200 samples (70.00%)" "$T/fg.html"
grep -q "<script\|onload=" "$T/fg.html" && fail "a script in the page"
# another event on B's side: no flame graph, the reason in the page, the rest written
for d in "$b"/*/runs/*/[0-9]; do sed -i 's/cpu-clock/cycles:pp/' "$d/monitor.perf-profile.folded"; done
"$BENCHBOOT" compare "$a" "$b" --html "$T/ev.html" >/dev/null 2>&1 || [ $? = 1 ] || fail "compare --html with different events"
python3 tests/host/src/html-check.py "$T/ev.html" >"$T/shape" || fail "the page with different events"
expect_grep "no flame graph: A and B sampled different events" "$T/ev.html"
# a page that cannot be written: said, exit 111 or 100
rc=0
"$BENCHBOOT" compare "$a" "$b" --html "$T/no/such/dir/x.html" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" = 100 ] || [ "$rc" = 111 ] || fail "compare --html into a missing folder: exit $rc"
expect_grep "html: unable to write $T/no/such/dir/x.html" "$T/err"
echo "compare --html ok"
