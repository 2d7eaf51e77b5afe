# `benchboot collect` SIGKILLed at pseudo-random moments of its run (issue 24 item 6): a results
# disk with five boots (four complete, the last interrupted: no `done`) written by the init's
# writer built for the host; each trial collects into a fresh folder and kills collect after a
# delay spread over its whole run time (measured first), sometimes kills the resumed collect
# too, then:
#   - in the interrupted state, compare (the results-tree reader) counts only the boot folders
#     collect renamed into place, never a `.NNNN-BOOTID.tmp-PID` folder; every boot folder has
#     a .collect record; one that says complete is the reference's copy, whole; one that says
#     incomplete (and only such) is noted as not finished;
#   - a collect without a kill gives a tree identical to a reference collect into a fresh
#     folder (every file's path and sha256, .collect records included), with no tmp folder
#     left (collect removes those of dead PIDs);
#   - a third collect says everything is already there and changes nothing.
# BB_TRIALS (default 12: each kill point is drawn over the whole run, so a dozen trials cover
# its phases; 50 or more for a stress run) trials; BB_SEED (default: the time) seeds the delays, printed.
. tests/lib.sh
. tests/host/src/results-common.sh
TRIALS=${BB_TRIALS:-12}
SEED=${BB_SEED:-$(($(date +%s) % 32768))}
build_writer
"$BENCHBOOT" mkdisk "$T/disk.img" --size 128M >/dev/null || fail "mkdisk failed"
fake_disk "$T/root" vda "$T/disk.img"
for b in 1 2 3 4 5; do
	st=()
	for r in 1 2 3; do
		make_stage "$T/s$b.$r" "TCP_STREAM.nr_threads=$r" $((b * 10 + r)) 1000000
		echo "boot $b sync $r" >"$T/s$b.$r/init.log"
		st+=("$T/s$b.$r")
	done
	fin=()
	[ $b = 5 ] && fin=(--no-finish) # the last one: a boot that never ended (no done)
	mkdir -p "$T/local$b"
	"$T/writer" "$T/root" "boot$b" "$T/local$b" "${st[@]}" "${fin[@]}" >"$T/w$b.out" 2>&1 ||
		{ cat "$T/w$b.out"; fail "writer of boot $b failed"; }
done

# tree DIR: every entry under DIR (dot folders included) with the sha256 of each file, sorted
tree() {
	(cd "$1" && find . -mindepth 1 \( -type d -printf 'd %p\n' \) -o \( -type f -printf '%p\n' \) |
		sort | while read -r f; do
			case $f in "d "*) echo "$f" ;; *) echo "$(sha256sum <"$f" | cut -c1-64) $f" ;; esac
		done)
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }

t0=$(now_ms)
"$BENCHBOOT" collect "$T/disk.img" -o "$T/ref" >"$T/ref.out" 2>&1 || { cat "$T/ref.out"; fail "reference collect failed"; }
t1=$(now_ms)
expect_grep "^5 boots collected (1 incomplete), 0 already there" "$T/ref.out"
tree "$T/ref" >"$T/ref.tree"
RUN_MS=$((t1 - t0))
# the first collect reads a cold disk image: the killed ones run as the warm ones do, so the
# delays spread over the fastest of three warm collects (with a wider spread, over half the
# kills came after collect had ended)
for w in 1 2 3; do
	t0=$(now_ms)
	"$BENCHBOOT" collect "$T/disk.img" -o "$T/warm$w" >/dev/null 2>&1 || fail "warm collect $w failed"
	t1=$(now_ms)
	[ $((t1 - t0)) -ge "$RUN_MS" ] || RUN_MS=$((t1 - t0))
	rm -rf "$T/warm$w"
done
[ "$RUN_MS" -ge 1 ] || RUN_MS=1
echo "a collect of the disk takes $RUN_MS ms; $TRIALS trials, seed $SEED (BB_SEED=$SEED repeats them)"

# check_half OUT TRIAL: the interrupted state as compare's reader sees it
check_half() {
	local out=$1 n=$2 name rec visible=0
	for d in "$out"/*/; do
		[ -d "$d" ] || continue
		name=$(basename "$d")
		visible=$((visible + 1))
		rec="$d/.collect"
		[ -f "$rec" ] || fail "trial $n: $name is in place without a .collect record"
		if grep -q '^status=complete$' "$rec"; then
			diff <(tree "$d") <(tree "$T/ref/$name") >/dev/null ||
				fail "trial $n: $name says complete but differs from the reference"
		else
			expect_grep '^status=incomplete$' "$rec"
		fi
	done
	local rc=0
	"$BENCHBOOT" compare "$out" "$T/ref" >"$T/half.cmp" 2>&1 || rc=$?
	if [ "$visible" = 0 ]; then
		# nothing in place yet: compare finds no results on side A, nothing taken
		[ $rc -ge 2 ] || { cat "$T/half.cmp"; fail "trial $n: compare of an empty folder succeeded"; }
		grep -q "tmp-" "$T/half.cmp" && { cat "$T/half.cmp"; fail "trial $n: compare read a tmp folder"; }
		return 0
	fi
	[ $rc -le 1 ] || { cat "$T/half.cmp"; fail "trial $n: compare of the interrupted state: exit $rc"; }
	grep -q "tmp-" "$T/half.cmp" && { cat "$T/half.cmp"; fail "trial $n: compare read a tmp folder"; }
	grep -q "^A: $out ($visible boots\?)" "$T/half.cmp" ||
		{ cat "$T/half.cmp"; fail "trial $n: compare did not count the $visible boot folders in place"; }
	for d in "$out"/*/; do
		name=$(basename "$d")
		if grep -q '^status=complete$' "$d/.collect"; then
			grep -q "boot $out/$name did not finish" "$T/half.cmp" &&
				fail "trial $n: complete $name noted as not finished"
		else
			grep -q "boot $out/$name did not finish" "$T/half.cmp" ||
				{ cat "$T/half.cmp"; fail "trial $n: incomplete $name not noted as not finished"; }
		fi
	done
	return 0
}

