# benchboot bisect --resume replays DIR/boots.jsonl into the bisection before it boots anything:
# with a log that holds enough boots, the whole bisection runs from it and no VM starts (only
# the first candidate's image is built, as at every start). Logs written here (values with a
# step at a known candidate, failed boots, no step at all) check the decisions and the words of
# the result on the real verb: the culprit and its parent, a range around untestable
# candidates, "no reproducible change"; and a log of another bisection is refused.
. tests/lib.sh
bb_need init sysroot kernel
kernel=$(ls "$SYSROOT"/boot/vmlinuz-* | sed -n 1p)
cat >"$T/cpu.yaml" <<'JOB'
suite: stress-ng
nr_threads: 2
testtime: 3s
stress-ng:
  test: cpu
JOB
for k in 0 1 2 3 4 5 6 7; do echo "c$k $kernel"; done >"$T/kernels"

# log DIR STEP_AT FAILED...: 30 boots of each of 8 candidates, values about 1000 (CV 1%),
# halved from candidate STEP_AT on (none: 99); the candidates FAILED fail every boot
log() {
	mkdir -p "$1"
	python3 - "$@" <<'PY'
import json, random, sys
d, step, failed = sys.argv[1], int(sys.argv[2]), {int(x) for x in sys.argv[3:]}
rng = random.Random(7)
with open(d + "/boots.jsonl", "w") as f:
    for boot in range(1, 31):
        for i in range(8):
            m = 1000 * (0.5 if i >= step else 1) * (1 + 0.01 * rng.gauss(0, 1))
            e = {"candidate": "c%d" % i, "index": i, "boot": boot, "stat": "stress-ng.cpu.ops_per_sec",
                 "folder": "", "detail": ""}
            if i in failed:
                e.update(outcome="hang", values=[], detail="no console output")
            else:
                e.update(outcome="ok", values=[m * (1 + 0.002 * rng.gauss(0, 1)) for _ in range(2)])
            f.write(json.dumps(e) + "\n")
PY
}
bisect() { # OUT DIR ARGS...
	local out=$1 dir=$2 rc=0
	shift 2
	bb_timeout 300 "$BENCHBOOT" bisect "$T/cpu.yaml" --kernels "$T/kernels" --accel tcg \
		--images "$T/images" -o "$dir" --resume "$@" >"$T/$out" 2>&1 || rc=$?
	cat "$T/$out"
	return $rc
}

log "$T/step" 5
rc=0
bisect step.out "$T/step" || rc=$?
expect_eq "a step at c5: exit code" "$rc" 0
expect_grep "^step 1: ends: bad c7 against good c0, 3 + 3 boots: -[45][0-9.]*% .*: changed; left: c0 .. c7, 6 candidates between" "$T/step.out"
expect_grep "^step 2: candidate c3 against good c0, 3 + 3 boots: .*: old (D/2 = -2[0-9.]*%); left: c3 .. c7, 3 candidates between" "$T/step.out"
expect_grep "^culprit: c5$" "$T/step.out"
expect_grep "^parent:  c4$" "$T/step.out"
expect_grep "^verification: c5 against c4: .*: confirmed, [0-9]*% of D" "$T/step.out"
expect_grep "^error bound: 0.0[0-9]* spent of alpha 0.05" "$T/step.out"
expect_grep "^boots: \([0-9]*\) (0 failed, \1 replayed from the log)" "$T/step.out"
if grep -q "^boot [0-9]*: kernel" "$T/step.out"; then fail "a replay booted a kernel"; fi

# untestable neighbours of the change: the range, not a guess (exit 0)
log "$T/range" 5 4 5
rc=0
bisect range.out "$T/range" || rc=$?
expect_eq "untestable c4 and c5: exit code" "$rc" 0
expect_grep "untestable" "$T/range.out"
expect_grep "^result: the change is after c3 and at or before c6 (2 candidates between, untested or undecided): the candidates between could not be tested" "$T/range.out"
expect_grep "^boots: [0-9]* ([1-9][0-9]* failed, " "$T/range.out"

# no step: no reproducible change (exit 1), no culprit named
log "$T/none" 99
rc=0
bisect none.out "$T/none" --max-boots 5 || rc=$?
expect_eq "no change: exit code" "$rc" 1
expect_grep "^result: no reproducible change between c0 and c7: " "$T/none.out"
if grep -q "^culprit" "$T/none.out"; then fail "a culprit named without a change"; fi

# another bisection's log (the candidates renamed) is refused
sed 's/^c3 /x3 /' "$T/kernels" >"$T/kernels2"
rc=0
"$BENCHBOOT" bisect "$T/cpu.yaml" --kernels "$T/kernels2" --accel tcg --images "$T/images" \
	-o "$T/step" --resume >"$T/other.out" 2>&1 || rc=$?
expect_eq "another bisection's log: exit code" "$rc" 100
expect_grep "boots.jsonl: boot 4 is of candidate 3 'c3', which the candidates call otherwise" "$T/other.out"
