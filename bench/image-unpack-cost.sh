# What an image's size costs a boot: the time the guest kernel takes to unpack the initramfs
# (its log's "Trying to unpack rootfs image as initramfs" to "Freeing initrd memory"), under
# TCG, for images of one job in three sizes, in the same run: hackbench without perf's
# monitors (BusyBox, the init, hackbench), the same with LKP's default monitors (Debian's
# linux-perf closure: perf with libpython and libperl), and fio-basic's (Debian's fio with every
# engine library it links: ceph, glusterfs, RDMA, ...). Each is booted REPEAT times (default 3)
# with no init to run (rdinit= names none: the kernel unpacks, finds nothing to run and panics
# at once; -no-reboot ends QEMU), one vCPU. Printed: bytes of each initrd, the unpack time
# (median of the boots), and seconds per compressed MiB, against the smallest image.
. tests/lib.sh
bb_need sysroot kernel qemu
command -v python3 >/dev/null || skip "python3 is needed for the medians"
REPEAT=${REPEAT:-3}
build() { # NAME JOB [noperf]
	local job=config/jobs/$2.yaml
	if [ "${3-}" = noperf ]; then
		{ cat "$job"; printf 'perf-stat-:\nperf-profile-:\n'; } >"$T/$1.yaml"
		job=$T/$1.yaml
	fi
	"$BENCHBOOT" build "$job" -o "$T/$1" >"$T/$1.log" 2>&1 || fail "build $job: $(tail -3 "$T/$1.log")"
}
build small hackbench noperf
build perf hackbench
build fio fio-basic
printf '%-10s %12s %14s %12s\n' image "initrd bytes" "unpack (s)" "s per MiB"
for img in small perf fio; do
	dir=$(ls -d "$T/$img"/*/ | sed -n 1p)
	bytes=$(stat -c %s "$dir/initrd.img")
	times=()
	for ((i = 1; i <= REPEAT; i++)); do
		bb_qemu 300 "$T/$img.$i.log" -smp 1 -kernel "$dir/vmlinuz" -initrd "$dir/initrd.img" \
			-append "console=ttyS0 panic=-1 rdinit=/benchboot-none root=/dev/benchboot-none" || true
		t=$(awk 'function ts() { return match($0, /\[ *[0-9]+\.[0-9]+\]/) ? substr($0, RSTART + 1, RLENGTH - 2) + 0 : "" }
			/Trying to unpack rootfs image as initramfs/ { a = ts() }
			/Freeing initrd memory/ { b = ts() }
			END { if (a != "" && b != "") printf "%.3f", b - a }' "$T/$img.$i.log")
		[ -n "$t" ] || { tail -5 "$T/$img.$i.log"; fail "$img boot $i: no unpack lines in the kernel log"; }
		times+=("$t")
	done
	med=$(printf '%s\n' "${times[@]}" | python3 -c 'import statistics, sys; print("%.3f" % statistics.median(float(x) for x in sys.stdin))')
	printf '%-10s %12d %14s %12.3f   (boots: %s)\n' "$img" "$bytes" "$med" \
		"$(echo "$med / ($bytes / 1048576)" | bc -l)" "${times[*]}"
done
