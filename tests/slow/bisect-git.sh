# benchboot bisect-step under `git bisect run`, with real boots under TCG: a throwaway git
# repository of five commits whose file `cmdline` says which kernel command line the step
# boots the pinned kernel with; from the third commit on it holds pti=on, which cuts a short
# stress-ng null job's bogo ops/s by about 90% (tests/qemu/bisect.inc). bisect-step --init records D on the ends, then
# git bisect run names the third commit as the first new one. The exit codes git reads are
# checked on their own too: 125 (skip) for a kernel whose boots fail twice (a panic: no init),
# 128 (abort) without a state and for bad usage, never a child's status.
. tests/lib.sh
. tests/qemu/bisect.inc
command -v git >/dev/null || skip "git is missing"
st=$T/state
opts=(--accel tcg --images "$T/images" --alpha 0.2 --first-look 3 --max-boots 6 --candidates 5)

# the exit codes of a step before there is a state: abort, not "new"
rc=0
"$BENCHBOOT" bisect-step --state "$st" --kernel "$kernel" >"$T/nostate.out" 2>&1 || rc=$?
expect_eq "a step without a state: exit code" "$rc" 128
expect_grep "no bisection here" "$T/nostate.out"
rc=0
"$BENCHBOOT" bisect-step --state "$st" --kernel "$kernel" --no-such-option >"$T/usage.out" 2>&1 || rc=$?
expect_eq "a step with an unknown option: exit code" "$rc" 128
rc=0
"$BENCHBOOT" bisect-step --state "$st" --kernel "$kernel" --alpha 0.1 >"$T/usage2.out" 2>&1 || rc=$?
expect_eq "a step with an --init option: exit code" "$rc" 128
rc=0
"$BENCHBOOT" bisect-step "$T/null.yaml" --init --state "$st" --good "$kernel" >"$T/usage3.out" 2>&1 || rc=$?
expect_eq "--init without --bad: exit code" "$rc" 100

# the ends
rc=0
bb_timeout 900 nice "$BENCHBOOT" bisect-step "$T/null.yaml" --init --state "$st" \
	--good "good=$kernel" --bad "bad=$kernel" --append "$slow" "${opts[@]}" >"$T/init.out" 2>&1 || rc=$?
cat "$T/init.out"
expect_eq "--init: exit code" "$rc" 0
expect_grep "^step 1: ends: bad bad against good good, [0-9]* + [0-9]* boots: -[0-9.]*% .*: changed" "$T/init.out"
expect_grep "^D = -[0-9.]*% of stress-ng.null.ops_per_sec recorded in $st/state.json" "$T/init.out"
[ -s "$st/ends/boots.jsonl" ] || fail "no boots logged for the ends"

# the repository: commit k's cmdline is empty before commit 3, pti=on from it on
repo=$T/repo
git init -q "$repo"
for k in 1 2 3 4 5; do
	if [ "$k" -ge 3 ]; then echo "$slow" >"$repo/cmdline"; else : >"$repo/cmdline"; fi
	echo "$k" >"$repo/n"
	git -C "$repo" add cmdline n
	git -C "$repo" -c user.name=t -c user.email=t@t commit -q -m "commit $k"
	git -C "$repo" tag "c$k"
done
cat >"$T/step.sh" <<EOF
#!/bin/sh
exec "$BENCHBOOT" bisect-step --state "$st" --kernel "\$(git rev-parse --short HEAD)=$kernel" --append "\$(cat cmdline)"
EOF
chmod +x "$T/step.sh"
(
	cd "$repo"
	git bisect start c5 c1
	bb_timeout 1800 git bisect run "$T/step.sh"
) >"$T/bisect.out" 2>&1 || { cat "$T/bisect.out"; fail "git bisect run failed"; }
cat "$T/bisect.out"
first=$(git -C "$repo" rev-parse c3)
expect_grep "^$first is the first bad commit" "$T/bisect.out"
steps=$(ls -d "$st"/step-* | wc -l)
[ "$steps" -ge 1 ] && [ "$steps" -le 3 ] || fail "$steps steps (want 1 to 3)"
expect_grep '"comparisons": '$((steps + 1)) "$st/state.json"

# 125: a kernel whose boots fail twice (its command line finds no init: a panic)
rc=0
bb_timeout 600 nice "$BENCHBOOT" bisect-step --state "$st" --kernel "broken=$kernel" \
	--append "rdinit=/no/such/init panic=-1" >"$T/skip.out" 2>&1 || rc=$?
cat "$T/skip.out"
expect_eq "a kernel that cannot boot: exit code" "$rc" 125
expect_grep "broken: untestable (exit 125)" "$T/skip.out"
if pgrep -f -- "$T/images" >/dev/null; then fail "a QEMU is still running"; fi
