# benchboot kernel and benchboot bisect --tree on real builds of the pinned kernel source
# (Debian's linux-source, config/inputs.lock's optional input), with real boots under TCG. A
# throwaway repository of five commits made from that source without touching it (git's
# plumbing: a temporary index, new blobs): c0 the source as it is; c1 forces page table
# isolation on (arch/x86/mm/pti.c: the automatic choice no longer asks the CPU, so TCG's CPU,
# not vulnerable to Meltdown, gets PTI and pays a TLB flush at every system call, the pti=on
# of tests/qemu/bisect.inc as a code change); c2 breaks the build (a syntax error in the
# same file); c3 mends it; c4 adds a comment. (1) `benchboot kernel REPO --commit c0 --job J`
# builds defconfig plus the job's fragment, prints the kernels-file line, keeps the config
# and the build log, and measures the build; again, it is answered from the cache at once.
# (2) c2 fails at step make: exit 1, its log kept and named. (3) bisect --tree c0..c4 names
# c1, skipping c2 (untestable: it does not build). The first build is a whole kernel (about
# 8 min on 2 CPUs here); the others are incremental in the same object folder.
. tests/lib.sh
. tests/qemu/bisect.inc
command -v git >/dev/null || skip "git is missing"
command -v flex >/dev/null && command -v bison >/dev/null ||
	{ [ "${CI:-}" = true ] && fail "flex/bison missing"; skip "flex and bison are missing (tools/scripts/install-deps)"; }
src=$(tools/scripts/kernel-source) || fail "the pinned kernel source could not be fetched"
export BENCHBOOT_CACHE=$T/kcache

# the repository: commits made with plumbing from $src, which stays as it is
repo=$T/repo.git
git init -q --bare "$repo"
export GIT_DIR=$repo GIT_INDEX_FILE=$T/index GIT_AUTHOR_NAME=benchboot GIT_AUTHOR_EMAIL=bb@localhost \
	GIT_COMMITTER_NAME=benchboot GIT_COMMITTER_EMAIL=bb@localhost
(cd "$src" && git --work-tree=. add -A -f) || fail "git add of the kernel source failed"
commit() { # MESSAGE [PARENT]: the index as a commit; prints its hash
	local tree
	tree=$(git write-tree)
	if [ -n "${2:-}" ]; then git commit-tree "$tree" -p "$2" -m "$1"; else git commit-tree "$tree" -m "$1"; fi
}
with_file() { # PATH FILE: the index's PATH now holds FILE's content
	local blob
	blob=$(git hash-object -w "$2")
	git update-index --cacheinfo "100644,$blob,$1"
}
pti=arch/x86/mm/pti.c
c0=$(commit "the pinned source")
sed 's/if (!boot_cpu_has_bug(X86_BUG_CPU_MELTDOWN))/if (0 \&\& !boot_cpu_has_bug(X86_BUG_CPU_MELTDOWN))/' \
	"$src/$pti" >"$T/pti-on.c"
! cmp -s "$src/$pti" "$T/pti-on.c" || fail "the PTI change did not apply to $pti"
with_file $pti "$T/pti-on.c"
c1=$(commit "x86/pti: on whatever the CPU says" "$c0")
{ cat "$T/pti-on.c"; echo "this is not C"; } >"$T/pti-broken.c"
with_file $pti "$T/pti-broken.c"
c2=$(commit "x86/pti: a broken build" "$c1")
with_file $pti "$T/pti-on.c"
c3=$(commit "x86/pti: the build mended" "$c2")
{ cat "$T/pti-on.c"; echo "/* a comment */"; } >"$T/pti-comment.c"
with_file $pti "$T/pti-comment.c"
c4=$(commit "x86/pti: a comment" "$c3")
git update-ref refs/heads/main "$c4"
unset GIT_DIR GIT_INDEX_FILE

# (1) the first build, then the same again
start=$(date +%s)
rc=0
bb_timeout 4800 nice "$BENCHBOOT" kernel "$repo" --commit "$c0" --job "$T/null.yaml" \
	>"$T/k0.out" 2>"$T/k0.err" || rc=$?
