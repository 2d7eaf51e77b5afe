# LKP's repeat_to N (a 0-day job.yaml's): `benchboot run` without --repeat boots the job N
# times (three boots of a 1 s stress-ng job here), says so, and compare counts three boots.
. tests/lib.sh
bb_need init qemu
cat >"$T/rep.yaml" <<'JOB'
suite: stress-ng
testtime: 1s
repeat_to: 3
stress-ng:
  test: "null"
JOB
"$BENCHBOOT" check "$T/rep.yaml" >"$T/check.out" 2>&1 || fail "check: $(cat "$T/check.out")"
expect_grep "^repeat_to 3: 3 boots by repeat_to" "$T/check.out"
rc=0
bb_timeout 900 "$BENCHBOOT" run "$T/rep.yaml" --accel tcg --cpus 1 --images "$T/images" -o "$T/res" >"$T/run.out" 2>&1 || rc=$?
cat "$T/run.out"
expect_eq "run of a repeat_to 3 job: exit" "$rc" 0
expect_grep "boot 3/3: finished in" "$T/run.out"
! grep -q "boot 4/" "$T/run.out" || fail "more than 3 boots"
expect_eq "boot folders" "$(find "$T/res" -mindepth 1 -maxdepth 1 -name '0*-*' -type d | wc -l)" 3
echo "repeat_to 3: three boots without --repeat"
