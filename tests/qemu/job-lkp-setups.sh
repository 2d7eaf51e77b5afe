# LKP's setups in one TCG boot (tests/fixtures/lkp/netperf-cgroup2-netbuf.yaml): cgroup2 with
# memory.high 90% (bytes of this VM's MemTotal), memory.low 50%, pids.max, the job (netserver
# and the netperf clients) in that cgroup; net-buffer's socket buffers (MemTotal / 2 clients
# / 16) and sctp buffers; sc_somaxconn found under /proc/sys; each read back and recorded.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
job_run tests/fixtures/lkp/netperf-cgroup2-netbuf.yaml
job_check "$T/res" netperf.Throughput_Mbps >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
expect_grep "cgroup v2 mounted" "$T/check"
python3 - "$T/res" <<'PY' || fail "LKP's setups were not read back as asked"
import json, os, sys
res = sys.argv[1]
boot = sorted(d for d in os.listdir(res) if d[:1].isdigit())[0]
env = json.load(open(os.path.join(res, boot, "env.json")))
mem = env["memory"]["total_kB"] * 1024
lim = env["cgroup"]["limits"]
def near(actual, want, page=4096):
    return abs(int(actual) - want) < page
for f, pct in (("memory.high", 90), ("memory.low", 50)):
    if lim[f]["requested"] != "%d%%" % pct or not near(lim[f]["actual"], pct * mem // 100):
        sys.exit("%s: %s, want %d%% of %d bytes" % (f, lim[f], pct, mem))
if lim["pids.max"]["actual"] != "10000" or lim["memory.max"]["actual"] != "max":
    sys.exit("pids.max / memory.max: %s" % lim)
if "memory.swap.max" in lim:
    sys.exit("memory.swap.max has no value in the job and must be left alone")
run = "SCTP_STREAM"
st = json.load(open(os.path.join(res, boot, "runs", run, "1", "status")))
if not st["cgroup"]["all_in_job_cgroup"] or not st["servers"] or not all(p["in_job_cgroup"] for p in st["servers"]):
    sys.exit("netserver and the clients must run in the job cgroup: %s" % st["cgroup"])
sysctl = st["sysctl"]
buf = mem // 2 // 16
for k in ("net.core.wmem_max", "net.core.rmem_max", "net.core.wmem_default", "net.core.rmem_default"):
    if sysctl[k]["actual"] != str(buf):
        sys.exit("%s: %s, want %d" % (k, sysctl[k], buf))
for k in ("net.sctp.sctp_rmem", "net.sctp.sctp_wmem"):
    if sysctl[k]["actual"] != "4096 349500 %d" % buf:
        sys.exit("%s: %s" % (k, sysctl[k]))
if sysctl["sc_somaxconn"]["actual"] != "2048":
    sys.exit("sc_somaxconn: %s" % sysctl["sc_somaxconn"])
print("memory.high %s, memory.low %s of MemTotal %d; net buffers %d; somaxconn 2048; all in the job cgroup"
      % (lim["memory.high"]["actual"], lim["memory.low"]["actual"], mem, buf))
PY
