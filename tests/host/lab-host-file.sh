# A lab machine's disks come from its host file, as LKP's load_hosts_config merges hosts/NAME
# (NAME: the job's tbox_group) under the job: benchboot takes ssd_partitions and hdd_partitions
# from it, the job's own keys win, LKP's programs/disk/setup takes the first nr_ssd (nr_hdd) of
# them, and names the image cannot have (udev's /dev/disk/by-*, globs) are refused with the
# host file's line. Without a host file, or with --set hdd_partitions=, the disks are the VM's.
. tests/lib.sh
mkdir -p "$T/lab/hosts"
cat >"$T/lab/hosts/labbox" <<'HOST'
model: Skylake
nr_cpu: 8
memory: 32G
hdd_partitions: /dev/sdc /dev/sdd
ssd_partitions: /dev/nvme1n1 /dev/nvme2n1
rootfs_partition: /dev/sda1
HOST
job() { # FILE DISK [MORE LINES]
	printf 'suite: fsmark\ntbox_group: labbox\ndisk: %s\nfs: ext4\nfsmark:\n  filesize: 4K\n%b' "$2" "${3-}" >"$T/lab/$1"
}
plan() { "$BENCHBOOT" check -v "$@" >"$T/out" 2>"$T/err" || fail "check $*: $(cat "$T/err")"; }
job hdd.yaml 2HDD_1G
plan "$T/lab/hdd.yaml"
expect_grep "^disk.devices=/dev/sdc /dev/sdd$" "$T/out"
expect_grep "^disk.description=2hdd$" "$T/out"
job ssd.yaml 1SSD
plan "$T/lab/ssd.yaml"
expect_grep "^disk.devices=/dev/nvme1n1$" "$T/out"
expect_grep "^disk.description=1ssd$" "$T/out"
# more disks asked than the host file names: as many as it names (LKP clamps nr_hdd)
job many.yaml 4HDD
plan "$T/lab/many.yaml"
expect_grep "^disk.devices=/dev/sdc /dev/sdd$" "$T/out"
expect_grep "^disk.description=2hdd$" "$T/out"
# the job's own key wins over the host file's
job own.yaml 1HDD 'hdd_partitions: /dev/sdb\n'
plan "$T/lab/own.yaml"
expect_grep "^disk.devices=/dev/sdb$" "$T/out"
# --set hdd_partitions= gives the VM's own disks
plan --set hdd_partitions= "$T/lab/hdd.yaml"
expect_grep "^disk.devices=/dev/sda /dev/sdb$" "$T/out"
expect_grep "^disk.vm=hdd 1073741824$" "$T/out"
# a tbox_group without a host file: nothing merged (LKP), the VM's disks
sed 's/^tbox_group: labbox$/tbox_group: elsewhere/' "$T/lab/hdd.yaml" >"$T/lab/nohost.yaml"
plan "$T/lab/nohost.yaml"
expect_grep "^disk.devices=/dev/sda /dev/sdb$" "$T/out"
# a ramdisk job takes nothing from the host file
job brd.yaml 1BRD_1G
plan "$T/lab/brd.yaml"
expect_grep "^disk.devices=/dev/ram0$" "$T/out"
# names the image cannot have, refused with the host file's line
sed -i 's|^hdd_partitions: .*|hdd_partitions: /dev/disk/by-id/ata-ST4000NM0035_ZC12-part*|' "$T/lab/hosts/labbox"
rc=0
"$BENCHBOOT" check "$T/lab/hdd.yaml" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "check of a host file with a by-id glob: exit code" "$rc" 100
expect_grep "hosts/labbox:4:17: hdd_partitions: '/dev/disk/by-id/ata-ST4000NM0035_ZC12-part\*' is not a device as the kernel names it" "$T/err"
expect_check_refuses 'suite: fsmark\ndisk: 1SSD\nssd_partitions: /dev/nvme*\n' \
	"bad.yaml:3:17: ssd_partitions: '/dev/nvme\*' is not a device as the kernel names it"
echo "lab-host-file ok"
