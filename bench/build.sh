# Build time and size of `benchboot build` for one typical image (modules sctp, virtio_blk,
# virtio_net, ext4, dummy; netperf + netserver; BusyBox) against the classic pipeline on the
# same tree: `find . | sort | cpio -o -H newc --reproducible | gzip -n`. The tree is our
# image extracted (device nodes need root: without it they are left out of both sides).
# And against dracut (Debian's dracut-core, installed here when missing and root) with
# --reproducible, the same modules and binaries. Medians of 5 runs (3 for dracut), as ratios.
. tests/lib.sh
[ -e "$SYSROOT/.complete" ] || skip "sysroot missing (make fetch)"
[ -x "$B/netperf/netperf" ] || skip "netperf not built (make netperf)"
runs=5
args=(--busybox --module sctp --module virtio_blk --module virtio_net --module ext4
	--module dummy --binary "$B/netperf/netperf" --binary "$B/netperf/netserver" --no-init)

# timed OUTFILE CMD...: append "wall cpu" (cpu = user + sys of CMD and its children)
timed() {
	local f=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$T/time" "$@"
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$T/time" >>"$f"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# warm the depmod cache and the page cache once, then measure
"$BENCHBOOT" build --name warm -o "$T/out" "${args[@]}" >/dev/null
: >"$T/ours"
for i in $(seq $runs); do
	timed "$T/ours" "$BENCHBOOT" build --name "b$i" -o "$T/out" "${args[@]}" >/dev/null
done
cmp "$T/out/b1/initrd.img" "$T/out/b$runs/initrd.img" || fail "the builds differ"
ours_t=$(cut -d' ' -f1 "$T/ours" | median)
ours_c=$(cut -d' ' -f2 "$T/ours" | median)
ours_s=$(stat -c %s "$T/out/b1/initrd.img")

tree=$T/tree
mkdir "$tree"
nodev=()
[ "$(id -u)" = 0 ] || nodev=(--nonmatching 'dev/*')
(cd "$tree" && gzip -dc "$T/out/b1/initrd.img" | cpio -idm --quiet "${nodev[@]+"${nodev[@]}"}")
: >"$T/gnu"
for i in $(seq $runs); do
	timed "$T/gnu" bash -c "cd '$tree' && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --reproducible --quiet | gzip -n >'$T/gnu.img'"
done
gnu_t=$(cut -d' ' -f1 "$T/gnu" | median)
gnu_c=$(cut -d' ' -f2 "$T/gnu" | median)
gnu_s=$(stat -c %s "$T/gnu.img")
# a cold build: the depmod staging cache empty (what the first build of a kernel costs)
timed "$T/cold" env BENCHBOOT_CACHE="$T/cold.cache" "$BENCHBOOT" build --name cold -o "$T/out" \
	"${args[@]}" >/dev/null
cold_t=$(cut -d' ' -f1 "$T/cold")
cold_c=$(cut -d' ' -f2 "$T/cold")

entries=$(gzip -dc "$T/out/b1/initrd.img" | cpio -it --quiet | wc -l)
printf 'image: %s entries, %s modules' "$entries" "$(grep -c . "$tree/etc/benchboot/modules.order")"
printf ', cpio %s bytes\n' "$(gzip -dc "$T/out/b1/initrd.img" | wc -c)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (wall times suffer from it)"
printf '%-36s %7s %7s %10s\n' "" "wall s" "cpu s" "bytes"
printf '%-36s %7.2f %7.2f %10d\n' "benchboot build (gzip -6)" "$ours_t" "$ours_c" "$ours_s"
printf '%-36s %7.2f %7.2f\n' "benchboot build, empty depmod cache" "$cold_t" "$cold_c"
printf '%-36s %7.2f %7.2f %10d\n' "find|sort|cpio|gzip -n, same tree" "$gnu_t" "$gnu_c" "$gnu_s"
printf 'ratios ours/gnu: wall %.2f, cpu %.2f, size %.3f\n' "$(echo "$ours_t / $gnu_t" | bc -l)" \
	"$(echo "$ours_c / $gnu_c" | bc -l)" "$(echo "$ours_s / $gnu_s" | bc -l)"
echo "(the GNU pipeline only archives a finished tree; benchboot also resolves the ELF and"
echo " module closures, reads the sysroot and writes the manifest)"

# dracut: the same kernel modules (from a depmod'ed copy of the sysroot's, as dracut needs
# modules.dep), netperf, netserver and BusyBox; its own base module; gzip -n.
if ! command -v dracut >/dev/null && [ "$(id -u)" = 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends dracut-core \
		>"$T/dracut-install.log" 2>&1 || true
fi
if ! command -v dracut >/dev/null; then
	echo "dracut: not measured (dracut-core is not installed and could not be: apt-get install dracut-core)"
	exit 0
fi
kver=$(basename "$(ls -d "$SYSROOT"/lib/modules/* | head -n1)")
mkdir -p "$T/dracut/lib/modules"
cp -r "$SYSROOT/lib/modules/$kver" "$T/dracut/lib/modules/"
depmod -b "$T/dracut" "$kver"
dracut_args=(--reproducible --no-hostonly --no-early-microcode --kver "$kver"
	--kmoddir "$T/dracut/lib/modules/$kver" -m base --compress "gzip -n"
	--add-drivers "sctp virtio_blk virtio_net ext4 dummy"
	--install "$BB_TOP/$B/netperf/netperf $BB_TOP/$B/netperf/netserver $SYSROOT/bin/busybox" --force)
: >"$T/dracut.times"
for i in 1 2 3; do
	SOURCE_DATE_EPOCH=0 timed "$T/dracut.times" dracut "${dracut_args[@]}" "$T/dracut$i.img" >"$T/dracut.log" 2>&1 ||
		{ tail -5 "$T/dracut.log"; echo "dracut: failed, not measured"; exit 0; }
done
dr_t=$(cut -d' ' -f1 "$T/dracut.times" | median)
dr_c=$(cut -d' ' -f2 "$T/dracut.times" | median)
dr_s=$(stat -c %s "$T/dracut1.img")
cmp -s "$T/dracut1.img" "$T/dracut3.img" && same="identical" || same="differ"
printf '%-36s %7.2f %7.2f %10d  (%s, rebuilds %s)\n' "dracut --reproducible, same content" "$dr_t" "$dr_c" "$dr_s" \
	"$(dracut --version 2>/dev/null | head -n1)" "$same"
printf 'ratios dracut/ours: wall %.1fx, cpu %.1fx, size %.2fx (aim: at least 20x faster)\n' \
	"$(echo "$dr_t / $ours_t" | bc -l)" "$(echo "$dr_c / $ours_c" | bc -l)" "$(echo "$dr_s / $ours_s" | bc -l)"
