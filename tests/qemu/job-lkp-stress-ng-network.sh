# A stress-ng network stressor with LKP's command line under TCG
# (tests/fixtures/lkp/stress-ng-network-short.yaml): udp runs as programs/stress-ng/run runs it
# (--timeout 2 --times --verify --metrics --no-rand-seed --udp N) with its sysctls read back
# (kernel.sched_autogroup_enabled=0, net.core.somaxconn=4096) and LKP's stat names; eth-sniff,
# which stress-ng 0.15.06 lacks, fails alone: its status records stress-ng_version 0.15.06 and
# its output stress-ng's "unrecognized option" (benchboot run exits 1).
. tests/lib.sh
. tests/qemu/job.inc
# the plan the image carries: LKP's command line (and benchboot's --log-file)
"$BENCHBOOT" check -v tests/fixtures/lkp/stress-ng-network-short.yaml >"$T/plan" 2>"$T/warn"
expect_grep "stress-ng 0.15.06 (the image's) has no stressor 'eth-sniff': that run will fail" "$T/warn"
expect_eq "udp command line" \
	"$(awk '$0 == "[run udp]" {on=1; next} /^\[run /{on=0} on && /^client.arg=/{sub(/^client.arg=/,""); printf "%s ", $0}' "$T/plan")" \
	"/usr/bin/stress-ng --timeout 2 --times --verify --metrics --no-rand-seed --log-file /proc/self/fd/1 --udp 0 "
rc=0
bb_timeout 1500 nice "$BENCHBOOT" run tests/fixtures/lkp/stress-ng-network-short.yaml --accel tcg \
	--images "$T/images" -o "$T/res" >"$T/run.out" 2>&1 || rc=$?
cat "$T/run.out"
expect_eq "benchboot run: exit code (one run failed)" "$rc" 1
python3 - "$T/res" <<'PY' || fail "results of the stress-ng network job"
import json, os, sys
res = sys.argv[1]
boot = sorted(d for d in os.listdir(res) if d[:1].isdigit())[0]
runs = os.path.join(res, boot, "runs")
udp = json.load(open(os.path.join(runs, "udp", "1", "status")))
if udp["status"] != "ok":
    sys.exit("udp: %s %s" % (udp["status"], udp["reason"]))
r = json.load(open(os.path.join(runs, "udp", "results.json")))
for s in ("stress-ng.udp.pass", "stress-ng.udp.ops", "stress-ng.udp.ops_per_sec",
          "stress-ng.time.elapsed_time", "time.elapsed_time"):
    if not r.get(s) or not r[s][0] > 0:
        sys.exit("udp: %s = %s" % (s, r.get(s)))
for k, v in (("net.core.somaxconn", "4096"), ("kernel.sched_autogroup_enabled", "0")):
    if udp["sysctl"][k]["actual"] != v:
        sys.exit("udp: sysctl %s: %s" % (k, udp["sysctl"][k]))
if udp["params"].get("stress-ng_version") != "0.15.06":
    sys.exit("udp: stress-ng_version %s" % udp["params"].get("stress-ng_version"))
sd = os.path.join(runs, "eth-sniff", "1")
sniff = json.load(open(os.path.join(sd, "status")))
err = "".join(open(os.path.join(sd, f), errors="replace").read() for f in os.listdir(sd) if f.startswith("client."))
if sniff["status"] == "ok" or sniff["params"].get("stress-ng_version") != "0.15.06" or \
        "unrecognized option '--eth-sniff'" not in err:
    sys.exit("eth-sniff: %s %s, stress-ng_version %s, output %r" % (
        sniff["status"], sniff["reason"], sniff["params"].get("stress-ng_version"), err[:300]))
print("udp ok: ops", r["stress-ng.udp.ops"], "somaxconn 4096; eth-sniff:", sniff["reason"],
      "(stress-ng 0.15.06:", err.strip().splitlines()[-1] + ")")
PY
