# benchboot.debug=1: after the (empty) matrix the init starts a BusyBox shell on the console;
# commands typed there run, and when the shell exits the init powers off as the plan said.
# BusyBox's `poweroff` and `reboot` typed there end the boot at once (the signals they send to
# PID 1: SIGUSR2, SIGTERM). With benchboot.debug.crash=map the shared page is not mapped: the
# runner runs in PID 1 itself, once, and the boot still ends.
. tests/lib.sh
. tests/qemu/init-image.inc

printf 'benchboot-plan 1\njob=debug-shell\ncgroup.mode=none\n' >"$T/plan"
init_image "$T/plan" "$T/img"

# shell_boot NAME EXTRA-CMDLINE LINE...: boot with the debug shell, type each LINE once it is
# up (a pause between), wait for QEMU to end (-no-reboot: a reboot ends it too); the console
# in $T/NAME.console
shell_boot() {
	local name=$1 extra=$2
	shift 2
	rm -f "$T/in"
	mkfifo "$T/in"
	timeout --signal=KILL 400 qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
		-kernel "$VMLINUZ" -initrd "$INITRD" \
		-append "console=ttyS0 panic=-1 benchboot.debug=1 $extra" \
		<"$T/in" >"$T/$name.raw" 2>&1 &
	local qpid=$!
	BB_PIDS+=("$qpid")
	exec 3>"$T/in"
	for _ in $(seq 1 600); do
		grep -q "shell on the console" "$T/$name.raw" 2>/dev/null && break
		kill -0 "$qpid" 2>/dev/null || break
		sleep 0.5
	done
	grep -q "shell on the console" "$T/$name.raw" ||
		{ tail -n 20 "$T/$name.raw"; fail "$name: no debug shell"; }
	local line
	for line in "$@"; do
		sleep 2
		printf '%s\n' "$line" >&3
	done
	local rc=0
	wait "$qpid" || rc=$?
	exec 3>&-
	tr -d '\r' <"$T/$name.raw" >"$T/$name.console"
	[ $rc = 0 ] || { boot_log_tail "$T/$name.console" 20; fail "$name: qemu exit $rc"; }
}

shell_boot exit "" 'echo SHELL_$((6*7))' exit
c="$T/exit.console"
expect_grep "^SHELL_42" "$c"
expect_grep "^BENCHBOOT boot-end id=.* ok=0 failed=0" "$c"
expect_grep "powering off" "$c"
expect_grep "reboot: Power down" "$c"

shell_boot poweroff "" poweroff
c="$T/poweroff.console"
# the init's line may follow the shell's prompt on its line (/ # ESC[6n: ash asks the terminal
# for its cursor as it draws the prompt, and poweroff returns before the prompt's line ends)
expect_grep "benchboot: powering off$" "$c"
expect_grep "reboot: Power down" "$c"

shell_boot reboot "" reboot
c="$T/reboot.console"
expect_grep "benchboot: rebooting$" "$c"
expect_grep "reboot: Restarting system" "$c"
! grep -q "reboot: Power down" "$c" || fail "reboot: the machine powered off instead"

shell_boot nomap "benchboot.debug.crash=map" exit
c="$T/nomap.console"
expect_grep "^benchboot: cannot start the runner as a child (no shared page: Out of memory): running it in PID 1" "$c"
expect_count "boot-start lines (one runner)" "^BENCHBOOT boot-start " "$c" 1
expect_grep "^BENCHBOOT boot-end id=.* ok=0 failed=0" "$c"
expect_grep "reboot: Power down" "$c"
