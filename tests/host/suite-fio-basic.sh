# fio-basic as `check` reads it: jobs in the style of LKP's jobs/fio-basic/
# (tests/fixtures/lkp/fio-basic-1brd.yaml, fio-basic-raw.yaml) give LKP's runs, and each run's
# client is LKP's fio-setup-basic and fio run as one script, with the job file LKP's setup
# writes for the run's keys (its [global] part, then a [task_N] part per storage); bad values
# and what cannot run here are refused with file, line, column and key.
. tests/lib.sh
F=tests/fixtures/lkp
check() { "$BENCHBOOT" check "$@" >"$T/out" 2>"$T/err" || fail "check $*: $(cat "$T/err")"; }
# the job file of a run: its [global] part and its [task_@no@] part, the \n of the plan's line
# made newlines again (as the guest's printf %b does)
jobfile() {
	awk -v r="[run $1]" '$0 == r {on=1; next} /^\[run /{on=0} on && /^client.arg=/{sub(/^client.arg=/,""); a[n++]=$0} END {printf "%s%s", a[n-2], a[n-1]}' "$T/out" |
		sed 's/\\n/\n/g'
}

check -v --mem 4096 $F/fio-basic-1brd.yaml
expect_grep "^total: 1 boot, 26 runs, 26 iterations" "$T/out"
expect_grep "^modules.params.brd=rd_nr=1 rd_size=2097152$" "$T/out"
expect_grep "programs: .*/usr/bin/fio" "$T/out"
run=fio-basic-1brd.fs-xfs.nr_task-1.rw-write.bs-4k.ioengine-libaio
grep -q "^\[run $run\]$" "$T/out" || fail "no run $run in: $(grep '^\[run' "$T/out")"
# LKP's run: nr_task, test_size in bytes, not raw; then the job file
case $(bb_plan_args "$T/out" $run) in
"/bin/sh -c "*'echo "$task" | /usr/bin/fio --output-format=json -'" fio-basic 1 1073741824 0 "*) ;;
*) fail "client of $run: $(bb_plan_args "$T/out" $run)" ;;
esac
# the job file LKP's setup writes for these keys (nr_task 1: size = test_size)
cat >"$T/want" <<'JOB'



[global]
bs=4k
ioengine=libaio
iodepth=32
size=1073741824
direct=0
runtime=300s
file_service_type=roundrobin
random_distribution=random
group_reporting
create_only=1
pre_read=0

nr_files=1
filesize=1073741824
invalidate=1
fallocate=posix
io_size=1073741824

buffered=0

allrandrepeat=0

[task_@no@]
rw=write
directory=@storage@
numjobs=@numjobs@





JOB
jobfile $run >"$T/got"
cmp -s "$T/want" "$T/got" || fail "job file of $run: $(diff "$T/want" "$T/got")"
# nr_task 100%: each job's size is the guest's (test_size / its tasks)
jobfile fio-basic-1brd.fs-ext4.nr_task-100pct.rw-randwrite.bs-4M.ioengine-io_uring >"$T/got"
expect_grep "^size=@size@$" "$T/got"
expect_grep "^bs=4M$" "$T/got"
expect_grep "^ioengine=io_uring$" "$T/got"
expect_grep "^rw=randwrite$" "$T/got"
expect_grep "^filesize=@size@$" "$T/got"

# on the ramdisks themselves (raw_disk): filename, O_DIRECT (LKP's `direct: direct` is true),
# 4 tasks: each job 512M / 4
check -v --mem 4096 $F/fio-basic-raw.yaml
expect_grep "^total: 1 boot, 2 runs," "$T/out"
case $(bb_plan_args "$T/out" fio-basic-raw.ioengine-libaio) in
*" fio-basic 4 536870912 1 "*) ;;
*) fail "client of the raw run: $(bb_plan_args "$T/out" fio-basic-raw.ioengine-libaio)" ;;
esac
jobfile fio-basic-raw.ioengine-libaio >"$T/got"
for l in "filename=@storage@" "direct=1" "size=134217728" "iodepth=16" "rw=randread" "runtime=60"; do
	expect_grep "^$l$" "$T/got"
done
grep -q "^directory=" "$T/got" && fail "a raw run with a directory: $(cat "$T/got")"

