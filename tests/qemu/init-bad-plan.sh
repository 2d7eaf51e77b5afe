# A plan the init cannot parse: the error is reported with its line, the boot still records
# env.json with the error, no kernel panic, and the machine restarts by itself as the command
# line says (benchboot.reboot=1; QEMU's -no-reboot turns that into an exit).
. tests/lib.sh
. tests/qemu/init-image.inc

printf 'benchboot-plan 1\njob=broken\n[run x]\nsuite=netperf\nruntime=ten\n' >"$T/plan"
init_image "$T/plan" "$T/img"
init_boot "$T/console" -- benchboot.console.lava=0 benchboot.reboot=1
c="$T/console"
expect_grep "^BENCHBOOT plan-error plan:5: runtime: expected seconds, not 'ten'$" "$c"
expect_grep "^BENCHBOOT boot-start id=.* runs=0 iterations=0 job=- " "$c"
expect_grep "^BENCHBOOT boot-end id=.* ok=0 failed=0$" "$c"
expect_grep "^benchboot: rebooting" "$c"
expect_grep "reboot: Restarting system" "$c"
! grep -q "Kernel panic" "$c" || fail "kernel panic"
"$BENCHBOOT" collect --console "$c" -o "$T/res" >"$T/collect.log" 2>&1 || { cat "$T/collect.log"; fail "collect --console"; }
expect_grep "\"plan_error\": \"plan:5: runtime: expected seconds, not 'ten'\"" "$T"/res/0*/env.json
