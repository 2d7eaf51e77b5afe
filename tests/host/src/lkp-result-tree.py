# An LKP result tree of synthetic runs, laid out as LKP's lib/result.rb's default path scheme
# (TESTCASE/PATH_PARAMS/TBOX_GROUP/ROOTFS/KCONFIG/COMPILER/COMMIT/RUN with job.yaml and
# stats.json, a value per stat as lib/matrix.rb writes it), for tests/host/trend.sh:
#   lkp-result-tree.py OUT COMMITS RUNS STEP_AT STEP%
import hashlib, json, os, random, sys

out, commits, runs, step_at, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
rnd = random.Random(3)
params = "performance-ipv4-300s-200%-SCTP_STREAM_MANY-cs-localhost"
for c in range(1, commits + 1):
    commit = hashlib.sha1(b"commit %d" % c).hexdigest()
    for r in range(runs):
        root = os.path.join(out, "netperf", params, "lkp-skl-d01", "debian-12-x86_64", "x86_64-rhel-9.4",
                            "gcc-12", commit, str(r))
        os.makedirs(root)
        level = 1000 * (1 + step / 100) if step_at and c >= step_at else 1000
        with open(os.path.join(root, "job.yaml"), "w") as f:
            f.write("---\nsuite: netperf\ntestcase: netperf\ncategory: benchmark\nruntime: 300s\n"
                    "nr_threads: 200%%\ncommit: %s\nkernel: \"/pkg/linux/x86_64-rhel-9.4/gcc-12/%s/vmlinuz-6.1.0-rc%d\"\n"
                    "netperf:\n  test: SCTP_STREAM_MANY\n" % (commit, commit, c))
        json.dump({"netperf.Throughput_Mbps": round(level * (1 + 0.006 * rnd.gauss(0, 1)), 2),
                   "netperf.Throughput_total_Mbps": round(4 * level, 2),
                   "netperf.workload": 123456}, open(os.path.join(root, "stats.json"), "w"))
