# `benchboot run` SIGKILLed while it copies the boots to its folder (issue 24 item 6). run
# collects with collect's own function (bb_run_collect -> bb_collect_disk, lib/host/run/boot.c),
# and has no --resume: the way back is a plain `benchboot collect` of the run's disk. The
# disk given with --disk already holds three boots of 12 MB (the init's writer built for the
# host), so run's collect after its one short boot (the real init, TCG) copies four boots; run
# is SIGKILLed a pseudo-random time (0-0.15 s) after the first boot's tmp folder appears. Then: the folder, as
# compare reads it, holds only boots whose copy ended (never the tmp folder, a complete one is
# whole); `benchboot collect DISK -o DIR` removes the tmp folder of the killed run and gives
# the boots identical to a reference collect of the disk into a fresh folder; a second one
# finds everything there. BB_TRIALS trials (default 3, a boot each), BB_SEED seeds the delays;
# the first trial kills at once, and up to 4 more do while no kill has landed inside a copy.
. tests/lib.sh
. tests/qemu/init-image.inc
. tests/host/src/results-common.sh
TRIALS=${BB_TRIALS:-3}
SEED=${BB_SEED:-$(($(date +%s) % 32768))}
{
	cat <<'PLAN'
benchboot-plan 1
job=run-kill-collect
cgroup.mode=v2
cgroup.controllers=memory

[run quick]
suite=netperf
param.test=TCP_STREAM
iterations=1
runtime=1
grace=60
PLAN
	sh_client_stanza "/bin/busybox cat /bench/tcp_stream.txt"
	echo client.count=1
} >"$T/plan"
init_image "$T/plan" "$T/img" --module virtio_blk --module virtio_pci \
	--file tests/fixtures/netperf/tcp_stream.txt:/bench/tcp_stream.txt
build_writer
"$BENCHBOOT" mkdisk "$T/fresh.img" --size 256M >/dev/null || fail "mkdisk"
fake_disk "$T/root" vda "$T/fresh.img"
for b in 1 2 3; do
	st=()
	for r in 1 2 3; do
		make_stage "$T/s$b.$r" "TCP_STREAM.nr_threads=$r" $((b * 10 + r)) 4000000
		echo "boot $b sync $r" >"$T/s$b.$r/init.log"
		st+=("$T/s$b.$r")
	done
	mkdir -p "$T/local$b"
	"$T/writer" "$T/root" "pre$b" "$T/local$b" "${st[@]}" >"$T/w$b.out" 2>&1 ||
		{ cat "$T/w$b.out"; fail "writer of boot $b failed"; }
done

# boots DIR: every file under DIR's boot folders (and any dot folder) with its sha256, sorted;
# run's own files (run.json, console/, the disk) are per run and left out
boots() {
	(cd "$1" && find . -mindepth 1 \( -name run.json -o -name console -o -name '*.img' \) -prune -o \
		\( -type d -printf 'd %p\n' \) -o \( -type f -printf '%p\n' \) | sort | while read -r f; do
		case $f in "d "*) echo "$f" ;; *) echo "$(sha256sum <"$f" | cut -c1-64) $f" ;; esac
	done)
}

