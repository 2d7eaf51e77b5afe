# benchboot.debug=1: after the (empty) matrix the init starts a BusyBox shell on the console;
# commands typed there run, and when the shell exits the init powers off as the plan says.
. tests/lib.sh
. tests/qemu/init-image.inc

printf 'benchboot-plan 1\njob=debug-shell\ncgroup.mode=none\n' >"$T/plan"
init_image "$T/plan" "$T/img"
mkfifo "$T/in"
timeout --signal=KILL 400 qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
	-kernel "$VMLINUZ" -initrd "$INITRD" -append "console=ttyS0 panic=-1 benchboot.debug=1" \
	<"$T/in" >"$T/console.raw" 2>&1 &
qpid=$!
BB_PIDS+=("$qpid")
exec 3>"$T/in"
for _ in $(seq 1 600); do
	grep -q "shell on the console" "$T/console.raw" 2>/dev/null && break
	kill -0 "$qpid" 2>/dev/null || break
	sleep 0.5
done
grep -q "shell on the console" "$T/console.raw" || { tail -n 20 "$T/console.raw"; fail "no debug shell"; }
sleep 2
printf 'echo SHELL_$((6*7))\n' >&3
sleep 3
printf 'exit\n' >&3
rc=0
wait "$qpid" || rc=$?
exec 3>&-
tr -d '\r' <"$T/console.raw" >"$T/console"
[ $rc = 0 ] || { boot_log_tail "$T/console" 20; fail "qemu exit $rc"; }
expect_grep "^SHELL_42" "$T/console"
expect_grep "^BENCHBOOT boot-end id=.* ok=0 failed=0" "$T/console"
expect_grep "powering off" "$T/console"
expect_grep "reboot: Power down" "$T/console"
