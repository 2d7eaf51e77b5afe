# Setup time of the init against a BusyBox shell script doing the same steps, on the same
# kernel under TCG: from the exec of /init (the kernel's "Run /init as init process" line) to
# the first benchmark client started, minus the time spent loading modules. Steps: mounts,
# the sctp + dummy modules, lo + dummy0 address, cgroup v2 with memory and the job cgroup
# (memory.high), one sysctl written and read back, netserver in the job cgroup pinned to cpu0
# and ready (port accepts), then the client pinned to cpu1. Also the init's CPU time while
# the benchmark runs. BOOTS (default 2) boots each, alternating; prints the medians, the ratio,
# where the time goes, and each boot's init against the floor of that boot. The init also
# writes env.json and init.log to a results disk (its results writer opens the disk from the
# modules on, beside the setup); the script writes nothing.
#
# Every time is on one clock, the kernel log's: the kernel's "Run /init" line, the script's
# level-7 kernel log marks, the init's own mark at the first client's release (its
# CLOCK_BOOTTIME marks are put on that clock with the offset seen there). CLOCK_BOOTTIME and
# the kernel log's clock differ by tens of ms under TCG, differently at each boot.
. tests/lib.sh
. tests/qemu/init-image.inc

. bench/script-init.inc
script_init_plan "$T/plan" 2 1
script_init_write "$T/shinit" 2 1
script_init_images "$T/plan" "$T/shinit"

# kv KEY LINE: the value of KEY=VALUE in LINE
kv() { sed -n "s/.* $1=\([-0-9.]*\).*/\1/p" <<<" $2"; }
# klog FILE TEXT: kernel log time (ms) of the script's line "[ T] TEXT"
klog() { sed -n "s/^SHELL-KLOG \[ *\([0-9.]*\)\] $2\$/\1/p" "$1" | head -n1 | awk '{ printf "%.3f", $1 * 1000 }'; }
calc() { awk "BEGIN { printf \"%.1f\", $* }"; }

BOOTS=${BOOTS:-2}
names=(exec_to_mounted mounted_to_modules after_modules_to_server_start server_start_to_ready
	ready_to_first_client total)