RANDOM=$SEED
echo "$TRIALS trials, seed $SEED (BB_SEED=$SEED repeats them); the first kills at once, the others after 0-150 ms"
copy=0 other=0 n=0 lockups=0
# up to 4 more trials, each killing at once, while no kill has landed inside a copy (the copy
# of the four boots takes 0.1 to 0.3 s, so a random delay can miss it in every trial)
while [ $n -lt "$TRIALS" ] || { [ $copy = 0 ] && [ $n -lt $((TRIALS + 4)) ]; }; do
	n=$((n + 1))
	r=$RANDOM
	if [ $n = 1 ] || [ $n -gt "$TRIALS" ]; then r=0; fi
	cp "$T/fresh.img" "$T/d$n.img"
	res="$T/res$n"
	"$BENCHBOOT" run --image "$T/img/img" --accel tcg --deadline 200 --disk "$T/d$n.img" -o "$res" \
		>"$T/run$n.out" 2>&1 &
	pid=$!
	BB_PIDS+=("$pid")
	waited=0
	# aimed at the collect: the first boot's tmp folder (run's output reaches the file later)
	until compgen -G "$res/.*.tmp-*" >/dev/null; do
		kill -0 "$pid" 2>/dev/null || { cat "$T/run$n.out"; fail "trial $n: run ended before its collect began"; }
		sleep 0.005
		waited=$((waited + 1))
		[ $waited -lt 48000 ] || fail "trial $n: no collect in 240 s"
	done
	delay=$((r * 150 / 32768)) # ms; the copy of the four boots takes 0.1 to 0.3 s
	sleep "0.$(printf %03d $delay)"
	kill -KILL "$pid" 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	# its QEMU had ended before the collect; make sure
	if pgrep -f -- "$T/img/img/initrd.img" >/dev/null; then fail "trial $n: a QEMU of the run is still running"; fi
	{ grep -E "collect: |^boot 1/1: " "$T/run$n.out" || true; } | sed 's/^/    /'
	what=other
	if compgen -G "$res/.*.tmp-*" >/dev/null; then
		what=copy
		copy=$((copy + 1))
	else
		other=$((other + 1))
	fi
	echo "trial $n: run killed $delay ms after its collect began (exit $rc): $( [ $what = copy ] && echo "inside a copy" || echo "between copies or after")"
	# the interrupted state, as compare reads it
	"$BENCHBOOT" collect "$T/d$n.img" -o "$T/ref$n" >"$T/ref$n.out" 2>&1 || { cat "$T/ref$n.out"; fail "trial $n: reference collect"; }
	# the run's own boot ended before the collect began: its results are on the disk
	if ! compgen -G "$T/ref$n/0004-*" >/dev/null; then
		if [ $lockups = 0 ] && kernel_lockup_note "trial $n (run once more)" "$res"/console/*.log; then
			lockups=1
			rm -rf "$res" "$T/ref$n" "$T/d$n.img"
			n=$((n - 1))
			continue
		fi
		cat "$T/run$n.out"
		for log in "$res"/console/*.log; do [ -e "$log" ] && boot_log_tail "$log" 30; done
		fail "trial $n: the run's boot left no results on its disk (its boot failed before the kill)"
	fi
	visible=0
	for d in "$res"/[0-9]*/; do
		[ -d "$d" ] || continue
		name=$(basename "$d")
		visible=$((visible + 1))
		[ -f "$d/.collect" ] || fail "trial $n: $name in place without a .collect record"
		grep -q '^status=complete$' "$d/.collect" || fail "trial $n: $name is not complete (every boot on this disk is)"
		diff <(boots "$d") <(boots "$T/ref$n/$name") >/dev/null || fail "trial $n: $name says complete but differs from the reference"
	done
	crc=0
	"$BENCHBOOT" compare "$res" "$T/ref$n" >"$T/half$n.cmp" 2>&1 || crc=$?
	grep -q "tmp-" "$T/half$n.cmp" && { cat "$T/half$n.cmp"; fail "trial $n: compare read a tmp folder"; }
	if [ $visible -gt 0 ]; then
		[ $crc -le 1 ] || { cat "$T/half$n.cmp"; fail "trial $n: compare of the interrupted state: exit $crc"; }
		grep -q "^A: $res ($visible boots\?)" "$T/half$n.cmp" || { cat "$T/half$n.cmp"; fail "trial $n: compare counted other than the $visible boots in place"; }
		grep -q "did not finish" "$T/half$n.cmp" && { cat "$T/half$n.cmp"; fail "trial $n: a boot noted as not finished"; }
	else
		[ $crc -ge 2 ] || { cat "$T/half$n.cmp"; fail "trial $n: compare of a folder with no boot in place succeeded"; }
	fi
	# the way back: collect the run's disk into the run's folder
	"$BENCHBOOT" collect "$T/d$n.img" -o "$res" >"$T/again$n.out" 2>&1 || { cat "$T/again$n.out"; fail "trial $n: collect after the kill"; }
	cat "$T/again$n.out" | sed 's/^/    /'
	[ $what = copy ] && expect_grep "removed .*tmp-$pid, left by a collect that was interrupted" "$T/again$n.out"
	compgen -G "$res/.*" >/dev/null && { ls -a "$res"; fail "trial $n: a dot entry left after the collect"; }
	diff <(boots "$T/ref$n") <(boots "$res") >"$T/diff$n" || { cat "$T/diff$n"; fail "trial $n: the boots differ from the reference collect"; }
	[ "$(find "$res" -mindepth 1 -maxdepth 1 -name '000[1-4]-*' -type d | wc -l)" = 4 ] || fail "trial $n: not four boots"
	"$BENCHBOOT" collect "$T/d$n.img" -o "$res" >"$T/third$n.out" 2>&1 || fail "trial $n: third collect"
	expect_grep "^0 boots collected (0 incomplete), 4 already there" "$T/third$n.out"
	rm -rf "$res" "$T/ref$n" "$T/d$n.img"
done
echo "$n trials: run killed inside a copy $copy, between copies or after $other; every time a plain collect of the run's disk gave the four boots complete, identical to the reference"
[ $copy -ge 1 ] || fail "no kill landed inside a copy"
