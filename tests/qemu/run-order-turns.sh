# The run order turns across boots (TCG, 2 boots): an A/A job of two runs
# (kernel.printk_ratelimit 5 and 6, one 1 s iteration each) booted twice by `benchboot run
# --repeat 2` runs 5 then 6 in the first boot and 6 then 5 in the second (run.json's
# order_rotate and cmdline, env.json's order_rotate, the console's boot-start rotate=, the
# iterations' positions), and compare --by printk_ratelimit pairs the two boots in their two
# orders: the order effect takes the one degree of freedom two boots have, so no interval
# and no I mark, and it says so.
. tests/lib.sh
bb_need init netperf qemu

cat >"$T/aa.yaml" <<'JOB'
suite: netperf
runtime: 1s
iterations: 1
nr_threads: 1
cluster: cs-localhost
sysctl:
  kernel.printk_ratelimit: [5, 6]
if role server:
  netserver:
if role client:
  netperf:
    test: TCP_STREAM
JOB
rc=0
bb_timeout 900 "$BENCHBOOT" run "$T/aa.yaml" --accel tcg --repeat 2 --images "$T/images" \
	-o "$T/res" >"$T/run.out" 2>&1 || rc=$?
cat "$T/run.out"
expect_eq "run: exit code" $rc 0
python3 - "$T/res" <<'PY' || fail "the order did not turn from the first boot to the second"
import glob, json, os, sys
res = sys.argv[1]
boots = json.load(open(os.path.join(res, "run.json")))
if isinstance(boots, dict):
    boots = boots["boots"]
assert [b["order_rotate"] for b in boots] == [0, 1], [b.get("order_rotate") for b in boots]
assert [b["cmdline"].endswith("benchboot.order.rotate=%d" % k) for k, b in enumerate(boots)] == [True, True], [b["cmdline"] for b in boots]
orders = []
for b in boots:
    folder = os.path.join(res, b["folder"])
    env = json.load(open(os.path.join(folder, "env.json")))
    pos = {}
    for st in glob.glob(folder + "/runs/*/*/status"):
        s = json.load(open(st))
        pos[s["position"]] = s["run"].split("printk_ratelimit-")[1]
    orders.append((env["order_rotate"], " ".join(pos[p] for p in sorted(pos))))
assert orders == [(0, "5 6"), (1, "6 5")], orders
print("orders by boot:", orders)
PY
for con in "$T"/res/console/*.log; do
	expect_grep "BENCHBOOT boot-start .* order=interleaved seed=0 rotate=[01]" "$con"
done
"$BENCHBOOT" compare "$T/res" --by printk_ratelimit --all >"$T/cmp" 2>&1 || fail "compare: $(cat "$T/cmp")"
cat "$T/cmp"
expect_grep "order: A first in 1 boots, B first in 1; the order effect takes the one degree of" "$T/cmp"
expect_grep "\[too few boots\] .*netperf.Throughput_Mbps" "$T/cmp"
if grep -E " I[ L] +netperf\.Throughput_Mbps" "$T/cmp"; then fail "an A/A of 2 boots in 2 orders got the I mark"; fi
"$BENCHBOOT" compare "$T/res" --by printk_ratelimit --all --json >"$T/cmp.json" || fail "compare --json"
python3 - "$T/cmp.json" <<'PY' || fail "compare --json does not say how the order was handled"
import json, sys
c = json.load(open(sys.argv[1]))
def walk(o):
    if isinstance(o, dict):
        if o.get("name") == "netperf.Throughput_Mbps" and "interval" in o:
            yield o
        for v in o.values():
            yield from walk(v)
    elif isinstance(o, list):
        for v in o:
            yield from walk(v)
s = next(walk(c))
iv = s["interval"]
assert iv["paired"] and iv["order_taken_out"], iv
assert iv["a_first_boots"] == 1 and iv["b_first_boots"] == 1, iv
assert iv["low_percent"] is None and not iv["excludes_zero"], iv
assert iv["order_effect_percent"] is not None, iv
print("order effect (2 boots):", iv["order_effect_percent"], "%")
PY
