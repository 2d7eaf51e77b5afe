# fsmark, disks and filesystems as `check` reads them: jobs in the style of LKP's
# jobs/fsmark/ (tests/fixtures/lkp/fsmark-base.yaml, fsmark-1brd.yaml: `<<:` and an override of
# disk) give LKP's runs, a brd disk at boot (its module's rd_nr and rd_size) or disks the VM
# attaches (NVMe for NSSD, rotating SCSI disks for NHDD), each run's mkfs
# and mount options as LKP's programs/fs/setup writes them, LKP's run script as the client;
# a ramdisk larger than the host, scsi_debug, NFS and bad values refused with what to do.
. tests/lib.sh
F=tests/fixtures/lkp
check() { "$BENCHBOOT" check "$@" >"$T/out" 2>"$T/err" || fail "check $*: $(cat "$T/err")"; }

# LKP's fsmark-1brd wants one 48 GiB ramdisk: more than the host has, refused with the override
rc=0
"$BENCHBOOT" check $F/fsmark-1brd.yaml >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check of a 48 GiB ramdisk: exit code" "$rc" 100
expect_grep "disk 1BRD_48G: its ramdisks take up to 48.0 GiB of guest memory when written full, and this host has [0-9.]* GiB: --set disk=1BRD_2G" "$T/err"

# with the override: 3 filesystems x 2 file sizes x 2 sync methods in one boot; the empty fs2
# value is no key at all; the disk is the boot's, the filesystem each run's
# --mem: a VM with LKP's need_memory (50G), which the ramdisk fits
check -v --mem 64000 --set disk=1BRD_2G $F/fsmark-1brd.yaml
expect_grep "^total: 1 boot, 12 runs, 12 iterations" "$T/out"
expect_grep "^modules.params.brd=rd_nr=1 rd_size=2097152$" "$T/out"
expect_grep "^disk.devices=/dev/ram0$" "$T/out"
expect_grep "^disk.description=1brd$" "$T/out"
expect_grep "^modules.boot=brd btrfs ext4 xfs$" "$T/out"
expect_grep "programs: /usr/sbin/mkfs.btrfs /usr/bin/fs_mark /usr/sbin/mke2fs /usr/sbin/mkfs.xfs" "$T/out"
grep -q "fs2" "$T/out" && fail "fs2's empty value became a parameter: $(grep fs2 "$T/out")"
# LKP's options: ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 -F; xfs -f -mreflink=0 and
# mount -o inode64; btrfs none
run=$(sed -n 's/^\[run \(.*fs-ext4.*filesize-8K.*NoSync\)\]$/\1/p' "$T/out")
[ -n "$run" ] || fail "no ext4 run with 8K files and NoSync in: $(grep '^\[run' "$T/out")"
sec=$(awk -v r="[run $run]" '$0 == r {on=1; next} /^\[run /{on=0} on' "$T/out")
mkfs=$(echo "$sec" | sed -n 's/^fs.mkfs.arg=//p' | tr '\n' ' ')
expect_eq "ext4's mkfs" "$mkfs" "/usr/sbin/mke2fs -t ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 -F "
echo "$sec" | grep -q '^fs.mount=' && fail "ext4 with a mount option: $sec"
echo "$sec" | grep -q '^needs.module=ext4$' || fail "ext4's run does not need ext4: $sec"
# LKP's run: 10% of the CPUs as writers, 8K = 8192 bytes, 256M, 16d, 256fpd, NoSync = 0,
# iterations 4 = fs_mark -L 4 in one iteration of benchboot
expect_eq "the ext4 run's iterations" "$(echo "$sec" | sed -n 's/^iterations=//p')" 1
case $(bb_plan_args "$T/out" "$run") in
"/bin/sh -c "*"exec /usr/bin/fs_mark \$P -n \$nf -L \$L -S \$6 -s \$fsz fsmark 10% 8192 268435456 16 256 0 4 ") ;;
*) fail "client of $run: $(bb_plan_args "$T/out" "$run")" ;;
esac
run=$(sed -n 's/^\[run \(.*fs-xfs.*filesize-9B.*fsyncBeforeClose\)\]$/\1/p' "$T/out")
sec=$(awk -v r="[run $run]" '$0 == r {on=1; next} /^\[run /{on=0} on' "$T/out")
expect_eq "xfs's mkfs" "$(echo "$sec" | sed -n 's/^fs.mkfs.arg=//p' | tr '\n' ' ')" "/usr/sbin/mkfs.xfs -f -mreflink=0 "
expect_eq "xfs's mount options" "$(echo "$sec" | sed -n 's/^fs.mount=//p')" inode64
case $(bb_plan_args "$T/out" "$run") in
*" fsmark 10% 9 268435456 16 256 1 4 ") ;;
*) fail "client of $run: $(bb_plan_args "$T/out" "$run")" ;;
esac
run=$(sed -n 's/^\[run \(.*fs-btrfs.*\)\]$/\1/p' "$T/out" | sed -n 1p)
sec=$(awk -v r="[run $run]" '$0 == r {on=1; next} /^\[run /{on=0} on' "$T/out")
expect_eq "btrfs's mkfs" "$(echo "$sec" | sed -n 's/^fs.mkfs.arg=//p' | tr '\n' ' ')" "/usr/sbin/mkfs.btrfs "

