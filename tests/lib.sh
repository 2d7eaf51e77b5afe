# shellcheck shell=bash
# Helpers for tests/host/*.sh and tests/qemu/*.sh. Exit 0: pass, 77: skip (say why), else fail.
set -euo pipefail
: "${BB_TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${B:=build}"
cd "$BB_TOP"
: "${CACHE:=${BENCHBOOT_CACHE:-$HOME/.cache/benchboot}}"
: "${SYSROOT:=$CACHE/sysroot/$(sha256sum config/inputs.lock | cut -c1-16)}"
export CACHE SYSROOT
BENCHBOOT="$BB_TOP/$B/benchboot"
T=$(mktemp -d "${TMPDIR:-/tmp}/bbt.XXXXXX")
# the results store `run` and `collect` add to: the test's own, never the user's
export BENCHBOOT_DB=$T/results.db
BB_PIDS=()
bb_cleanup() {
	local p
	# a PID may lead a process group (timeout(1) makes one for QEMU): end the whole group;
	# $T/.bb_pids: those bb_timeout started in a background subshell of the test
	[ -f "$T/.bb_pids" ] && mapfile -t -O "${#BB_PIDS[@]}" BB_PIDS <"$T/.bb_pids"
	for p in "${BB_PIDS[@]+"${BB_PIDS[@]}"}"; do
		kill -9 -- "-$p" 2>/dev/null || kill -9 "$p" 2>/dev/null || true
	done
	[ -n "${BB_KEEP_TMP:-}" ] || rm -rf "$T"
}
trap bb_cleanup EXIT

# skip WHY: the test cannot run here because something it needs is absent (never because
# something failed: that is a failure). Under CI=true a skip fails, unless the test declared
# itself optional first (`optional REASON`: it needs what a CI machine may lack, KVM say);
# tests/run lists the optional skips and their reasons at the end.
skip() {
	if [ "${CI:-}" = true ] && [ -z "${BB_OPTIONAL:-}" ]; then
		fail "skipped under CI=true, where only a test declared optional may skip: $*"
	fi
	echo "skipped: $*${BB_OPTIONAL:+ (optional: $BB_OPTIONAL)}"
	exit 77
}
optional() { BB_OPTIONAL=$*; }
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}
# CMD | contains GREP-ARGS...: the command's output has a match. It reads the output to its end
# before it looks: `CMD | grep -q` exits at the first match, CMD may then die of SIGPIPE on its
# next write, and pipefail makes the pipeline fail although the match was there.
contains() {
	local all
	all=$(cat)
	grep -q "$@" <<<"$all"
}
expect_grep() {
	grep -q -e "$1" "$2" || { echo "--- $2:"; tail -n 30 "$2"; fail "'$1' not found in $2"; }
}

# bb_compare OUT ARGS...: `benchboot compare ARGS`, its output (stdout and stderr) into OUT and
# shown; exit 0 (no change marked) or 1 (changes marked) pass, any other fails the test.
bb_compare() {
	local out=$1 rc=0
	shift
	"$BENCHBOOT" compare "$@" >"$out" 2>&1 || rc=$?
	cat "$out"
	[ $rc = 0 ] || [ $rc = 1 ] || fail "benchboot compare $*: exit code $rc"
}

# bb_plan_args PLAN RUN: the client.arg lines of [run RUN] in a plan (benchboot check -v),
# joined by spaces (a trailing one included).
bb_plan_args() {
	awk -v r="[run $2]" '$0 == r {on=1; next} /^\[run /{on=0} on && /^client.arg=/{sub(/^client.arg=/,""); printf "%s ", $0}' "$1"
}

# bb_sysroot_glibc: the sysroot's directory holding libc.so.6 and the loader
# (/lib/x86_64-linux-gnu in Debian 12, /usr/lib/x86_64-linux-gnu in a merged-/usr suite).
bb_sysroot_glibc() {
	local d
	for d in usr/lib/x86_64-linux-gnu lib/x86_64-linux-gnu; do
		[ -e "$SYSROOT/$d/libc.so.6" ] && { echo "$SYSROOT/$d"; return 0; }
	done
	fail "no libc.so.6 in the sysroot $SYSROOT"
}

# bb_need WHAT...: the prerequisites of a QEMU or host test, each checked the same way:
#   init netperf (built by make), sysroot busybox kernel (make fetch), qemu cpio e2fsck (the
#   packages of tools/scripts/install-deps), rsvg-convert xmllint (an SVG renderer and an XML
#   checker, also from install-deps). `make test` builds and installs all of them, so
#   one missing there (CI=true) fails the test; run by hand, the test is skipped and says why.
bb_need() {
	local w why
	for w in "$@"; do
		why=
		case $w in
		init) [ -x "$B/init" ] || why="build/init is not built (make)" ;;
		netperf) [ -x "$B/netperf/netperf" ] || why="build/netperf is not built (make netperf)" ;;
		sysroot) [ -e "$SYSROOT/.complete" ] || why="the sysroot is missing (make fetch)" ;;
		busybox) [ -x "$SYSROOT/bin/busybox" ] || why="the sysroot has no busybox (make fetch)" ;;
		kernel) compgen -G "$SYSROOT/boot/vmlinuz-*" >/dev/null || why="no pinned kernel (make fetch)" ;;
		qemu) command -v qemu-system-x86_64 >/dev/null || why="qemu-system-x86_64 is missing (tools/scripts/install-deps)" ;;
		cpio | e2fsck) command -v "$w" >/dev/null || why="$w is missing (tools/scripts/install-deps)" ;;
		rsvg-convert | xmllint) command -v "$w" >/dev/null || why="$w is missing (tools/scripts/install-deps: librsvg2-bin, libxml2-utils)" ;;
		*) fail "bb_need: unknown prerequisite '$w'" ;;
		esac
		[ -z "$why" ] && continue
		skip "$why"
	done
}

