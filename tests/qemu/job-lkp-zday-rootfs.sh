# A 0-day job names its rootfs and no cgroup setup of its own (tests/fixtures/lkp/zday-rootfs.yaml:
# rootfs debian-11.1 and debian-10.4, an axis of two boots): benchboot reproduces what that
# rootfs's systemd did before LKP's job ran (lib/host/job/rootfs.c). Read back from env.json
# and from each client's /proc/PID/cgroup:
# - debian-11.1 (systemd 247): cgroup v2 only, the clients in /system.slice/lkp-bootstrap.service
#   with the memory (and pids) controller on for that cgroup;
# - debian-10.4 (systemd 241): hybrid, the v1 memory and pids hierarchies holding the job's
#   cgroup, cgroup2 without controllers on /sys/fs/cgroup/unified; the clients in the v1
#   memory hierarchy's /system.slice/lkp-bootstrap.service.
# --set runtime=2s makes the 300 s attachment short, and env.json records the override.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
JOB_RUN_TIMEOUT=600 JOB_RUN_OPTS="--repeat 1 --set runtime=2s" job_run tests/fixtures/lkp/zday-rootfs.yaml
python3 - "$T/res" <<'PY' || fail "the rootfs cgroup layouts as read back"
import json, os, sys
res = sys.argv[1]
svc = "/system.slice/lkp-bootstrap.service"
boots = sorted(d for d in os.listdir(res) if d[:1].isdigit() and os.path.isdir(os.path.join(res, d)))
seen = {}
for b in boots:
    bd = os.path.join(res, b)
    env = json.load(open(os.path.join(bd, "env.json")))
    cg = env["cgroup"]
    if env.get("job_overrides") != ["runtime=2s"]:
        sys.exit("%s: job_overrides %r, want ['runtime=2s']" % (b, env.get("job_overrides")))
    run = "TCP_STREAM"
    st = json.load(open(os.path.join(bd, "runs", run, "1", "status")))
    rootfs = st["params"].get("lkp.rootfs", "")
    if st["params"].get("runtime") != "2s":
        sys.exit("%s: runtime %r, want 2s (--set)" % (b, st["params"].get("runtime")))
    if not cg["setup_ok"] or cg["job_cgroup"] != svc:
        sys.exit("%s (%s): cgroup setup_ok %s, job cgroup %s, want %s" % (b, rootfs, cg["setup_ok"], cg["job_cgroup"], svc))
    mounts = {m["path"]: m["type"] for m in cg["mounts"]}
    # the clients (and the servers) as the kernel places them, each line of /proc/PID/cgroup
    procs = [p for k in ("clients", "servers") for p in st.get(k) or []]
    if not any(True for k in ("clients",) for p in st.get(k) or []):
        sys.exit("%s: no clients in %s/runs/%s/1/status: %s" % (b, bd, run, sorted(st)))
    for p in procs:
        if p.get("in_job_cgroup") is not True:
            sys.exit("%s: a process not in the job cgroup: %r" % (b, p))
    lines = [set(p["cgroup"].split(";")) for p in st["clients"]]
    if rootfs.startswith("debian-11.1"):
        if cg["mode_requested"] != "v2" or set(mounts.values()) != {"cgroup2"}:
            sys.exit("%s (%s): mode %s, mounts %r: want cgroup v2 alone" % (b, rootfs, cg["mode_requested"], mounts))
        ctrls = (cg.get("job_controllers") or "").split()
        if "memory" not in ctrls or "pids" not in ctrls:
            sys.exit("%s (%s): the job cgroup's controllers %r lack memory or pids" % (b, rootfs, ctrls))
        for l in lines:
            if l != {"0::" + svc}:
                sys.exit("%s (%s): a client's /proc/PID/cgroup %r, want 0::%s" % (b, rootfs, l, svc))
        seen["v2"] = b
    elif rootfs.startswith("debian-10.4"):
        if cg["mode_requested"] != "hybrid":
            sys.exit("%s (%s): mode %s, want hybrid" % (b, rootfs, cg["mode_requested"]))
        if mounts.get("/sys/fs/cgroup/unified") != "cgroup2" or "cgroup" not in mounts.values():
            sys.exit("%s (%s): mounts %r: want v1 hierarchies and cgroup2 on /sys/fs/cgroup/unified" % (b, rootfs, mounts))
        if set((cg.get("job_controllers") or "").split()) != {"memory", "pids"}:
            sys.exit("%s (%s): v1 hierarchies holding the job cgroup %r, want memory pids" % (b, rootfs, cg.get("job_controllers")))
        for l in lines:
            mem = [x for x in l if x.split(":")[1:2] == ["memory"]]
            if mem != ["%s:memory:%s" % (mem[0].split(":")[0] if mem else "?", svc)] or ("0::" + svc) not in l:
                sys.exit("%s (%s): a client's /proc/PID/cgroup %r: want memory:%s and 0::%s" % (b, rootfs, l, svc, svc))
        seen["hybrid"] = b
    else:
        sys.exit("%s: rootfs %r, want debian-11.1 or debian-10.4" % (b, rootfs))
    print("%s: rootfs %s: cgroup %s, mounts %s, job cgroup %s, controllers '%s', a client in %s" % (
        b, rootfs, cg["mode_requested"], " ".join("%s=%s" % kv for kv in sorted(mounts.items())),
        cg["job_cgroup"], cg.get("job_controllers"), ";".join(sorted(lines[0]))))
if sorted(seen) != ["hybrid", "v2"]:
    sys.exit("boots %s: want one debian-11.1 (v2) and one debian-10.4 (hybrid), got %r" % (boots, seen))
PY
