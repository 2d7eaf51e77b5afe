# The image of each suite's job in config/jobs (its program's ELF closure, BusyBox, the init,
# the kernel modules it needs), with LKP's default monitors and without perf's two (perf-stat-:
# and perf-profile-: keys; the other monitors are the init's own code), against the netperf
# image without them in the same run: bytes of the compressed initrd and ratios. perf brings
# Debian's linux-perf closure with libpython and libperl; the perf-bench suites need it anyway.
. tests/lib.sh
[ -e "$SYSROOT/.complete" ] || skip "sysroot missing (make fetch)"
[ -x "$B/netperf/netperf" ] || skip "netperf not built (make netperf)"
jobs=(netperf-sctp stress-ng-icmp-flood-short hackbench perf-bench-sched-pipe perf-bench-sched-messaging
	perf-bench-futex sysbench-cpu iperf fsmark fio-basic)
size() { # JOB [noperf]: bytes of the first image's initrd
	local job=config/jobs/$1.yaml
	if [ "${2-}" = noperf ]; then
		{ cat "$job"; printf 'perf-stat-:\nperf-profile-:\n'; } >"$T/$1.yaml"
		job=$T/$1.yaml
	fi
	rm -rf "$T/img"
	"$BENCHBOOT" build "$job" -o "$T/img" >/dev/null 2>"$T/err" ||
		fail "benchboot build $job: $(tail -3 "$T/err")"
	stat -c %s "$(ls "$T"/img/*/initrd.img | sed -n 1p)"
}
ref=$(size netperf-sctp noperf)
printf '%-28s %12s %12s %8s %8s\n' "job" "without perf" "LKP default" "ratio" "ratio"
for j in "${jobs[@]}"; do
	bare=$(size "$j" noperf)
	full=$(size "$j")
	printf '%-28s %12d %12d %8.2f %8.2f\n' "$j" "$bare" "$full" \
		"$(echo "$bare / $ref" | bc -l)" "$(echo "$full / $ref" | bc -l)"
done
echo "ratios: against the netperf image without perf's monitors ($ref bytes)"