# kill_collect OUT DELAY_MS: one collect into OUT, SIGKILLed after DELAY_MS;
# prints what the kill hit: copy (a tmp folder left), before (nothing made yet), between (after
# a rename, before the next boot's tmp folder), after (it had ended)
kill_collect() {
	local out=$1 delay=$2 pid rc=0 before
	before=$(find "$out" -mindepth 1 -maxdepth 1 ! -name '.*' 2>/dev/null | wc -l)
	"$BENCHBOOT" collect "$T/disk.img" -o "$out" >"$T/killed.out" 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" || rc=$?
	if [ $rc = 0 ]; then
		echo after
	elif [ $rc != 137 ]; then
		cat "$T/killed.out" >&2
		echo "collect exit $rc" >&2
		echo error
	elif compgen -G "$out/.*.tmp-*" >/dev/null; then
		echo copy
	elif [ "$(find "$out" -mindepth 1 -maxdepth 1 ! -name '.*' 2>/dev/null | wc -l)" = "$before" ]; then
		echo before
	else
		echo between
	fi
}

# the delays: in [0, the run time], from the seeded sequence (drawn here: a subshell's RANDOM
# is seeded anew)
RANDOM=$SEED
copy=0 before=0 between=0 after=0 twice=0 stale=0
for n in $(seq 1 "$TRIALS"); do
	out="$T/out.$n"
	d1=$((RANDOM * RUN_MS / 32768)) d2=$((RANDOM * RUN_MS / 32768))
	what=$(kill_collect "$out" "$d1")
	[ "$what" != error ] || fail "trial $n: the killed collect failed on its own"
	eval "$what=\$(($what + 1))"
	check_half "$out" "$n"
	if [ $((n % 3)) = 0 ]; then # the resumed collect killed as well
		w2=$(kill_collect "$out" "$d2")
		[ "$w2" != error ] || fail "trial $n: the second killed collect failed on its own"
		twice=$((twice + 1))
		check_half "$out" "$n"
	fi
	compgen -G "$out/.*.tmp-*" >/dev/null && stale=$((stale + 1))
	"$BENCHBOOT" collect "$T/disk.img" -o "$out" >"$T/c2.out" 2>&1 ||
		{ cat "$T/c2.out"; fail "trial $n: the collect after the kill failed"; }
	if compgen -G "$out/.*" >/dev/null; then
		ls -a "$out"
		fail "trial $n: a dot entry (tmp folder) is left after the re-collect"
	fi
	diff "$T/ref.tree" <(tree "$out") >"$T/tree.diff" ||
		{ cat "$T/c2.out" "$T/tree.diff"; fail "trial $n: the re-collected tree differs from the reference"; }
	tree "$out" >"$T/before3.tree"
	"$BENCHBOOT" collect "$T/disk.img" -o "$out" >"$T/c3.out" 2>&1 ||
		{ cat "$T/c3.out"; fail "trial $n: the third collect failed"; }
	expect_grep "^0 boots collected (0 incomplete), 5 already there" "$T/c3.out"
	grep -q "removed" "$T/c3.out" && fail "trial $n: the third collect removed something"
	diff "$T/before3.tree" <(tree "$out") >/dev/null || fail "trial $n: the third collect changed the tree"
	rm -rf "$out"
done

# the reader never takes a tmp folder or a folder whose record says incomplete as complete,
# even when given it by name (a copy of a complete boot, its done included)
cp -a "$T/ref/0001-boot1" "$T/.0001-boot1.tmp-4242"
rm "$T/.0001-boot1.tmp-4242/.collect"
bb_compare "$T/cmp1" "$T/.0001-boot1.tmp-4242" "$T/ref/0001-boot1"
expect_grep "boot $T/.0001-boot1.tmp-4242 did not finish" "$T/cmp1"
mkdir "$T/rec"
cp -a "$T/ref/0001-boot1" "$T/rec/"
sed -i 's/^status=complete$/status=incomplete/' "$T/rec/0001-boot1/.collect"
bb_compare "$T/cmp2" "$T/rec" "$T/ref"
expect_grep "boot $T/rec/0001-boot1 did not finish" "$T/cmp2"

echo "$TRIALS trials (seed $SEED): killed in copy $copy, before start $before, after a rename (between boots) $between, after its end $after; $twice resumed collects killed too; $stale left a tmp folder that the next collect removed; all re-collected complete, identical to the reference, a third collect idempotent"
