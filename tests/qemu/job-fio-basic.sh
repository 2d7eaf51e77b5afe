# config/jobs/fio-basic.yaml end to end (TCG): one brd ramdisk of 1 GiB, ext4 made on it afresh
# for each iteration with LKP's mkfs options and mounted at /fs/ram0; LKP's fio-setup-basic
# lays a 64 MiB file out and fio, as LKP's run starts it, does 4k random writes, then random
# reads, for 5 s each (time_based): LKP's fio.write_iops, fio.write_bw_MBps and its clat
# percentiles > 0 (fio.read_* for the reads); fio's own JSON and the job file LKP's setup
# writes are in the client's output; env.json records the disk and each run's filesystem.
. tests/lib.sh
. tests/qemu/job.inc
# one vCPU and no monitors: the boot leaves the QEMU test in the other lane its CPU
JOB_RUN_OPTS="--cpus 1 --monitors none" job_run fio-basic
job_check "$T/res" fio.workload fio-basic.time.elapsed_time >"$T/check" || fail "$(cat "$T/check")"
cat "$T/check"
for rw in randwrite randread; do
	dir=$(ls -d "$T"/res/0*/runs/fio-basic.rw-$rw/1 | sed -n 1p)
	[ -d "$dir" ] || fail "no iteration of the $rw run in $T/res"
	out=$dir/client.0.out
	# LKP's run: the job file echoed, then fio's JSON
	expect_grep "^echo '$" "$out"
	expect_grep "^\[task_0\]$" "$out"
	expect_grep "^rw=$rw$" "$out"
	expect_grep "^directory=/fs/ram0$" "$out"
	expect_grep "^size=67108864$" "$out"
	expect_grep "^time_based$" "$out"
	expect_grep "^numjobs=1' | fio --output-format=json -$" "$out"
	expect_grep '"fio version" : "fio-3\.' "$out"
	expect_grep '"jobname" : "task_0"' "$out"
	grep -q "create_only" "$out" && fail "the run's job file has create_only: $out"
	[ -f "$dir/mkfs.ram0.out" ] || fail "no mkfs output kept in $dir"
done
python3 - "$(ls "$T"/res/0*/env.json | sed -n 1p)" "$(ls -d "$T"/res/0* | sed -n 1p)/results.json" <<'PY' || fail "env.json's disk and filesystems, results.json"
import json, sys
env = json.load(open(sys.argv[1]))
d = env["disk"]
assert d["description"] == "1brd" and d["module_params"] == {"brd": "rd_nr=1 rd_size=1048576"}, d
for rw, op in (("randwrite", "write"), ("randread", "read")):
    run = [r for r in env["runs"] if r == "fio-basic.rw-" + rw][0]
    res = json.load(open(sys.argv[2].replace("results.json", "") + "runs/%s/results.json" % run))
    # LKP's stats of the op the run does, > 0; the other op's I/O stats are 0
    for s in ("iops", "bw_MBps", "clat_mean_ns", "clat_90%_ns", "clat_99%_ns"):
        v = res["fio.%s_%s" % (op, s)]
        assert len(v) == 1 and v[0] > 0, (run, s, v)
    other = "read" if op == "write" else "write"
    assert res["fio.%s_iops" % other] == [0], (run, res["fio.%s_iops" % other])
    print("%s: fio.%s_iops %s, %s MB/s, clat 99%% %s ns" % (run, op, res["fio.%s_iops" % op][0],
          round(res["fio.%s_bw_MBps" % op][0], 1), res["fio.%s_clat_99%%_ns" % op][0]))
    fs = env["runs"][run]["fs"]
    assert fs["mkfs"][:3] == ["/usr/sbin/mke2fs", "-t", "ext4"], fs
    m = fs["mounts"][0].split()
    assert m[:3] == ["/dev/ram0", "/fs/ram0", "ext4"], fs
print("env.json: ext4 on %s mounted %s" % (d["devices"][0]["path"], fs["mounts"][0]))
PY
