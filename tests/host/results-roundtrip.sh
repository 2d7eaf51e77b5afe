# Round trip without QEMU: the init's writer (init/results.c built for the host) writes two
# boots into a disk made by `benchboot mkdisk`; `benchboot collect` gets back exactly what the
# init had, keeps the boots apart, is idempotent, and e2fsck -fn finds the disk clean.
. tests/lib.sh
. tests/host/src/results-common.sh
build_writer
"$BENCHBOOT" mkdisk "$T/disk.img" --size 64M >"$T/mkdisk.out" || fail "mkdisk failed"
expect_grep "results disk [0-9a-f]\{32\}" "$T/mkdisk.out"
e2fsck -fn "$T/disk.img" >/dev/null 2>&1 || fail "fresh disk not clean"
fake_disk "$T/root" vda "$T/disk.img"

# boot 1: env + two runs, init.log growing between syncs
make_stage "$T/s1" "SCTP_STREAM_MANY.nr_threads=1" 1 300000
echo "boot 1 line 1" >"$T/s1/init.log"
make_stage "$T/s2" "SCTP_STREAM_MANY.nr_threads=2" 2
{ echo "boot 1 line 1"; echo "boot 1 line 2"; } >"$T/s2/init.log"
mkdir -p "$T/local1"
"$T/writer" "$T/root" b00t1 "$T/local1" "$T/s1" "$T/s2" >"$T/w1.out" 2>&1 || fail "writer failed"
cat "$T/w1.out"
expect_grep "open=0 bootdir=0001-b00t1" "$T/w1.out"
expect_grep "finish=0" "$T/w1.out"
[ "$(grep -c '^sync=0$' "$T/w1.out")" = 2 ] || fail "a sync failed"
e2fsck -fn "$T/disk.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck -fn after boot 1"; }

# boot 2 appends to the same disk
make_stage "$T/s3" "TCP_STREAM" 3
echo "boot 2" >"$T/s3/init.log"
mkdir -p "$T/local2"
"$T/writer" "$T/root" b00t2 "$T/local2" "$T/s3" >"$T/w2.out" 2>&1 || fail "writer failed"
expect_grep "open=0 bootdir=0002-b00t2" "$T/w2.out"
e2fsck -fn "$T/disk.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck -fn after boot 2"; }

"$BENCHBOOT" collect "$T/disk.img" -o "$T/out" >"$T/c1.out" 2>&1 || { cat "$T/c1.out"; fail "collect failed"; }
cat "$T/c1.out"
expect_grep "^2 boots collected (0 incomplete)" "$T/c1.out"
diff -r --exclude=.collect --exclude=done "$T/local1" "$T/out/0001-b00t1" || fail "boot 1 differs"
diff -r --exclude=.collect --exclude=done "$T/local2" "$T/out/0002-b00t2" || fail "boot 2 differs"
expect_grep "^status=complete" "$T/out/0001-b00t1/.collect"
expect_grep "^benchboot-done 1" "$T/out/0001-b00t1/done"
# the done manifest lists every file with its sha256
(cd "$T/local1" && find . -type f | sed 's|^\./||' | sort | while read -r f; do
	echo "$(sha256sum "$f" | cut -d' ' -f1) $(stat -c %s "$f") $f"
done) >"$T/manifest"
diff <(tail -n +2 "$T/out/0001-b00t1/done") "$T/manifest" || fail "done manifest differs"

# idempotent: nothing new the second time, and the read-only collect changed nothing
sha_before=$(sha256sum <"$T/disk.img")
"$BENCHBOOT" collect "$T/disk.img" -o "$T/out" >"$T/c2.out" 2>&1 || fail "second collect failed"
expect_grep "^0 boots collected (0 incomplete), 2 already there" "$T/c2.out"
expect_eq "disk after collect" "$(sha256sum <"$T/disk.img")" "$sha_before"

# the disk id is the marker's; debugfs agrees with what we read
id=$(grep -o '[0-9a-f]\{32\}' "$T/mkdisk.out")
expect_grep "^source=disk $id" "$T/out/0002-b00t2/.collect"
expect_eq "marker" "$(debugfs -R 'cat /benchboot-disk' "$T/disk.img" 2>/dev/null)" "benchboot-results-disk 1
id=$id"
echo "round trip ok"