# the job's mkfs replaces LKP's defaults (ensure_mkfs stays), mount_option joins xfs's inode64
printf 'suite: fsmark\ndisk: 2BRD_1G\nfs: xfs\nmkfs: -b size=1024\nmount_option: noatime\nfsmark:\n  filesize: 4K\n' >"$T/opts.yaml"
check -v --mem 4096 "$T/opts.yaml"
expect_eq "xfs with mkfs:" "$(sed -n 's/^fs.mkfs.arg=//p' "$T/out" | tr '\n' ' ')" "/usr/sbin/mkfs.xfs -b size=1024 -f -mreflink=0 "
expect_grep "^fs.mount=inode64,noatime$" "$T/out"
expect_grep "^disk.devices=/dev/ram0 /dev/ram1$" "$T/out"
expect_grep "^modules.params.brd=rd_nr=2 rd_size=1048576$" "$T/out"

# the job as it ships: xfs and ext4 on one 1 GiB ramdisk, 4096 files of 8 KiB
check -v config/jobs/fsmark.yaml
expect_grep "^total: 1 boot, 2 runs," "$T/out"
case $(bb_plan_args "$T/out" fsmark.fs-xfs) in
*" fsmark 1 8192 33554432 16 256 1 1 ") ;;
*) fail "client of fsmark.fs-xfs: $(bb_plan_args "$T/out" fsmark.fs-xfs)" ;;
esac

# what cannot run here: the reason and the way out, with file, line and key
# LKP's disk: 1HDD: a SCSI disk of the VM that rotates, a sparse file of 8 GiB (run attaches it)
check -v --mem 4096 $F/fsmark-base.yaml
expect_grep "^disk.vm=hdd 8589934592$" "$T/out"
expect_grep "^disk.devices=/dev/sda$" "$T/out"
expect_grep "^disk.description=1hdd$" "$T/out"
expect_grep "^modules.boot=virtio_scsi sd_mod btrfs ext4 xfs$" "$T/out"
grep -q '^modules.params.brd' "$T/out" && fail "a brd for a disk of the VM"
check -v --set disk=2SSD_16G config/jobs/fsmark.yaml
expect_grep "^disk.vm=nvme 17179869184$" "$T/out"
expect_grep "^disk.devices=/dev/nvme0n1 /dev/nvme1n1$" "$T/out"
expect_check_refuses 'suite: fsmark\ndisk: 1SRD\n' "bad.yaml:2:7: disk: '1SRD': scsi_debug and pmem disks are not made by benchboot"
expect_check_refuses 'suite: fsmark\ndisk: 9HDD\n' "bad.yaml:2:7: disk: '9HDD': 1 to 8 disks"
expect_check_refuses 'suite: fsmark\ndisk: 1SSD_4T\n' "bad.yaml:2:7: disk: '1SSD_4T': the disk size is 1G to 1024G"
expect_check_refuses 'suite: fsmark\ndisk: 1BRD_2G\nfs2: nfsv4\nfs: xfs\nfsmark:\n  filesize: 4K\n' \
	"bad.yaml:3:6: fs2: 'nfsv4': LKP exports the filesystem over loopback NFS or SMB, which needs a server in the guest"
expect_check_refuses 'suite: fsmark\nfs: xfs\nfsmark:\n  filesize: 4K\n' \
	"bad.yaml:2:1: fs: a filesystem is made on the job's disk, and the job has none: add .disk: 1BRD_2G."
