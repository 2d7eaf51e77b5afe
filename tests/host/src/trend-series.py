# A results folder of synthetic boots shaped like collected ones, for tests/host/trend.sh:
#   trend-series.py FIXTURE_BOOT OUT KERNELS BOOTS STEP_AT STEP% [SEED]
# KERNELS kernels K01.. with BOOTS boots each, the fixture boot's netperf runs copied with
# netperf.Throughput_Mbps around 1000 (1% noise, 3 iterations), STEP% from kernel STEP_AT on
# (1-based; 0: no step); run.json labels each boot with its kernel as `benchboot run` does.
import json, os, random, shutil, sys

src, out, kernels, boots, step_at, step = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
rnd = random.Random(int(sys.argv[7]) if len(sys.argv) > 7 else 1)
os.makedirs(out, exist_ok=True)
entries = []
n = 0
width = max(4, len(str(kernels * boots)))  # folders sort in boot order, as NNNN does
for k in range(1, kernels + 1):
    for b in range(boots):
        n += 1
        boot_id = "%08x" % (0x10000000 + n)
        d = os.path.join(out, "%0*d-%s" % (width, n, boot_id))
        shutil.copytree(src, d)
        env = json.load(open(os.path.join(d, "env.json")))
        env["boot_id"] = boot_id
        json.dump(env, open(os.path.join(d, "env.json"), "w"), indent=1)
        level = 1000 * (1 + step / 100) if step_at and k >= step_at else 1000
        for run in os.listdir(os.path.join(d, "runs")):
            p = os.path.join(d, "runs", run, "results.json")
            r = json.load(open(p))
            r["netperf.Throughput_Mbps"] = [round(level * (1 + 0.01 * rnd.gauss(0, 1)), 2) for _ in range(3)]
            json.dump(r, open(p, "w"), indent=1)
        entries.append({"boot_id": boot_id, "params": {"kernel": "K%02d" % k}, "outcome": "finished"})
json.dump({"boots": entries}, open(os.path.join(out, "run.json"), "w"), indent=1)
