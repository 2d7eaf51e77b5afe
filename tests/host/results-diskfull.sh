# Disk full: on a tiny results disk the writer's sync fails with -ENOSPC (reported), the files
# of the earlier run are intact, the disk is clean (e2fsck -fn) and collect gets the earlier
# run, with the boot marked complete only if `done` could be written.
. tests/lib.sh
. tests/host/src/results-common.sh
build_writer
"$BENCHBOOT" mkdisk "$T/tiny.img" --size 2M >/dev/null || fail "mkdisk"
fake_disk "$T/root" vda "$T/tiny.img"
make_stage "$T/s1" small 1 20000
make_stage "$T/s2" big 2 $((3 << 20))
mkdir -p "$T/local"
"$T/writer" "$T/root" full1 "$T/local" "$T/s1" "$T/s2" >"$T/w.out" 2>&1 || fail "writer crashed"
cat "$T/w.out"
expect_grep "open=0 bootdir=0001-full1" "$T/w.out"
[ "$(sed -n 's/^sync=//p' "$T/w.out" | sed -n 1p)" = 0 ] || fail "first sync failed"
[ "$(sed -n 's/^sync=//p' "$T/w.out" | tail -1)" = -28 ] || fail "second sync did not report ENOSPC"
expect_grep "writing 0001-full1/runs/big/1/client.0.out failed: No space left on device" "$T/w.out"
e2fsck -fn "$T/tiny.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck -fn after disk full"; }
rc=0
"$BENCHBOOT" collect "$T/tiny.img" -o "$T/out" >"$T/c.out" 2>&1 || rc=$?
cat "$T/c.out"
[ $rc = 0 ] || [ $rc = 1 ] || fail "collect failed ($rc)"
for f in runs/small/1/client.0.out runs/small/1/status runs/small/results.json; do
	cmp "$T/s1/$f" "$T/out/0001-full1/$f" || fail "$f of the earlier run damaged"
done
[ ! -e "$T/out/0001-full1/runs/big/1/client.0.out" ] || fail "a partial file was collected"
echo "disk full ok"
