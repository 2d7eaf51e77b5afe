# benchboot store add streams a results folder: one boot in memory at a time, so a folder of
# 1,000 boots takes no more memory than one of 100 (docs/history.md "Scale"). The boots are
# synthetic, shaped like collected ones (tests/host/src/trend-series.py); the peak RSS of each
# `store add` is read with getrusage by python3, the parent of the add.
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is needed to make the boots and read the peak RSS"
fixture=$(ls -d tests/fixtures/results/kernels/A/0* | sed -n 1p)
peak_kb() { # DIR DB: store add DIR into DB, print its peak RSS in KB
	python3 - "$BENCHBOOT" "$1" "$2" <<'PY'
import resource, subprocess, sys
r = subprocess.run([sys.argv[1], "store", "add", sys.argv[2], "--db", sys.argv[3]],
                   capture_output=True, text=True)
if r.returncode:
    sys.exit("store add %s: exit %d: %s" % (sys.argv[2], r.returncode, r.stderr))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
python3 tests/host/src/trend-series.py "$fixture" "$T/small" 10 10 0 0 || fail "100 boots"
python3 tests/host/src/trend-series.py "$fixture" "$T/big" 100 10 0 0 || fail "1000 boots"
small=$(peak_kb "$T/small" "$T/small.db") || fail "$small"
big=$(peak_kb "$T/big" "$T/big.db") || fail "$big"
echo "NOTE: peak RSS of store add: 100 boots $small KB, 1000 boots $big KB"
"$BENCHBOOT" store list --db "$T/big.db" >"$T/list" || fail "store list"
expect_grep "^store $T/big.db: 1 folders\?, 1000 boots, 2000 runs, " "$T/list"
# loaded whole, the 900 boots more took about 10 MB more (108 MB for 10,000 boots); streamed,
# what grows with the folder is its list of names and run.json's entries
[ "$big" -lt $((small + 3072)) ] || fail "store add of 1000 boots peaked at $big KB against $small KB for 100: memory grows with the folder"