# LKP's optional lines, in its order and with its empty lines
printf 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: 1G\nnr_task: 2\nfio-setup-basic:\n  rw: randrw\n  rwmixread: 70\n  testfile: y\n  cpus_allowed_policy: split\n  cpus_allowed: 0-1\n  ramp_time: 5\n  stonewall: 1\n  norandommap: 1\n  random_generator: lfsr\n  exitall: 1\n  offset_increment: 1M\n' >"$T/opts.yaml"
check -v --mem 4096 "$T/opts.yaml"
jobfile opts >"$T/got"
cat >"$T/want" <<'JOB'
offset_increment=1M

buffered=0

norandommap

random_generator=lfsr

allrandrepeat=0

exitall

ramp_time=5

stonewall

[task_@no@]
rw=randrw
directory=@storage@
filename=fio_testfile

numjobs=@numjobs@
rwmixread=70


cpus_allowed_policy=split
cpus_allowed=0-1
JOB
sed -n '/^offset_increment/,$p' "$T/got" >"$T/tail"
cmp -s "$T/want" "$T/tail" || fail "job file with LKP's options: $(diff "$T/want" "$T/tail")"
expect_grep "^size=536870912$" "$T/got"

# the job as it ships: ext4 on one 1 GiB ramdisk, 5 s time_based random writes and reads
check -v config/jobs/fio-basic.yaml
expect_grep "^total: 1 boot, 2 runs," "$T/out"
jobfile fio-basic.rw-randwrite >"$T/got"
for l in time_based "runtime=5s" "size=67108864" "rw=randwrite" "ioengine=sync"; do
	expect_grep "^$l$" "$T/got"
done

# what cannot run here, and bad values: the reason and the way out, with file, line and key
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: 1G\nfio-setup-basic:\n  rw: randwrit\n' \
	"bad.yaml:6:7: rw: 'randwrit' is not one of fio's I/O patterns .*: did you mean 'randwrite'?"
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: 1G\nfio-setup-basic:\n  ioengine: rbd\n' \
	"bad.yaml:6:13: ioengine: 'rbd' does not run in benchboot's guest: it needs a ceph cluster"
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: 1G\nfio-setup-basic:\n  ioengine: libaoi\n' \
	"bad.yaml:6:13: ioengine: 'libaoi' is not one of fio's I/O engines benchboot runs .*did you mean 'libaio'?"
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: 1G\nfio-setup-basic:\n  bs: 4 k\n' \
	"bad.yaml:6:7: bs: '4 k' is not a fio size (4k, 128k, 4M, 64G)"
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: lots\n' \
	"bad.yaml:4:12: test_size: 'lots' is not a size"
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: 1G\nnr_task: 8t\n' \
	"bad.yaml:5:10: nr_task: '8t' is not a count: LKP's scripts compute with it"
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: 1G\nfio-setup-basic:\n  direct: 1;reboot\n' \
	"bad.yaml:6:11: direct: .* is not one word for fio's job file"
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: 1G\nfio:\n  iodepth_by_instance: 1 32\n' \
	"bad.yaml:6:24: iodepth_by_instance: LKP's per-instance iodepth needs its nr_instances"
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: 1G\nnuma_mem_policy: bind:even\n' \
	"bad.yaml:5:18: numa_mem_policy: 'bind:even': LKP's spread of the storages over the NUMA nodes"
expect_check_refuses 'suite: fio-basic\ntest_size: 1G\nraw_disk: 1\n' \
	"bad.yaml:3:1: raw_disk: fio writes to the job's ramdisks, and the job has none: add .disk: 1BRD_2G."
# said before any boot: no filesystem and no raw_disk (LKP's setup: storages is empty), both,
# no test_size (LKP: test_size must be specified), cpus_allowed without split
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\ntest_size: 1G\n' \
	"fio-basic runs on the job's filesystem (LKP's \$mount_points), and this run has none: add .fs: ext4."
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: xfs\nraw_disk: 1\ntest_size: 1G\n' \
	"fio-basic: raw_disk writes to the ramdisks themselves, and this run mounts xfs on them"
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\n' "fio-basic: test_size must be specified for fio"
expect_check_refuses 'suite: fio-basic\ndisk: 1BRD_2G\nfs: ext4\ntest_size: 1G\ncpus_allowed: 0-1\n' \
	"cpus_allowed_policy is not split, cpus_allowed shouldn't be specified"
