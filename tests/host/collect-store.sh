# collect adds what it collected to the results store (docs/verbs/store.md): a results disk
# with three boots written by the init's writer built for the host; collect says
# "store: 3 new boots in DB" and the store lists them; collecting again into the same folder
# adds nothing new; --no-store leaves the store as it was; --db names another store; a store
# that cannot be written is a warning, and collect still exits 0 with the boots in the folder.
. tests/lib.sh
. tests/host/src/results-common.sh
build_writer
"$BENCHBOOT" mkdisk "$T/disk.img" --size 64M >/dev/null || fail "mkdisk failed"
fake_disk "$T/root" vda "$T/disk.img"
for b in 1 2 3; do
	make_stage "$T/s$b" "TCP_STREAM.nr_threads=1" $((b * 10)) 1000000
	"$T/writer" "$T/root" "boot$b" "$T/local$b" "$T/s$b" >"$T/w$b.out" 2>&1 ||
		{ cat "$T/w$b.out"; fail "writer of boot $b failed"; }
done
"$BENCHBOOT" collect "$T/disk.img" -o "$T/res" >"$T/out" 2>&1 || fail "collect: $(cat "$T/out")"
cat "$T/out"
expect_grep "^store: 3 new boots in $BENCHBOOT_DB " "$T/out"
"$BENCHBOOT" store list >"$T/list" 2>&1 || fail "store list: $(cat "$T/list")"
expect_grep "^store $BENCHBOOT_DB: 1 folder, 3 boots, 3 runs," "$T/list"
# again: nothing new collected, nothing added
"$BENCHBOOT" collect "$T/disk.img" -o "$T/res" >"$T/out" 2>&1 || fail "collect again: $(cat "$T/out")"
grep -q "^store:" "$T/out" && fail "a collect with nothing new added to the store: $(cat "$T/out")"
# --no-store, and --db elsewhere
"$BENCHBOOT" collect "$T/disk.img" -o "$T/res2" --no-store >"$T/out" 2>&1 || fail "collect --no-store: $(cat "$T/out")"
grep -q "^store:" "$T/out" && fail "--no-store added to the store: $(cat "$T/out")"
"$BENCHBOOT" store list >"$T/list" 2>&1
expect_grep "^store $BENCHBOOT_DB: 1 folder, 3 boots," "$T/list"
"$BENCHBOOT" collect "$T/disk.img" -o "$T/res3" --db "sqlite:$T/other.db" >"$T/out" 2>&1 || fail "collect --db: $(cat "$T/out")"
expect_grep "^store: 3 new boots in $T/other.db " "$T/out"
# a store that is no store: a warning, exit 0, the boots collected
head -c 4096 /dev/urandom >"$T/bad.db"
rc=0
"$BENCHBOOT" collect "$T/disk.img" -o "$T/res4" --db "$T/bad.db" >"$T/out" 2>&1 || rc=$?
cat "$T/out"
expect_eq "collect into a damaged store: exit code" "$rc" 0
expect_grep "^benchboot collect: warning: the results are not in the store: .*bad.db is not a benchboot store or is damaged" "$T/out"
expect_grep "^3 boots collected" "$T/out"
echo "collect-store ok"