expect_check_refuses 'suite: fsmark\ndisk: 1BRD_2G\nfs: zfs\n' "bad.yaml:3:5: fs: 'zfs' is not ext2, ext3, ext4, xfs or btrfs"
expect_check_refuses 'suite: fsmark\ndisk: 1BRD_2G\nfs: f2fs\n' "fs: 'f2fs': its mkfs is not pinned by benchboot"
expect_check_refuses 'suite: fsmark\ndisk: 1BRD\nfs: ext4\nmkfs: -O ^has_journal;reboot\n' \
	"bad.yaml:4:7: mkfs: '-O ^has_journal;reboot': options are plain words for mkfs"
expect_check_refuses 'suite: fsmark\ndisk: 1BRD_512M\n' "bad.yaml:2:7: disk: '1BRD_512M': the disk size is 1G to 1024G"
expect_check_refuses 'suite: fsmark\ndisk: 1BRD\nmount_option: noatime\n' \
	"bad.yaml:3:1: mount_option: the job makes no filesystem (fs:)"
expect_check_refuses 'suite: fsmark\ndisk: 1BRD\nfs: ext4\nfsmark:\n  filesize: 4K\n  sync_method: fsync\n' \
	"bad.yaml:6:16: sync_method: 'fsync' is not one of LKP's sync methods"
expect_check_refuses 'suite: fsmark\ndisk: 1BRD\nfs: ext4\nfsmark:\n  filesize: 16Q\n' \
	"bad.yaml:5:13: filesize: '16Q' is not a size"
expect_check_refuses 'suite: fsmark\ndisk: 1BRD\nfs: ext4\nfsmark:\n  nr_directories: 16dirs\n' \
	"bad.yaml:5:19: nr_directories: '16dirs' is not a whole number 1..1000000 (LKP writes 16d)"
# LKP's fsmark-stress-journal-*.yaml write nr_threads: 1t, which LKP's scripts cannot take
expect_check_refuses 'suite: fsmark\ndisk: 1BRD\nfs: ext4\nnr_threads: 1t\nfsmark:\n  filesize: 4K\n' \
	"bad.yaml:4:13: nr_threads: '1t' is not a count: LKP's scripts compute with it, where bash refuses it ('value too great for base') and the run fails; write 1"
# fsmark without a filesystem, or without a file size: said before any boot
expect_check_refuses 'suite: fsmark\nfsmark:\n  filesize: 4K\n' "fsmark writes to the job's filesystem, and this run has none"
expect_check_refuses 'suite: fsmark\ndisk: 1BRD\nfs: ext4\n' "fsmark: filesize is needed"

# LKP's {{ }}: evaluated per run, nil drops the run; a construct benchboot does not evaluate,
# or a value the key does not take, is refused with its place
check -v --mem 4096 $F/fsmark-expr.yaml
expect_grep "^total: 1 boot, 4 runs," "$T/out"
grep -q 'filesize-16M' "$T/out" && fail "the 16M runs were not dropped: $(grep '^\[run' "$T/out")"
while read -r fs size bytes; do
	run=$(sed -n "s/^\[run \(.*fs-$fs\.filesize-$size\..*\)\]$/\1/p" "$T/out")
	[ -n "$run" ] || fail "no $fs run with $size files in: $(grep '^\[run' "$T/out")"
	case $(bb_plan_args "$T/out" "$run") in
	*" fsmark 1 "*" $bytes - - 1 1 ") ;;
	*) fail "client of $run (want test_size $bytes): $(bb_plan_args "$T/out" "$run")" ;;
	esac
done <<'RUNS'
ext4 9B 67108864
xfs 9B 67108864
ext4 8K 100663296
xfs 8K 134217728
RUNS
expect_check_refuses 'suite: fsmark\ndisk: 1BRD\nfs: ext4\nfsmark:\n  filesize: 4K\n  test_size: {{ nr_cpu * 2 }}\n' \
	"bad.yaml:6:14: test_size: {{ }}: an operator benchboot does not evaluate"
expect_check_refuses "suite: fsmark\ndisk: 1BRD\nfs: ext4\nfsmark:\n  filesize: 4K\n  test_size: {{ fs == 'xfs' ? '1G' : 'lots' }}\n" \
	"bad.yaml:6:14: test_size: 'lots' is not a size"