# bb_timeout SECONDS COMMAND...: COMMAND, killed after SECONDS; returns its exit code (137
# when the timeout killed it). It runs in the background of the test, so a failing or
# interrupted test ends it (and its process group) at once (bb_cleanup) instead of waiting for
# it: a foreground command would hold the test's traps until it ends. Called in a background
# subshell of the test, it is still ended by the test's cleanup ($T/.bb_pids).
bb_timeout() {
	local secs=$1 rc=0 pid
	shift
	timeout --signal=KILL "$secs" "$@" &
	pid=$!
	BB_PIDS+=("$pid")
	echo "$pid" >>"$T/.bb_pids"
	wait "$pid" || rc=$?
	return "$rc"
}

# boot_log_tail LOG [N]: how a boot that did not end well ended: the kernel's own report of a
# hang or crash first (a soft lockup's or RCU stall's header scrolls out of the tail under its
# stack trace), then LOG's last N lines (default 40)
boot_log_tail() {
	grep -a -E -m 8 "BUG:|INFO:|WARNING:|stall|lockup|blocked for more|Kernel panic" "$1" || true
	tail -n "${2:-40}" "$1"
}

# kernel_lockup_note WHAT LOG...: 0 when one of the console LOGs holds the kernel's own
# report of a lockup or stall (tests/lockup.inc): then a line "NOTE: WHAT: ..." (tests/run
# prints a passing test's NOTE: lines under its PASS) names the first report and where that CPU
# was (its first RIP: line); 1 when no LOG has one. A test that reruns a boot for that says so
# through this, so how often it happens stays on the record (tests/run reruns a whole test
# that failed with one, once, and says so too).
. "$BB_TOP/tests/lockup.inc"
kernel_lockup_note() {
	local what=$1 log report rip
	shift
	for log in "$@"; do
		[ -f "$log" ] || continue
		report=$(tr -d '\r' <"$log" | grep -a -m1 -E "$BB_LOCKUP_RE" | cut -c1-160)
		[ -n "$report" ] || continue
		rip=$(tr -d '\r' <"$log" | grep -a -m1 -E '^(\[ *[0-9.]+\] )?RIP: 0010:' | sed 's/^\[[^]]*\] //' | cut -c1-100)
		echo "NOTE: $what: the guest kernel locked up: $report; ${rip:-no RIP: line}; console: $log"
		return 0
	done
	return 1
}

# bb_qemu SECONDS LOG QEMU-OPTIONS...: QEMU under TCG (1 GB, 2 CPUs, no reboot, console on
# stdio into LOG, CRs removed) under bb_timeout; returns QEMU's exit code.
bb_qemu() {
	local secs=$1 log=$2 rc=0
	shift 2
	bb_timeout "$secs" qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
		"$@" >"$log.raw" 2>&1 </dev/null || rc=$?
	tr -d '\r' <"$log.raw" >"$log"
	return "$rc"
}

# expect_vcpu_warning OUT RUNJSON VCPUS: `benchboot run` under TCG whose VMs had VCPUS vCPUs
# at once (a two-host job: both VMs') warned once in OUT when VCPUS >= the host's online CPUs
# (getconf _NPROCESSORS_ONLN, as run counts them), and not at all otherwise; every boot in
# RUNJSON records the host's CPUs, VCPUS and whether they were oversubscribed.
expect_vcpu_warning() {
	local out=$1 json=$2 vcpus=$3 host over=0 n
	host=$(getconf _NPROCESSORS_ONLN)
	[ "$vcpus" -ge "$host" ] && over=1
	n=$(grep -c "^benchboot run: warning: [0-9]* vCPUs\? .*under TCG on a host with" "$out" || true)
	expect_eq "vCPU warnings in $out ($vcpus vCPUs, $host host CPUs)" "$n" "$over"
	[ $over = 0 ] || expect_grep "^benchboot run: warning: $vcpus vCPUs.* under TCG on a host with $host CPUs: each vCPU is a host thread competing with QEMU's own" "$out"
	python3 - "$json" "$host" "$vcpus" "$over" <<'PY' || fail "$json: host_cpus, vcpus or vcpus_oversubscribed wrong"
import json, sys
boots = json.load(open(sys.argv[1]))["boots"]
want = (int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1")
assert boots, "no boots"
for b in boots:
    got = (b["host_cpus"], b["vcpus"], b["vcpus_oversubscribed"])
    assert got == want, (b["boot_id"], got, want)
PY
}

# expect_check_refuses YAML MESSAGE: `benchboot check` of a job file of YAML (printf %b escapes)
# exits 100 with MESSAGE (a grep pattern) on stderr; the file is $T/bad.yaml.
expect_check_refuses() {
	local rc=0
	printf '%b' "$1" >"$T/bad.yaml"
	"$BENCHBOOT" check "$T/bad.yaml" >"$T/out" 2>"$T/err" || rc=$?
	expect_eq "exit code of: $1" "$rc" 100
	expect_grep "$2" "$T/err"
}
