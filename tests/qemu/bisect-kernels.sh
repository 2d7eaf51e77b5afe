# benchboot bisect over a list of prebuilt kernels, with real boots under TCG: five candidates,
# all the pinned kernel, where from candidate 3 on an extra kernel command-line option (pti=on,
# tests/qemu/bisect.inc) cuts a short stress-ng null job's bogo ops/s by about 90%. (1) Ctrl-C
# during the first boot stops the VM and exits 1, leaving no QEMU; (2) --resume in the same folder then
# finds the culprit c3 and its parent c2, exit 0, a line per step, boots.jsonl with every boot;
# (3) --resume once more replays every boot from the log and boots nothing; (4) a bad --kernels
# file is refused (exit 100) naming the file and the line. --alpha 0.5, --first-look 3 and
# --max-boots 5 keep it short (the effect is large; the decision core's error rate is tested
# in tests/unit/test_bisect_decide.c): 4 comparisons spend 4/6 of alpha, 0.3333. Every comparison
# boots its two sides side by side (--parallel 2, 1-vCPU VMs each on its own host CPU): run.json
# shows the pairs, the sides taking turns on the CPUs. The boots went to the store as they came:
# `trend` over them, in the kernels' order, finds the change between c2 and c3.
# tests/run: alone (it decides from measured differences)
. tests/lib.sh
. tests/qemu/bisect.inc
cat >"$T/kernels" <<EOF
# oldest first: c0 is the good end, c4 the bad end
c0 $kernel
c1 $kernel -
c2 $kernel - mitigations=auto
c3 $kernel - $slow   # the change
c4 $kernel - $slow
EOF
bisect() { # OUT ARGS...
	local out=$1
	shift
	bb_timeout 1500 nice "$BENCHBOOT" bisect "$T/null.yaml" --kernels "$T/kernels" --accel tcg \
		--images "$T/images" -o "$T/bis" --alpha 0.5 --first-look 3 --max-boots 5 \
		--parallel 2 --cpus 1 "$@" \
		>"$T/$out" 2>&1
}

# (1) Ctrl-C during the first boot
timeout --signal=KILL 600 "$BENCHBOOT" bisect "$T/null.yaml" --kernels "$T/kernels" --accel tcg \
	--images "$T/images" -o "$T/bis" --parallel 2 --cpus 1 >"$T/int.out" 2>&1 &
pid=$!
BB_PIDS+=("$pid")
for _ in $(seq 1 300); do
	grep -q "BENCHBOOT boot-start" "$T"/bis/console/*.log 2>/dev/null && break
	sleep 1
done
grep -q "BENCHBOOT boot-start" "$T"/bis/console/*.log || { cat "$T/int.out"; fail "the first boot did not start"; }
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
cat "$T/int.out"
expect_eq "exit code after Ctrl-C" "$rc" 1
expect_grep "^interrupted: every VM running was stopped; 0 boots are in .*boots.jsonl: .*--resume continues" "$T/int.out"
if pgrep -f -- "$T/images" >/dev/null; then fail "a QEMU is still running"; fi

# (2) the bisection, resumed in the same folder
start=$(date +%s)
rc=0
bisect run.out --resume || rc=$?
took=$(($(date +%s) - start))
cat "$T/run.out"
expect_eq "bisect: exit code" "$rc" 0
expect_grep "^bisecting 5 candidates, c0 (good) .. c4 (bad), in $T/bis" "$T/run.out"
expect_grep "^step 1: ends: bad c4 against good c0, [0-9]* + [0-9]* boots: -[0-9.]*% \[-[0-9.]*%, -[0-9.]*%\]: changed; left: c0 .. c4, 3 candidates between" "$T/run.out"
expect_grep "^step 2: candidate c2 against good c0, .*: old (D/2 = -[0-9.]*%); left: c2 .. c4, 1 candidate between" "$T/run.out"
expect_grep "^step 3: candidate c3 against good c0, .*: new (D/2 = -[0-9.]*%); left: c2 .. c3, 0 candidates between" "$T/run.out"
expect_grep "^step 4: verify: culprit c3 against its parent c2, .*: confirmed (3/4 D = -[0-9.]*%)" "$T/run.out"
expect_eq "step lines" "$(grep -c '^step ' "$T/run.out")" 4
expect_grep "^culprit: c3$" "$T/run.out"
expect_grep "^parent:  c2$" "$T/run.out"
expect_grep "^change D: c0 to c4: -[0-9.]*% \[.*\] of stress-ng.null.ops_per_sec" "$T/run.out"
expect_grep "^verification: c3 against c2: .*: confirmed, [0-9]*% of D" "$T/run.out"
expect_grep "^error bound: 0.3333 spent of alpha 0.5 " "$T/run.out"
expect_grep "^boots: [0-9]* (0 failed, 0 replayed from the log), wall time [0-9]* s" "$T/run.out"
boots=$(sed -n 's/^boots: \([0-9]*\) .*/\1/p' "$T/run.out")
# boots.jsonl: one line per boot, each with its candidate, index, values and results folder
expect_eq "boots.jsonl lines" "$(wc -l <"$T/bis/boots.jsonl")" "$boots"
python3 - "$T/bis" <<'PY' || fail "boots.jsonl is not what it should be"
import json, os, sys
d = sys.argv[1]
names = ["c0", "c1", "c2", "c3", "c4"]
seen = {}
for line in open(os.path.join(d, "boots.jsonl")):
    b = json.loads(line)
    assert b["candidate"] == names[b["index"]], b
    seen[b["index"]] = seen.get(b["index"], 0) + 1
    assert b["boot"] == seen[b["index"]], b
    assert b["outcome"] == "ok" and b["stat"] == "stress-ng.null.ops_per_sec", b
    assert len(b["values"]) == 2 and all(v > 0 for v in b["values"]), b
    assert os.path.isdir(os.path.join(d, b["folder"])), b
