# The order of the iterations within a boot (TCG, one boot each): a job of two runs (an A/A
# axis, kernel.printk_ratelimit 5 and 6) x 2 iterations runs interleaved by default (A1 B1 A2
# B2) and as the job says with `order: random` + `seed:` (the same on the console and in the
# records); every iteration's status records its position in the boot, env.json the order
# and seed, and the console the same (run-start pos=P/T, boot-start order= seed=).
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
its = []
for st in glob.glob(sys.argv[1] + "/0*/runs/*/*/status"):
    s = json.load(open(st))
    its.append((s["position"], s["positions"], s["order"], s["run"], s["iteration"]))
its.sort()
assert [p for p, *_ in its] == list(range(1, len(its) + 1)), its
assert all(t == len(its) for _, t, *_ in its), its
print(its[0][2], " ".join("%s:%d" % (r.split("printk_ratelimit-")[1], i) for *_, r, i in its))
PY
}

job inter ""
expect_eq "interleaved, as recorded" "$(recorded "$T/inter")" "interleaved 5:1 6:1 5:2 6:2"
con=$(ls "$T"/inter/console/*.log | head -n1)
expect_grep "BENCHBOOT boot-start .* order=interleaved seed=0" "$con"
expect_grep "BENCHBOOT run-start id=TCP_STREAM.printk_ratelimit-6 iter=1/2 .* pos=2/4" "$con"
expect_grep '"order": "interleaved"' "$T"/inter/0*/env.json

job rand "order: random
seed: 3"
got=$(recorded "$T/rand")
echo "random, seed 3: $got"
expect_grep '"order_seed": 3' "$T"/rand/0*/env.json
con=$(ls "$T"/rand/console/*.log | head -n1)
expect_grep "BENCHBOOT boot-start .* order=random seed=3" "$con"
# what the plan's own sequence says for seed 3, runs in plan order (5, then 6)
want=$(sed -n 's/^BENCHBOOT run-start id=TCP_STREAM.printk_ratelimit-\([56]\) iter=\([12]\)\/2 .*/\1:\2/p' "$con" | tr -d '\r' | tr '\n' ' ')
expect_eq "random: console order = recorded order" "random ${want% }" "$got"
