# Build time and size of `benchboot build` for one typical image (modules sctp, virtio_blk,
# virtio_net, ext4, dummy; netperf + netserver; BusyBox) against the classic pipeline on the
# same tree: `find . | sort | cpio -o -H newc --reproducible | gzip -n`. The tree is our
# image extracted (device nodes need root: without it they are left out of both sides).
# dracut is not installed here, so it is not measured. Medians of 5 runs, printed as ratios.
. tests/lib.sh
[ -e "$SYSROOT/.complete" ] || skip "sysroot missing (make fetch)"
[ -x "$B/netperf/netperf" ] || skip "netperf not built (make netperf)"
runs=5
args=(--busybox --module sctp --module virtio_blk --module virtio_net --module ext4
	--module dummy --binary "$B/netperf/netperf" --binary "$B/netperf/netserver" --no-init)

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# warm the depmod cache and the page cache once, then measure
"$BENCHBOOT" build --name warm -o "$T/out" "${args[@]}" >/dev/null
: >"$T/ours"
for i in $(seq $runs); do
	s=$(now)
	"$BENCHBOOT" build --name "b$i" -o "$T/out" "${args[@]}" >/dev/null
	echo "$(now) - $s" | bc >>"$T/ours"
done
cmp "$T/out/b1/initrd.img" "$T/out/b$runs/initrd.img" || fail "the builds differ"
ours_t=$(median <"$T/ours")
ours_s=$(stat -c %s "$T/out/b1/initrd.img")

tree=$T/tree
mkdir "$tree"
nodev=()
[ "$(id -u)" = 0 ] || nodev=(--nonmatching 'dev/*')
(cd "$tree" && gzip -dc "$T/out/b1/initrd.img" | cpio -idm --quiet "${nodev[@]+"${nodev[@]}"}")
: >"$T/gnu"
for i in $(seq $runs); do
	s=$(now)
	(cd "$tree" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --reproducible --quiet |
		gzip -n >"$T/gnu.img")
	echo "$(now) - $s" | bc >>"$T/gnu"
done
gnu_t=$(median <"$T/gnu")
gnu_s=$(stat -c %s "$T/gnu.img")
# a cold build: the depmod staging cache empty (what the first build of a kernel costs)
s=$(now)
BENCHBOOT_CACHE=$T/cold "$BENCHBOOT" build --name cold -o "$T/out" "${args[@]}" >/dev/null
cold_t=$(echo "$(now) - $s" | bc)

entries=$(gzip -dc "$T/out/b1/initrd.img" | cpio -it --quiet | wc -l)
printf 'image: %s entries, %s modules' "$entries" "$(grep -c . "$tree/etc/benchboot/modules.order")"
printf ', cpio %s bytes\n' "$(gzip -dc "$T/out/b1/initrd.img" | wc -c)"
printf 'benchboot build (gzip -6):        %6.3f s  %9d bytes\n' "$ours_t" "$ours_s"
printf 'benchboot build, cold depmod:     %6.3f s\n' "$cold_t"
printf 'find|sort|cpio|gzip -n, same tree:%6.3f s  %9d bytes\n' "$gnu_t" "$gnu_s"
printf 'ratio time (ours/gnu): %.2f   ratio size (ours/gnu): %.3f\n' \
	"$(echo "$ours_t / $gnu_t" | bc -l)" "$(echo "$ours_s / $gnu_s" | bc -l)"
echo "(the GNU pipeline only archives a finished tree; benchboot also resolves the ELF and"
echo " module closures, reads the sysroot and writes the manifest)"
