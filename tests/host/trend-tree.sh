# benchboot trend --tree: the kernels in the git order of a kernel tree, and the exact bisect
# command at each change point. A throwaway tree of 8 empty commits c1..c8; synthetic boots
# (tests/host/src/trend-series.py) of kernels named by the commits' 12-hex prefixes, added to
# the store out of order (c5..c8, then c1 named by its tag v1, c2..c4 and K99, 5% higher) with their vmlinuz files and
# job file: --tree orders them c1..c8 (K99, no commit of the tree, said and left out) and
# finds the -5% step between c4 and c5, with `benchboot bisect JOBFILE --tree DIR --good c4
# --bad c5 --stat S`; without --tree, the kernels file (a here-document that runs as printed)
# and `--kernels`; --json and report --tree say the same; --order with --tree is wrong usage.
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is needed to make the series"
command -v git >/dev/null || skip "git is needed for the tree"
git init -q "$T/tree" || fail "git init"
for i in 1 2 3 4 5 6 7 8; do
	git -C "$T/tree" -c user.name=t -c user.email=t@example.org commit -q --allow-empty -m "c$i" || fail "commit"
	git -C "$T/tree" rev-parse HEAD
done >"$T/full"
cut -c1-12 "$T/full" >"$T/commits"
c() { sed -n "$1p" "$T/commits"; }
# c1 named by a tag: its name resolves in the tree
git -C "$T/tree" tag v1 "$(c 1)" || fail "tag"
{ for i in 5 6 7 8; do c $i; done; echo v1; for i in 2 3 4; do c $i; done; echo K99; } >"$T/names"
: >"$T/job.yaml"
python3 tests/host/src/trend-series.py "$(ls -d tests/fixtures/results/kernels/A/0*)" "$T/step" 9 3 5 5 \
	--names "$T/names" --vmlinuz "$T/vm" --job-file "$T/job.yaml" || fail "series"
db=$T/s.db
run=SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=0
"$BENCHBOOT" store add "$T/step" --db "$db" >"$T/out" 2>&1 || fail "store add: $(cat "$T/out")"
rc=0
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$db" --run "$run" --tree "$T/tree" >"$T/out" 2>"$T/err" || rc=$?
cat "$T/out" "$T/err"
expect_eq "trend --tree: exit code" "$rc" 1
expect_grep "^benchboot trend: no commit of $T/tree, left out: K99$" "$T/err"
[ "$(wc -l <"$T/err")" = 1 ] || fail "more than one line on stderr"
expect_grep "^run $run, netperf.Throughput_Mbps: 8 kernels, 24 boots$" "$T/out"
expect_grep "^  change between $(c 4) and $(c 5) (kernel 5 of 8): -[45].[0-9]% " "$T/out"
expect_grep "^benchboot bisect $T/job.yaml --tree $T/tree --good $(c 4) --bad $(c 5) --stat netperf.Throughput_Mbps$" "$T/out"
[ "$(grep -c '^  change between' "$T/out")" = 1 ] || fail "more than the one change point"
# the kernels in the tree's order (c1 by its tag)
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$db" --run "$run" --tree "$T/tree" --json >"$T/j" 2>/dev/null || [ $? = 1 ] || fail "trend --tree --json"
python3 - "$T/j" "$T/commits" "$T/job.yaml" "$T/tree" <<'PY' || fail "trend --tree --json"
import json, sys
j = json.load(open(sys.argv[1]))
commits = open(sys.argv[2]).read().split()
s = j["series"][0]
assert [k["kernel"] for k in s["kernels"]] == ["v1"] + commits[1:], s["kernels"]
b = s["change_points"][0]["bisect"]
assert b["command"] == "benchboot bisect %s --tree %s --good %s --bad %s --stat netperf.Throughput_Mbps" % (
    sys.argv[3], sys.argv[4], commits[3], commits[4]), b
assert b["kernels"] is None and b["job_file_known"], b
PY
# without --tree (the store's order: the step between c4 and K99's neighbours is elsewhere):
# --order gives c1..c8, and the bisection is of a kernels file, written as printed
{ echo v1; sed 1d "$T/commits"; } >"$T/order"
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$db" --run "$run" --order "$T/order" >"$T/out" 2>&1 || [ $? = 1 ] || fail "trend --order: $(cat "$T/out")"
cat "$T/out"
file=kernels-$(c 4)-$(c 5)
expect_grep "^benchboot bisect $T/job.yaml --kernels $file --stat netperf.Throughput_Mbps$" "$T/out"
sed -n '/^cat >/,/^EOF$/p' "$T/out" >"$T/write.sh"
(cd "$T" && sh write.sh) || fail "the here-document does not run: $(cat "$T/write.sh")"
printf '# %s, then the kernels built between them, oldest first\n%s %s - quiet\n%s %s - quiet\n' "$(c 4)" \
	"$(c 4)" "$T/vm/vmlinuz-$(c 4)" "$(c 5)" "$T/vm/vmlinuz-$(c 5)" >"$T/want"
diff -u "$T/want" "$T/$file" || fail "the kernels file"
# report --tree: the same command in the page
"$BENCHBOOT" report netperf-sctp-cgroup --db "$db" --run "$run" --tree "$T/tree" -o "$T/r.html" >"$T/out" 2>&1 || [ $? = 1 ] ||
	fail "report --tree: $(cat "$T/out")"
expect_grep "<pre class=\"bisect\">benchboot bisect $T/job.yaml --tree $T/tree --good $(c 4) --bad $(c 5) --stat netperf.Throughput_Mbps</pre>" "$T/r.html"
# wrong: --order and --tree; a --tree that is no git tree
rc=0
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$db" --order "$T/commits" --tree "$T/tree" >"$T/out" 2>&1 || rc=$?
expect_eq "--order with --tree: exit code" "$rc" 100
rc=0
"$BENCHBOOT" trend netperf-sctp-cgroup --db "$db" --tree "$T/vm" >"$T/out" 2>&1 || rc=$?
expect_eq "--tree not a git tree: exit code" "$rc" 100
expect_grep "is not a git repository" "$T/out"
echo "trend --tree ok"
