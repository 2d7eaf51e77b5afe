# What each of LKP's monitors costs under TCG, in one run: the prsctp job's SCTP_STREAM_MANY
# (RUNTIME s, default 10; 200% clients; ITER measured iterations, default 2, and one monitored
# iteration) booted once per monitor set: none, the /proc monitors (vmstat, proc-vmstat,
# meminfo, slabinfo, interrupts, softirqs, sched_debug, mpstat, uptime), perf-stat alone,
# perf-profile alone, and LKP's default set (`category: benchmark`). Per set, as ratios within
# the run: the monitored iteration's throughput over the same boot's measured iterations
# (which run without monitors), the monitored iteration's wall time over its runtime, and
# perf-profile's post-processing after it (its status note). One boot per set: the ratios
# carry the boot-to-boot noise of a TCG host (a few %); BOOTS=N repeats each set N times.
# CPUS (default 2: the shipped job's shape) the VM's vCPUs.
. tests/lib.sh
bb_need init netperf sysroot kernel qemu
RUNTIME=${RUNTIME:-10}
ITER=${ITER:-2}
BOOTS=${BOOTS:-1}
CPUS=${CPUS:-2}
cat >"$T/job.yaml" <<JOB
suite: netperf
category: benchmark
runtime: ${RUNTIME}s
iterations: $ITER
nr_threads: 200%
cluster: cs-localhost
sysctl:
  net.sctp.prsctp_enable: 1
netperf:
  test: SCTP_STREAM_MANY
  send_size: 10K
JOB
procmon=vmstat,proc-vmstat,meminfo,slabinfo,interrupts,softirqs,sched_debug,mpstat,uptime
sets=("none:none" "proc:$procmon" "perf-stat:perf-stat" "perf-profile:perf-profile" "default:default")
for set in "${sets[@]}"; do
	name=${set%%:*} mons=${set#*:}
	for b in $(seq 1 "$BOOTS"); do
		out="$T/res-$name-$b"
		rc=0
		bb_timeout 1200 "$BENCHBOOT" run "$T/job.yaml" --accel tcg --cpus "$CPUS" \
			--monitors "${mons}" --images "$T/images" -o "$out" >"$T/$name-$b.out" 2>&1 || rc=$?
		[ "$rc" = 0 ] || { tail -n 20 "$T/$name-$b.out"; fail "the boot with monitors '$name' failed"; }
	done
done
python3 - "$T" "$RUNTIME" "${sets[@]}" <<'PY'
import glob, json, os, re, statistics, sys
top, runtime, sets = sys.argv[1], float(sys.argv[2]), [s.split(":")[0] for s in sys.argv[3:]]
print("%-13s %10s %10s %12s %14s" % ("monitors", "measured", "monitored", "thr. ratio", "wall/runtime"))
for name in sets:
    ratios, walls, posts, meas, mons = [], [], [], [], []
    for res in glob.glob(os.path.join(top, "res-%s-*" % name)):
        for run in glob.glob(os.path.join(res, "0*", "runs", "*")):
            m = json.load(open(os.path.join(run, "results.json")))["netperf.Throughput_total_Mbps"]
            mean = statistics.mean(m)
            meas.append(mean)
            mdir = os.path.join(run, "monitored-1")
            if not os.path.isdir(mdir):
                continue
            r = json.load(open(os.path.join(mdir, "results.json")))["netperf.Throughput_total_Mbps"][0]
            st = json.load(open(os.path.join(mdir, "status")))
            mons.append(r)
            ratios.append(r / mean)
            walls.append(st["elapsed_s"] / st["runtime"])
            pp = st.get("monitors", {}).get("perf-profile", {})
            for n in pp.get("notes", []):
                g = re.match(r"post-processing ([0-9.]+)s", n)
                if g:
                    posts.append(float(g.group(1)))
    line = "%-13s %10.1f %10s %12s %14s" % (
        name, statistics.mean(meas),
        "%.1f" % statistics.mean(mons) if mons else "-",
        "%.3f" % statistics.mean(ratios) if ratios else "-",
        "%.2f" % statistics.mean(walls) if walls else "-")
    if posts:
        line += "   perf-profile post-processing %.1f s (%.2f x runtime)" % (
            statistics.mean(posts), statistics.mean(posts) / runtime)
    print(line)
print("(Mbps: netperf.Throughput_total_Mbps; thr. ratio: monitored / measured in the same boot)")
PY
