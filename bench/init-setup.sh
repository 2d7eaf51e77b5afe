# Setup time of the init against a BusyBox shell script doing the same steps, on the same
# kernel under TCG: from the exec of /init (the kernel's "Run /init as init process" line) to
# the first benchmark client started, minus the time spent loading modules. Steps: mounts,
# the sctp + dummy modules, lo + dummy0 address, cgroup v2 with memory and the job cgroup
# (memory.high), one sysctl written and read back, netserver in the job cgroup pinned to cpu0
# and ready (port accepts), then the client pinned to cpu1. Also the init's CPU time while
# the benchmark runs. Two boots each, alternating; prints the medians and the ratio. The init
# also writes env.json and the run's files to a results disk; the script writes nothing.
. tests/lib.sh
. tests/qemu/init-image.inc

cat >"$T/plan" <<'PLAN'
benchboot-plan 1
job=bench-setup
cgroup.mode=v2
cgroup.controllers=memory
cgroup.limit.memory.high=768M
modules.boot=sctp dummy

[run SCTP_STREAM]
suite=netperf
runtime=2
sysctl.net.sctp.prsctp_enable=0
server.0.arg=/usr/bin/netserver
server.0.arg=-4
server.0.arg=-D
server.0.ready=tcp:127.0.0.1:12865
server.0.cpus=0
client.arg=/usr/bin/netperf
client.arg=-4
client.arg=-H
client.arg=127.0.0.1
client.arg=-t
client.arg=SCTP_STREAM_MANY
client.arg=-l
client.arg=2
client.arg=--
client.arg=-m
client.arg=10K
client.cpus=1
PLAN

cat >"$T/shinit" <<'SH'
#!/bin/sh
# The same setup as benchboot's init, written the usual way.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /run /tmp /dev/shm
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /dev/shm
exec >/dev/console 2>&1
read m0 _ </proc/uptime
while read -r ko; do insmod "$ko" || echo "insmod $ko failed"; done </etc/benchboot/modules.order
read m1 _ </proc/uptime
ip link set lo up
ip link show dummy0 >/dev/null 2>&1 || ip link add dummy0 type dummy
ip addr add 192.0.2.1/24 dev dummy0
ip link set dummy0 up
mount -t cgroup2 cgroup2 /sys/fs/cgroup
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/benchboot
echo 768M >/sys/fs/cgroup/benchboot/memory.high
echo 0 >/proc/sys/net/sctp/prsctp_enable
echo "sysctl prsctp_enable=$(cat /proc/sys/net/sctp/prsctp_enable)"
sh -c 'echo $$ >/sys/fs/cgroup/benchboot/cgroup.procs; exec taskset 1 netserver -4 -D' >/tmp/ns.out 2>&1 &
until netstat -ltn | grep -q ':12865 '; do usleep 20000; done
read c0 _ </proc/uptime
echo "SHELL-FIRST-CLIENT uptime=$c0 modules_s=$(echo "$m1 - $m0" | bc)"
sh -c 'echo $$ >/sys/fs/cgroup/benchboot/cgroup.procs; exec taskset 2 netperf -4 -H 127.0.0.1 -t SCTP_STREAM_MANY -l 2 -- -m 10K' >/tmp/np.out 2>&1
echo "SHELL-DONE rc=$?"
poweroff -f
SH
chmod +x "$T/shinit"

# the init writes its results to a results disk, as in normal use (virtio modules: excluded
# from the setup time like every module)
init_image "$T/plan" "$T/a" --module virtio_blk --module virtio_pci
A_INITRD=$INITRD
"$BENCHBOOT" build --name img -o "$T/b" --no-init --file "$T/shinit:/init" --plan "$T/plan" \
	--module sctp --module dummy --busybox --binary "$B/netperf/netperf:/usr/bin/netperf" \
	--binary "$B/netperf/netserver:/usr/bin/netserver" >"$T/b.log" 2>&1 || { cat "$T/b.log"; fail "build"; }
B_INITRD=$T/b/img/initrd.img

exec_at() { # console -> seconds of "Run /init as init process"
	sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process.*/\1/p' "$1" | head -n1
}
init_s=() nodisk_s=() shell_s=() ticks=()
for i in 1 2; do
	"$BENCHBOOT" mkdisk "$T/disk$i.img" --size 64M >/dev/null
	INITRD=$A_INITRD init_boot "$T/a$i.log" -drive "file=$T/disk$i.img,format=raw,if=virtio" --
	x=$(exec_at "$T/a$i.log")
	line=$(grep '^BENCHBOOT setup-time' "$T/a$i.log") || fail "no setup-time line"
	first=$(sed -n 's/.*first_client_boottime_ms=\([0-9.]*\).*/\1/p' <<<"$line")
	done_line=$(grep '^BENCHBOOT setup-done' "$T/a$i.log")
	# the whole module step, as the script's whole insmod loop (its forks included) is excluded
	mods=$(sed -n 's/.* modules=\([0-9.]*\).*/\1/p' <<<"$done_line")
	init_s+=("$(echo "$first / 1000 - $x - $mods / 1000" | bc -l)")
	disk=$(sed -n 's/.* results_open=\([0-9.]*\).* results_sync=\([0-9.]*\).*/\1 + \2/p' <<<"$done_line")
	nodisk_s+=("$(echo "$first / 1000 - $x - $mods / 1000 - ($disk) / 1000" | bc -l)")
	ticks+=("$(sed -n 's/^BENCHBOOT run-end .*init_ticks=\([0-9]*\) init_cpu_us=\([0-9-]*\).*/\1 ticks, \2 us/p' "$T/a$i.log")")
	grep '^BENCHBOOT setup-done' "$T/a$i.log"
	INITRD=$B_INITRD init_boot "$T/b$i.log"
	expect_grep "SHELL-DONE rc=0" "$T/b$i.log"
	x=$(exec_at "$T/b$i.log")
	first=$(sed -n 's/^SHELL-FIRST-CLIENT uptime=\([0-9.]*\) .*/\1/p' "$T/b$i.log")
	mods=$(sed -n 's/^SHELL-FIRST-CLIENT .*modules_s=\([0-9.]*\).*/\1/p' "$T/b$i.log")
	shell_s+=("$(echo "$first - $x - $mods" | bc -l)")
done
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }'; }
mi=$(med "${init_s[@]}") ms=$(med "${shell_s[@]}")
printf 'setup, exec of /init to first client, excluding module loading (TCG, s):\n'
printf '  benchboot init: %s (boots: %s)\n' "$mi" "$(printf '%.3f ' "${init_s[@]}")"
mn=$(med "${nodisk_s[@]}")
printf '  benchboot init without its results-disk work (results_open, first sync): %s\n' "$mn"
printf '  BusyBox script: %s (boots: %s)\n' "$ms" "$(printf '%.3f ' "${shell_s[@]}")"
printf '  ratio script/init: %.1fx (without the disk work: %.1fx)\n' "$(echo "$ms / $mi" | bc -l)" \
	"$(echo "$ms / $mn" | bc -l)"
printf 'init CPU during the benchmark: %s\n' "${ticks[@]}"