assert 1 not in seen, "c1 was never the middle"
assert set(seen) == {0, 2, 3, 4}, seen
PY
# --parallel 2: each comparison's two sides booted together, each VM on its own host CPU,
# the sides taking turns on each CPU
python3 - "$T/bis/run.json" <<'PY' || fail "run.json: the comparisons' pairs"
import json, sys
boots = [b for b in json.load(open(sys.argv[1]))["boots"] if b["outcome"] == "poweroff"]
by_id = {b["boot_id"]: b for b in boots}
cpus = {}
for b in boots:
    s = b.get("side_by_side")
    assert s, ("booted alone", b["params"]["kernel"])
    (p,) = s["partners"]
    other = by_id[p]
    assert other["params"]["kernel"] != b["params"]["kernel"], (b["params"], other["params"])
    assert other["side_by_side"]["host_cpus"] != s["host_cpus"], (s, other["side_by_side"])
    cpus.setdefault(s["host_cpus"], set()).add(b["params"]["kernel"])
assert len(cpus) == 2 and all("c0" in k for k in cpus.values()), cpus
print("run.json: %d boots in %d pairs; kernels on each host CPU set: %s" % (len(boots), len(boots) // 2, cpus))
PY
runjson=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["boots"]))' "$T/bis/run.json")
# run.json also holds the interrupted pair of (1)
expect_eq "run.json boots" "$runjson" $((boots + 2))
echo "NOTE: measured: $boots boots in $took s; $(grep "^change D" "$T/run.out")"
# the 0-day table of the culprit against its parent, as the result says to get it
expect_grep "^the 0-day table of the culprit against its parent: benchboot compare $T/bis --a kernel=c2 --b kernel=c3$" "$T/run.out"
# and the table itself, after that line: the culprit's change marked
sed -n '/^the 0-day table of the culprit/,$p' "$T/run.out" >"$T/table.out"
expect_grep "I.* stress-ng.null.ops_per_sec" "$T/table.out"
rc=0
"$BENCHBOOT" compare "$T/bis" --a kernel=c2 --b kernel=c3 >"$T/cmp.out" 2>&1 || rc=$?
cat "$T/cmp.out"
expect_eq "compare c2 c3: exit code (changes marked)" "$rc" 1
expect_grep "I.* stress-ng.null.ops_per_sec" "$T/cmp.out"

# the bisection added its boots to the store (tests/lib.sh: BENCHBOOT_DB) as they came: trend
# over them, in the kernels file's order (c1 has no boots), finds the change between c2 and c3
printf '%s\n' c0 c1 c2 c3 c4 >"$T/order"
rc=0
"$BENCHBOOT" trend null --order "$T/order" --stat stress-ng.null.ops_per_sec >"$T/trend.out" 2>&1 || rc=$?
cat "$T/trend.out"
expect_eq "trend over the bisection's boots: exit code (a change found)" "$rc" 1
expect_grep "^  change between c2 and c3 (kernel 3 of 4): -[0-9.]*% " "$T/trend.out"
[ "$(grep -c '^  change between' "$T/trend.out")" = 1 ] || fail "trend: more than the one change point"
# its kernels file gives each end the command line it was booted with, as the kernels file did
expect_grep "^c2 [^ ]* - mitigations=auto$" "$T/trend.out"
expect_grep "^c3 [^ ]* - $slow$" "$T/trend.out"

# (3) --resume of a finished bisection: every boot replayed, none made
rc=0
bisect again.out --resume || rc=$?
tail -n 12 "$T/again.out"
expect_eq "resumed again: exit code" "$rc" 0
expect_grep "^culprit: c3$" "$T/again.out"
expect_grep "^boots: $boots (0 failed, $boots replayed from the log)" "$T/again.out"
if grep -q "^boot [0-9]*: kernel" "$T/again.out"; then fail "the replay booted a kernel"; fi

# without --resume the folder is not overwritten
rc=0
bisect fresh.out || rc=$?
expect_eq "a second bisection into the same folder: exit code" "$rc" 100
expect_grep "boots.jsonl holds the boots of an earlier bisection: --resume continues it" "$T/fresh.out"

# (4) a malformed --kernels file
printf 'c0 %s\nc1\n' "$kernel" >"$T/bad-kernels"
rc=0
"$BENCHBOOT" bisect "$T/null.yaml" --kernels "$T/bad-kernels" -o "$T/bad" >"$T/bad.out" 2>&1 || rc=$?
expect_eq "a malformed kernels file: exit code" "$rc" 100
expect_grep "bad-kernels:2: 'c1' has no VMLINUZ" "$T/bad.out"
