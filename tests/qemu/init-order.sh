# The order of the iterations within a boot (TCG, one boot each): a job of two runs (an A/A
# axis, kernel.printk_ratelimit 5 and 6) x 2 iterations runs interleaved by default (A1 B1 A2
# B2) and as the job says with `order: random` + `seed:` (the same on the console and in the
# records); every iteration's status records its position in the boot, env.json the order
# and seed, and the console the same (run-start pos=P/T, boot-start order= seed=). The random
# job also has `warmup: 1`: one warm-up iteration of the boot's first run comes first
# (position 1, runs/RUNID/warmup-1, marked in its status and on the console), its throughput
# is not in results.json, and compare leaves it out and says so.
. tests/lib.sh
bb_need init netperf qemu

job() { # NAME EXTRA-KEYS
	cat >"$T/$1.yaml" <<JOB
suite: netperf
runtime: 1s
iterations: 2
nr_threads: 1
cluster: cs-localhost
$2
sysctl:
  kernel.printk_ratelimit: [5, 6]
if role server:
  netserver:
if role client:
  netperf:
    test: TCP_STREAM
JOB
	local rc=0
	bb_timeout 900 "$BENCHBOOT" run "$T/$1.yaml" --accel tcg --images "$T/images" -o "$T/$1" \
		>"$T/$1.out" 2>&1 || rc=$?
	cat "$T/$1.out"
	expect_eq "$1: exit code" $rc 0
}

# ORDER FOLDER: "RUN:ITER ..." in the order of the recorded positions
recorded() {
	python3 - "$1" <<'PY'
import json, glob, sys
its, warm = [], []
for st in glob.glob(sys.argv[1] + "/0*/runs/*/*/status"):
    s = json.load(open(st))
    (warm if s.get("warmup") else its).append(
        (s["position"], s["positions"], s["order"], s["run"], s["iteration"]))
its.sort()
# warm-ups first, then the measured iterations: positions 1..T over both
assert [p for p, *_ in sorted(warm + its)] == list(range(1, len(its) + len(warm) + 1)), (warm, its)
assert [p for p, *_ in sorted(warm)] == list(range(1, len(warm) + 1)), warm
assert all(t == len(its) + len(warm) for _, t, *_ in its + warm), its
print(its[0][2], " ".join("%s:%d" % (r.split("printk_ratelimit-")[1], i) for *_, r, i in its))
PY
}

job inter ""
expect_eq "interleaved, as recorded" "$(recorded "$T/inter")" "interleaved 5:1 6:1 5:2 6:2"
con=$(ls "$T"/inter/console/*.log | sed -n 1p)
expect_grep "BENCHBOOT boot-start .* order=interleaved seed=0" "$con"
expect_grep "BENCHBOOT run-start id=TCP_STREAM.printk_ratelimit-6 iter=1/2 .* pos=2/4" "$con"
expect_grep '"order": "interleaved"' "$T"/inter/0*/env.json

job rand "order: random
seed: 3
warmup: 1"
got=$(recorded "$T/rand")
echo "random, seed 3: $got"
expect_grep '"order_seed": 3' "$T"/rand/0*/env.json
con=$(ls "$T"/rand/console/*.log | sed -n 1p)
expect_grep "BENCHBOOT boot-start .* order=random seed=3" "$con"
# what the plan's own sequence says for seed 3, runs in plan order (5, then 6)
want=$(sed -n 's/^BENCHBOOT run-start id=TCP_STREAM.printk_ratelimit-\([56]\) iter=\([12]\)\/2 .*/\1:\2/p' "$con" | tr -d '\r' | tr '\n' ' ')
expect_eq "random: console order = recorded order" "random ${want% }" "$got"

# the warm-up: the first run of the sequence, first, kept apart
first=$(sed -n 's/^BENCHBOOT run-start id=\(TCP_STREAM.printk_ratelimit-[56]\) iter=[12]\/2 .*/\1/p' "$con" | sed -n 1p)
expect_grep "BENCHBOOT run-start id=$first iter=0/2 .* pos=1/5 warmup=1" "$con"
expect_grep "BENCHBOOT run-end id=$first iter=0 warmup=1 status=ok" "$con"
expect_grep "run [12]/2 $first warm-up 1: ok" "$T/rand.out"
w=$(echo "$T"/rand/0*/runs/"$first"/warmup-1)
expect_grep '"warmup": 1' "$w/status"
expect_grep '"position": 1' "$w/status"
expect_grep '"netperf.Throughput_Mbps"' "$w/results.json"
python3 - "$T"/rand/0*/runs <<'PY' || fail "results.json holds other than the 2 measured iterations"
import json, glob, sys
for f in glob.glob(sys.argv[1] + "/*/results.json"):
    v = json.load(open(f))["netperf.Throughput_Mbps"]
    assert len(v) == 2, (f, v)
PY
rc=0
"$BENCHBOOT" compare "$T/rand" --by printk_ratelimit --all --json >"$T/cmp.json" || rc=$?
[ $rc -le 1 ] || fail "compare exit code $rc"
"$BENCHBOOT" compare "$T/rand" --by printk_ratelimit --all >"$T/cmp.txt" || true
cat "$T/cmp.txt"
expect_grep "warm-up iterations kept apart, not compared: [01] in A, [01] in B" "$T/cmp.txt"
python3 - "$T/cmp.json" "$w/results.json" <<'PY' || fail "compare used the warm-up"
import json, sys
j = json.load(open(sys.argv[1]))
warm = json.load(open(sys.argv[2]))["netperf.Throughput_Mbps"][0]
s = [s for s in j["runs"][0]["stats"] if s["name"] == "netperf.Throughput_Mbps"][0]
assert s["a"]["n"] == 2 and s["b"]["n"] == 2, s
assert warm not in s["a"]["values"] + s["b"]["values"], (warm, s)
PY