declare -A I S F
init_s=() shell_s=() ticks=() notes=() srv_start=() script_srv=()
for ((i = 1; i <= BOOTS; i++)); do
	# the init: its BOOTTIME marks, put on the kernel log's clock with the offset seen at the
	# first client's release (its mark is written there)
	"$BENCHBOOT" mkdisk "$T/disk$i.img" --size 64M >/dev/null
	INITRD=$A_INITRD init_boot "$T/a$i.log" -drive "file=$T/disk$i.img,format=raw,if=virtio" --
	done_line=$(grep '^BENCHBOOT setup-done' "$T/a$i.log") || fail "no setup-done line"
	time_line=$(grep '^BENCHBOOT setup-time' "$T/a$i.log") || fail "no setup-time line"
	path_line=$(grep '^BENCHBOOT setup-path' "$T/a$i.log") || fail "no setup-path line"
	echo "$done_line"
	echo "$path_line"
	run_init=$(kv kernel_log_run_init_ms "$path_line")
	first=$(kv kernel_log_first_client_ms "$path_line")
	awk "BEGIN { exit !($run_init > 0 && $first > 0) }" || fail "kernel log marks missing: $path_line"
	exec_bt=$(kv exec_boottime_ms "$time_line")
	offset=$(calc "$first - $(kv first_client_boottime_ms "$time_line")")
	mods=$(kv modules "$done_line")
	mounted=$(calc "$(kv mount_console "$done_line")")
	mods_start=$(calc "$mounted + $(kv log "$done_line") + $(kv plan "$done_line")")
	mods_end=$(calc "$mods_start + $mods")
	sstart=$(kv sysctls "$path_line") ready=$(kv server_ready "$path_line")
	release=$(kv release "$path_line")
	I[$i,exec_to_mounted]=$(calc "$exec_bt + $offset - $run_init + $mounted")
	I[$i,mounted_to_modules]=$(calc "$mods_start - $mounted")
	I[$i,after_modules_to_server_start]=$(calc "$sstart - $mods_end")
	I[$i,server_start_to_ready]=$(calc "$ready - $sstart")
	I[$i,ready_to_first_client]=$(calc "$release - $ready")
	I[$i,total]=$(calc "$first - $run_init - $mods")
	init_s+=("${I[$i,total]}")
	# what no init can avoid: the kernel's exec, the kernel's work for the network and cgroup
	# steps (the init's own steps are only their syscalls), netserver's start to its port
	# listening: known (within the 4 ms back-off) only when the init's first readiness check,
	# after its part of the disk work (env.json written, the first sync asked), found no
	# listening socket; else the script's figure stands in for it (its netstat polls every
	# 20 ms: an upper bound)
	F[$i,kernel_exec]=$(calc "$exec_bt + $offset - $run_init")
	F[$i,net_syscalls]=$(kv net "$done_line")
	F[$i,cgroup_syscalls]=$(kv cgroup "$done_line")
	F[$i,floor]=$(calc "${F[$i,kernel_exec]} + ${F[$i,net_syscalls]} + ${F[$i,cgroup_syscalls]}")
	# ready - fork: netserver's start when the init saw it start, else at most that
	F[$i,netserver]=$(calc "$ready - $(kv server_fork "$path_line")") F[$i,netserver_seen]=0
	if [ "$(kv ready_tries "$path_line")" -gt 1 ]; then
		F[$i,netserver_seen]=1
		srv_start+=("${F[$i,netserver]}")
	fi
	if [ "$(kv writer "$path_line")" = 1 ]; then
		opened="the writer opened the disk from $(kv disk_open_start "$path_line") to $(kv disk_opened "$path_line") ms after exec (wait $(kv results_wait_ms "$path_line"), open $(kv results_open_ms "$path_line")); "
	else
		opened="no writer: the runner opened the disk itself (wait $(kv results_wait_ms "$path_line"), open $(kv results_open_ms "$path_line")); "
	fi
	notes+=("boot $i: ${opened}the runner's part $(calc "$(kv disk_end "$path_line") - $(kv disk_start "$path_line")") ms (env.json $(kv env_ms "$path_line"), the first sync asked) from $(kv disk_start "$path_line") to $(kv disk_end "$path_line") ms after exec; the first sync took $(kv results_sync_ms "$path_line") ms, answered at $(kv disk_synced "$path_line") (the runner waited $(kv sync_wait_ms "$path_line") ms for it before the release); server forked at $(kv server_fork "$path_line"), ready at $ready after $(kv ready_tries "$path_line") checks (the last took $(kv ready_check_ms "$path_line") ms); CLOCK_BOOTTIME - kernel log clock: $(calc "0 - $offset") ms")
	ticks+=("$(sed -n 's/^BENCHBOOT run-end .*init_ticks=\([0-9]*\) init_cpu_us=\([0-9-]*\).*/\1 ticks, \2 us/p' "$T/a$i.log")")

	INITRD=$B_INITRD init_boot "$T/b$i.log"
	expect_grep "SHELL-DONE rc=0" "$T/b$i.log"
	b=$T/b$i.log
	x=$(klog "$b" "Run \/init as init process")
	for m in mounted modules-start modules-end server-start server-ready first-client; do
		v=$(klog "$b" "SHELL-MARK $m")
		[ -n "$v" ] || fail "no SHELL-MARK $m in $b"
		printf -v "k_${m//-/_}" %s "$v"
	done
	S[$i,exec_to_mounted]=$(calc "$k_mounted - $x")
	S[$i,mounted_to_modules]=$(calc "$k_modules_start - $k_mounted")
	S[$i,after_modules_to_server_start]=$(calc "$k_server_start - $k_modules_end")
	S[$i,server_start_to_ready]=$(calc "$k_server_ready - $k_server_start")
	script_srv+=("${S[$i,server_start_to_ready]}")
	S[$i,ready_to_first_client]=$(calc "$k_first_client - $k_server_ready")
	S[$i,total]=$(calc "$k_first_client - $x - ($k_modules_end - $k_modules_start)")
	shell_s+=("${S[$i,total]}")
done
# med VALUE...: the median, with MED_FMT's decimals (default one)
med() { printf '%s\n' "$@" | sort -g | awk -v f="${MED_FMT:-%.1f}" '{ v[NR] = $1 } END { printf f, (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }'; }
printf '\nsetup, exec of /init to the first client started, without module loading, in ms on the\n'
printf 'kernel log clock (TCG, %d boots each, alternating; medians, then each boot):\n' "$BOOTS"
printf '  %-34s %10s %10s   %s\n' "" "init" "script" "(init boots | script boots)"
for n in "${names[@]}"; do
	iv=() sv=()
	for ((i = 1; i <= BOOTS; i++)); do iv+=("${I[$i,$n]}") sv+=("${S[$i,$n]}"); done
	printf '  %-34s %10s %10s   (%s| %s)\n' "$n" "$(med "${iv[@]}")" "$(med "${sv[@]}")" \
		"$(printf '%s ' "${iv[@]}")" "$(printf '%s ' "${sv[@]}")"
