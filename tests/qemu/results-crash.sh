# Crash safety (TCG): QEMU is SIGKILLed during the third of four runs, at six moments (the run
# starting, its sync beginning, three points inside the sync of its 48 MB output, the sync
# just finished). After each kill: every run whose sync returned is collected intact (byte for
# byte), a run is never on the disk in part with its results.json, the
# next boot refuses the unclean disk (console only, disk untouched), and `e2fsck -p` makes the
# disk usable: the next boot appends to it and a last full boot completes.
. tests/lib.sh
. tests/qemu/results.inc
big=$((48 << 20))
"$BENCHBOOT" mkdisk "$T/results.img" --size 512M >/dev/null || fail "mkdisk"
"$T/gen" "$T/want" 4 "$big" || fail "gen"
points=("BBTEST run 3 start:0" "BBTEST sync 3 begin:0" "BBTEST sync 3 begin:0.7"
	"BBTEST sync 3 begin:1.5" "BBTEST sync 3 begin:3" "BBTEST sync 3 end:0")
mid_write=0
seq=0
for i in "${!points[@]}"; do
	marker=${points[$i]%:*} delay=${points[$i]##*:}
	seq=$((seq + 1))
	kboot "$T/k$i.log" "$marker" "$delay" "bbtest.runs=4 bbtest.big=$big bbtest.id=kill$i bbtest.pause=2000" \
		"$T/results.img"
	grep -E "BBTEST (open|sync)" "$T/k$i.log" | tail -n 3
	expect_grep "BBTEST open rc=0 bootdir=$(printf %04d $seq)-kill$i" "$T/k$i.log"
	rm -rf "$T/out$i"
	rc=0
	"$BENCHBOOT" collect "$T/results.img" -o "$T/out$i" >"$T/c$i.log" 2>&1 || rc=$?
	cat "$T/c$i.log"
	[ $rc = 0 ] || [ $rc = 1 ] || fail "collect after kill $i: exit $rc"
	boot="$T/out$i/$(printf %04d $seq)-kill$i"
	expect_grep "^status=incomplete" "$boot/.collect"
	finished=$(check_runs "$boot" "$T/want" | tr '\n' ' ')
	echo "kill $i ($marker +${delay}s): finished runs on the disk: $finished"
	for n in 1 2 3 4; do
		# a run whose sync returned is there; one that is there had its sync started
		if grep -q "BBTEST sync $n end rc=0" "$T/k$i.log"; then
			case " $finished" in *" run-$n "*) ;; *) fail "kill $i: run $n finished but is not on the disk intact" ;; esac
		fi
		case " $finished" in *" run-$n "*)
			grep -q "BBTEST sync $n begin" "$T/k$i.log" || fail "kill $i: run $n on the disk before its sync" ;;
		esac
	done
	if grep -q "BBTEST sync 3 begin" "$T/k$i.log" && ! grep -q "BBTEST sync 3 end" "$T/k$i.log"; then
		mid_write=$((mid_write + 1))
		echo "kill $i landed inside the sync of run 3 (writing its 48 MB output)"
	fi
	if [ "$i" = 0 ]; then
		# not checked yet: the next writer refuses the disk and leaves it as it is
		sha=$(sha256sum <"$T/results.img")
		rboot "$T/refused.log" "bbtest.runs=1 bbtest.id=refused" "$T/results.img"
		expect_grep "was not closed cleanly" "$T/refused.log"
		expect_grep "BENCHBOOT-FILE boot=0000-refused path=runs/run-1/results.json" "$T/refused.log"
		expect_eq "unclean disk after a refusing boot" "$(sha256sum <"$T/results.img")" "$sha"
	fi
	rc=0
	e2fsck -p "$T/results.img" >"$T/fsck$i" 2>&1 || rc=$?
	echo "e2fsck -p after kill $i: exit $rc"
	sed 's/^/    /' "$T/fsck$i"
	[ $rc -le 1 ] || fail "e2fsck -p after kill $i: exit $rc"
	e2fsck -fn "$T/results.img" >"$T/fsck$i.n" 2>&1 || { cat "$T/fsck$i.n"; fail "not clean after e2fsck -p ($i)"; }
done
[ $mid_write -ge 2 ] || fail "only $mid_write kills landed inside a write (machine too fast or too slow?)"

# a last boot on the repaired disk runs to the end
seq=$((seq + 1))
rboot "$T/last.log" "bbtest.runs=4 bbtest.big=$big bbtest.id=last" "$T/results.img"
"$BENCHBOOT" collect "$T/results.img" -o "$T/final" >"$T/final.log" 2>&1 || { cat "$T/final.log"; fail "final collect"; }
cat "$T/final.log"
boot="$T/final/$(printf %04d $seq)-last"
expect_grep "^status=complete" "$boot/.collect"
expect_eq "last boot" "$(check_runs "$boot" "$T/want" | tr '\n' ' ')" "run-1 run-2 run-3 run-4 "
e2fsck -fn "$T/results.img" >/dev/null 2>&1 || fail "e2fsck -fn after the last boot"
grep -E "synced" "$T/last.log"
echo "$mid_write of ${#points[@]} kills landed inside a write; crash safety ok"