took=$(($(date +%s) - start))
[ $rc = 0 ] || { tail -20 "$T/k0.err"; fail "benchboot kernel c0: exit $rc"; }
read -r name vmlinuz modules <"$T/k0.out"
expect_eq "the build's name" "$name" "${c0:0:12}"
[ -s "$vmlinuz" ] || fail "no vmlinuz at $vmlinuz"
[ -e "$modules/modules.dep" ] || fail "no modules.dep in $modules"
dir=$(dirname "$vmlinuz")
for f in config fragment build.log release; do [ -s "$dir/$f" ] || fail "the build kept no $f"; done
grep -qx CONFIG_VIRTIO_BLK=y "$dir/config" || fail "the kept config lacks the fragment's CONFIG_VIRTIO_BLK=y"
grep -qx CONFIG_SERIAL_8250_CONSOLE=y "$dir/config" || fail "the kept config lacks the serial console"
expect_grep "^benchboot kernel: built ${c0:0:12} (6\.1\.[0-9]*-g${c0:0:12}) in [0-9]* s: " "$T/k0.err"
echo "measured: defconfig + the job's fragment, make -j$(nproc) bzImage modules: $took s on $(nproc) CPUs"
start=$(date +%s)
"$BENCHBOOT" kernel "$repo" --commit "${c0:0:12}" --job "$T/null.yaml" >"$T/k0b.out" 2>"$T/k0b.err" ||
	fail "benchboot kernel c0 again: exit $?"
expect_eq "the second build's line" "$(cat "$T/k0b.out")" "$(cat "$T/k0.out")"
expect_grep "is built: " "$T/k0b.err"
[ $(($(date +%s) - start)) -lt 30 ] || fail "the second build of c0 was not answered from the cache"

# (2) a commit that does not build
rc=0
bb_timeout 2400 nice "$BENCHBOOT" kernel "$repo" --commit "$c2" --job "$T/null.yaml" \
	>"$T/k2.out" 2>"$T/k2.err" || rc=$?
expect_eq "benchboot kernel c2 (broken): exit code" "$rc" 1
expect_grep "failed to build at step make after [0-9]* s (log: .*${c2}-[0-9a-f]*\.failed/build\.log)" "$T/k2.err"
log=$(sed -n 's/.*failed to build.*(log: \(.*\))$/\1/p' "$T/k2.err" | sed -n 1p)
grep -q "this is not C" "$log" || grep -q "pti.c" "$log" || fail "the kept log does not show the error"
[ ! -s "$T/k2.out" ] || fail "a failed build printed a kernels line"

# (3) the bisection over the commits
rc=0
bb_timeout 4800 nice "$BENCHBOOT" bisect "$T/null.yaml" --tree "$repo" --good "$c0" --bad "$c4" \
	--accel tcg --images "$T/images" -o "$T/bis" --alpha 0.5 --first-look 3 --max-boots 5 \
	>"$T/bis.out" 2>&1 || rc=$?
[ $rc = 0 ] || { tail -30 "$T/bis.out"; fail "bisect --tree: exit $rc"; }
expect_grep "^bisecting 5 candidates, ${c0:0:12} (good) .. ${c4:0:12} (bad)" "$T/bis.out"
expect_grep "candidate ${c2:0:12} cannot be tested: .*failed to build" "$T/bis.out"
expect_grep "^culprit: ${c1:0:12}$" "$T/bis.out"
expect_grep "^parent:  ${c0:0:12}$" "$T/bis.out"
if pgrep -f -- "$T/images" >/dev/null; then fail "a QEMU is still running"; fi
echo "measured: $(grep -E '^(change D|boots):' "$T/bis.out" | tr '\n' ' ')"

# (4) git drives: bisect-step --tree builds the commit the tree's HEAD is at (cached here)
st=$T/state
rc=0
bb_timeout 2400 nice "$BENCHBOOT" bisect-step "$T/null.yaml" --init --state "$st" --tree "$repo" \
	--good "$c0" --bad "$c4" --accel tcg --images "$T/images" --alpha 0.2 --first-look 3 \
	--max-boots 5 --candidates 5 >"$T/init.out" 2>&1 || rc=$?
[ $rc = 0 ] || { tail -20 "$T/init.out"; fail "bisect-step --init --tree: exit $rc"; }
expect_grep "^D = -[0-9.]*% of stress-ng.null.ops_per_sec recorded in $st/state.json; now: git bisect run benchboot bisect-step --state $st --tree TREE" "$T/init.out"
step() { # COMMIT: bisect-step with the tree's HEAD at COMMIT; prints its exit code
	local rc=0
	git --git-dir="$repo" update-ref --no-deref HEAD "$1"
	bb_timeout 2400 nice "$BENCHBOOT" bisect-step --state "$st" --tree "$repo" >"$T/step-$1.out" 2>&1 || rc=$?
	echo "$rc"
}
expect_eq "a step at the commit that does not build: exit" "$(step "$c2")" 125
expect_grep "^${c2:0:12}: does not build: skip (exit 125)" "$T/step-$c2.out"
expect_eq "a step at the culprit: exit (new)" "$(step "$c1")" 1
expect_grep "^${c1:0:12}: new (exit 1)" "$T/step-$c1.out"
if pgrep -f -- "$T/images" >/dev/null; then fail "a QEMU is still running"; fi