done
mi=$(med "${init_s[@]}") ms=$(med "${shell_s[@]}")
printf '  ratio script/init: %.1fx\n' "$(calc "$ms / $mi")"
printf '\nwhat any init pays on this path (init boots; medians, then each boot):\n'
fl=()
for n in kernel_exec net_syscalls cgroup_syscalls floor; do
	fv=()
	for ((i = 1; i <= BOOTS; i++)); do fv+=("${F[$i,$n]}"); done
	[ "$n" = floor ] && fl=("${fv[@]}")
	[ "$n" = floor ] && n="floor without netserver"
	printf '  %-34s %10s   (%s)\n' "$n" "$(med "${fv[@]}")" "$(printf '%s ' "${fv[@]}")"
done
floor=$(med "${fl[@]}")
if [ ${#srv_start[@]} -gt 0 ]; then
	printf '  %-34s %10s   (%s)\n' "netserver fork to listening" "$(med "${srv_start[@]}")" \
		"$(printf '%s ' "${srv_start[@]}")"
	floor=$(calc "$floor + $(med "${srv_start[@]}")")
	printf '  %-34s %10s\n' "floor with netserver" "$floor"
else
	printf '  netserver fork to listening: not seen by the init (it listened before the runner'"'"'s disk\n'
	printf '    part ended in every boot); the script'"'"'s (polled every 20 ms) stands in for it\n'
	floor=$(calc "$floor + $(med "${script_srv[@]}")")
	printf '  %-34s %10s\n' "floor with netserver (script's)" "$floor"
fi
# each boot against its own floor: drift on the host (it moves consecutive boots by tens of ms)
# moves both, so this is the steadier figure. A boot whose init did not see netserver start
# has only a bound on it (ready - fork), so only a lower bound on its ratio: shown with >=
# and left out of the median unless no boot saw netserver start.
ratios=() seen=() bounds=()
for ((i = 1; i <= BOOTS; i++)); do
	r=$(awk "BEGIN { printf \"%.2f\", ${I[$i,total]} / (${F[$i,floor]} + ${F[$i,netserver]}) }")
	if [ "${F[$i,netserver_seen]}" = 1 ]; then
		ratios+=("$r") seen+=("$r")
	else
		ratios+=(">=$r") bounds+=("$r")
	fi
done
if [ ${#seen[@]} -gt 0 ]; then
	printf '  %-34s %10sx   (%s)\n' "init / floor, each boot (median)" \
		"$(MED_FMT=%.2f med "${seen[@]}")" "$(printf '%s ' "${ratios[@]}")"
else
	printf '  %-34s %8sx   (%s)\n' "init / floor, each boot (median)" \
		">=$(MED_FMT=%.2f med "${bounds[@]}")" "$(printf '%s ' "${ratios[@]}")"
fi
printf '  best ratio possible with that floor: script %s / floor %s = %.1fx\n' "$ms" "$floor" \
	"$(calc "$ms / $floor")"
printf '  exec_to_mounted: the kernel'"'"'s exec of /init (from its "Run /init" line) to the early mounts done\n'
printf '  server_start_to_ready: init: its sysctls done to the port listening (fork,\n'
printf '    exec and start of netserver; meanwhile the clients are forked to wait on their gate,\n'
printf '    env.json is written and the first sync asked of the results writer, which opened the\n'
printf '    disk since the modules were loaded and syncs while the runner checks; its answer is\n'
printf '    awaited before the release); script: fork to netstat listing the port\n'
printf '  netserver fork to listening: the exec and start of netserver (a glibc program: ld.so,\n'
printf '    libsctp, libm) to its socket in /proc/net/tcp, under TCG; the script pays the same\n'
printf '  the init also writes env.json and init.log to its results disk (its writer process opens\n'
printf '  the disk beside the setup; env.json and the first sync while netserver starts, the sync\n'
printf '  answered before the first client); the script writes nothing:\n'
printf '    %s\n' "${notes[@]}"
printf 'init CPU during the benchmark: %s\n' "${ticks[@]}"
