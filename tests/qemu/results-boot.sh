# The results writer in a real boot (TCG): two boots of two runs each append to one results disk
# (the last of four virtio disks), collect gets both, exactly as written, e2fsck -fn is clean,
# and the other ext4 disk, the raw disk and a disk labelled BENCHBOOT without a marker attached
# with it are byte-identical afterwards.
# A third boot without a results disk prints its results on the console, and
# `collect --console` gets the same files from the serial log.
. tests/lib.sh
. tests/qemu/results.inc
"$BENCHBOOT" mkdisk "$T/results.img" --size 64M >/dev/null || fail "mkdisk"
truncate -s 32M "$T/plain.img"
mke2fs -q -F -t ext4 -L data "$T/plain.img"
echo "user data" >"$T/userfile"
debugfs -w -R "write $T/userfile userfile" "$T/plain.img" >/dev/null 2>&1
head -c 16M /dev/urandom >"$T/raw.img"
# labelled BENCHBOOT but never marked: opened once (read-write, as the real one), then left
truncate -s 32M "$T/nomark.img"
mke2fs -q -F -t ext4 -L BENCHBOOT "$T/nomark.img"
sha256sum "$T/plain.img" "$T/raw.img" "$T/nomark.img" >"$T/before"
"$T/gen" "$T/want" 2 65536 || fail "gen"

start=$SECONDS
rboot "$T/boot1.log" "bbtest.runs=2 bbtest.id=one" "$T/plain.img" "$T/raw.img" "$T/nomark.img" \
	"$T/results.img"
echo "boot 1: $((SECONDS - start)) s wall"
grep -E "BBTEST|results:" "$T/boot1.log"
expect_grep "vda: not a benchboot disk" "$T/boot1.log"
expect_grep "vdb: not a benchboot disk" "$T/boot1.log"
expect_grep "vdc: labelled BENCHBOOT but no valid marker: not a benchboot disk" "$T/boot1.log"
expect_grep "BBTEST open rc=0 bootdir=0001-one" "$T/boot1.log"
rboot "$T/boot2.log" "bbtest.runs=2 bbtest.id=two" "$T/plain.img" "$T/raw.img" "$T/results.img"
expect_grep "BBTEST open rc=0 bootdir=0002-two" "$T/boot2.log"
grep -E "synced|BBTEST sync" "$T/boot2.log"

sha256sum -c --quiet "$T/before" || fail "the unmarked ext4 disks or the raw disk changed"
e2fsck -fn "$T/results.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck -fn"; }
"$BENCHBOOT" collect "$T/results.img" -o "$T/out" >"$T/collect.log" 2>&1 || { cat "$T/collect.log"; fail "collect"; }
cat "$T/collect.log"
expect_grep "^2 boots collected (0 incomplete)" "$T/collect.log"
for b in 0001-one 0002-two; do
	expect_eq "$b finished runs" "$(check_runs "$T/out/$b" "$T/want" | tr '\n' ' ')" "run-1 run-2 "
	expect_eq "$b init.log" "$(cat "$T/out/$b/init.log")" "run 1 done
run 2 done"
	expect_grep "^status=complete" "$T/out/$b/.collect"
done

# no results disk: the console carries the results
rboot "$T/boot3.log" "bbtest.runs=2 bbtest.id=three" "$T/plain.img" "$T/raw.img"
expect_grep "no results disk: results go to the console only" "$T/boot3.log"
"$BENCHBOOT" collect --console "$T/boot3.log.raw" -o "$T/cons" >"$T/cc.log" 2>&1 || { cat "$T/cc.log"; fail "collect --console"; }
cat "$T/cc.log"
expect_eq "console finished runs" "$(check_runs "$T/cons/0000-three" "$T/want" | tr '\n' ' ')" "run-1 run-2 "
expect_grep "^status=complete" "$T/cons/0000-three/.collect"
sha256sum -c --quiet "$T/before" || fail "the unmarked ext4 disk or the raw disk changed"
echo "results boot ok"
