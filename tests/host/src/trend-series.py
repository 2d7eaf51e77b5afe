# A results folder of synthetic boots shaped like collected ones, for tests/host/trend.sh:
#   trend-series.py FIXTURE_BOOT OUT KERNELS BOOTS STEP_AT STEP% [SEED] [--names FILE]
#                   [--vmlinuz DIR] [--job-file PATH]
# KERNELS kernels K01.. (or the names FILE lists, one a line: commits of a tree, say) with
# BOOTS boots each, the fixture boot's netperf runs copied with
# netperf.Throughput_Mbps around 1000 (1% noise, 3 iterations), STEP% from kernel STEP_AT on
# (1-based; 0: no step); run.json labels each boot with its kernel as `benchboot run` does,
# and with --vmlinuz names a kernel file DIR/vmlinuz-NAME (made, its bytes the name) and with
# --job-file the job file, as run records them.
import json, os, random, shutil, sys

args, opts = sys.argv[1:], {}
while len(args) >= 2 and args[-2].startswith("--"):
    opts[args[-2]] = args[-1]
    args = args[:-2]
src, out, kernels, boots, step_at, step = args[0], args[1], int(args[2]), int(args[3]), int(args[4]), float(args[5])
rnd = random.Random(int(args[6]) if len(args) > 6 else 1)
names = open(opts["--names"]).read().split() if "--names" in opts else ["K%02d" % k for k in range(1, kernels + 1)]
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
        entry = {"boot_id": boot_id, "params": {"kernel": names[k - 1]}, "outcome": "finished"}
        if "--vmlinuz" in opts:
            entry["vmlinuz"] = os.path.join(opts["--vmlinuz"], "vmlinuz-" + names[k - 1])
            os.makedirs(opts["--vmlinuz"], exist_ok=True)
            open(entry["vmlinuz"], "w").write(names[k - 1] + "\n")
        if "--job-file" in opts:
            entry["job_file"] = opts["--job-file"]
        entries.append(entry)
json.dump({"boots": entries}, open(os.path.join(out, "run.json"), "w"), indent=1)
