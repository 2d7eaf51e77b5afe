# benchboot kernel, check --kconfig and bisect --tree before any real build (the real ones:
# tests/slow/kernel-tree.sh): bad usage and bad trees are refused with exit 100 and a message
# that says what is wrong; check --kconfig prints the fragment a job needs and, with a tree,
# the CONFIG symbol of the job's module read from the tree's Makefile; a tree whose make fails
# (a throwaway git repository with a Makefile that fails at defconfig, not a kernel) gives
# exit 1 with the log kept and named, and the same commit's failure is then answered from the
# cache; a bisection range of more than 64 commits is refused, saying how to narrow it.
. tests/lib.sh
command -v git >/dev/null || skip "git is missing"
sctp=$T/sctp.yaml
cat >"$sctp" <<'JOB'
suite: netperf
runtime: 3s
test: SCTP_STREAM
cgroup:
  mode: v2
  controllers: [cpu, memory]
JOB

# usage
rc=0
"$BENCHBOOT" kernel >"$T/u1" 2>&1 || rc=$?
expect_eq "kernel without a tree: exit" "$rc" 100
expect_grep "which kernel tree? benchboot kernel DIR" "$T/u1"
rc=0
"$BENCHBOOT" kernel "$T/nosuch" >"$T/u2" 2>&1 || rc=$?
expect_eq "kernel of a missing folder: exit" "$rc" 100
expect_grep "$T/nosuch: not a folder (a kernel tree)" "$T/u2"
mkdir -p "$T/empty"
rc=0
"$BENCHBOOT" kernel "$T/empty" >"$T/u3" 2>&1 || rc=$?
expect_eq "kernel of a folder without a Makefile: exit" "$rc" 100
expect_grep "has no Makefile: not a kernel tree" "$T/u3"
rc=0
"$BENCHBOOT" kernel "$T/empty" --commit HEAD >"$T/u4" 2>&1 || rc=$?
expect_eq "kernel --commit outside git: exit" "$rc" 100
expect_grep "is not a git repository .*--commit needs one" "$T/u4"
rc=0
"$BENCHBOOT" kernel "$T/empty" --set runtime=1s >"$T/u5" 2>&1 || rc=$?
expect_eq "kernel --set without --job: exit" "$rc" 100
rc=0
"$BENCHBOOT" check "$sctp" --tree "$T/empty" >"$T/u6" 2>&1 || rc=$?
expect_eq "check --tree without --kconfig: exit" "$rc" 100

# check --kconfig: the job's needs, then its module resolved in a tree
"$BENCHBOOT" check --kconfig "$sctp" >"$T/frag" || fail "check --kconfig: exit $?"
for l in CONFIG_VIRTIO_BLK=y CONFIG_SERIAL_8250_CONSOLE=y CONFIG_BLK_DEV_INITRD=y CONFIG_CGROUPS=y \
	CONFIG_CGROUP_SCHED=y CONFIG_MEMCG=y; do
	grep -qx "$l" "$T/frag" || fail "check --kconfig lacks $l"
done
expect_grep "^# the job's modules: .*sctp" "$T/frag"
tree=$T/linux
mkdir -p "$tree/net/sctp" "$tree/drivers/net"
echo 'obj-y += net/' >"$tree/Makefile"
printf 'obj-$(CONFIG_IP_SCTP) += sctp.o\n' >"$tree/net/sctp/Makefile"
printf 'menuconfig IP_SCTP\n\ttristate "SCTP"\n' >"$tree/net/sctp/Kconfig"
printf 'obj-$(CONFIG_DUMMY) += dummy.o\n' >"$tree/drivers/net/Makefile"
"$BENCHBOOT" check --kconfig --tree "$tree" "$sctp" >"$T/frag2" || fail "check --kconfig --tree: exit $?"
expect_grep "^# the job's module sctp (net/sctp/Makefile)$" "$T/frag2"
grep -qx CONFIG_IP_SCTP=m "$T/frag2" || fail "check --kconfig --tree did not resolve sctp to CONFIG_IP_SCTP=m"
# a tree that does not build the job's module: the fragment says so, and a warning on stderr
rm "$tree/net/sctp/Makefile"
"$BENCHBOOT" check --kconfig --tree "$tree" "$sctp" >"$T/frag3" 2>"$T/frag3.err" || fail "check --kconfig, sctp not in the tree: exit $?"
expect_grep "^benchboot check: warning: the job's module sctp: no Makefile of $tree builds sctp.o under a CONFIG symbol: set it in --config$" "$T/frag3.err"

# a tree whose build fails: exit 1, the log kept, the failure remembered for that commit
repo=$T/failing
mkdir -p "$repo"
printf 'defconfig:\n\t@echo "no defconfig in this tree"; exit 1\n' >"$repo/Makefile"
git -C "$repo" init -q
git -C "$repo" -c user.name=bb -c user.email=bb@localhost add Makefile
git -C "$repo" -c user.name=bb -c user.email=bb@localhost commit -qm "a tree that does not build"
export BENCHBOOT_CACHE=$T/cache
rc=0
"$BENCHBOOT" kernel "$repo" --commit HEAD >"$T/f1.out" 2>"$T/f1.err" || rc=$?
expect_eq "a failing build: exit" "$rc" 1
expect_grep "failed to build at step defconfig after [0-9]* s (log: $T/cache/kernels/builds/[0-9a-f]*-[0-9a-f]*\.failed/build\.log)" "$T/f1.err"
log=$(sed -n 's/.*(log: \(.*\)).*/\1/p' "$T/f1.err")
expect_grep "no defconfig in this tree" "$log"
[ ! -s "$T/f1.out" ] || fail "a failed build printed a kernels line: $(cat "$T/f1.out")"
rc=0
"$BENCHBOOT" kernel "$repo" --commit HEAD >"$T/f2.out" 2>"$T/f2.err" || rc=$?
expect_eq "the same commit again: exit" "$rc" 1
expect_grep "failed to build at step defconfig before (log: .*; remove .* to try again)" "$T/f2.err"
rc=0
"$BENCHBOOT" kernel "$repo" --commit nosuch >"$T/f3.out" 2>"$T/f3.err" || rc=$?
expect_eq "an unknown commit: exit" "$rc" 100
expect_grep "no commit 'nosuch' in this git tree" "$T/f3.err"

# bisect --tree: usage and ranges
rc=0
"$BENCHBOOT" bisect "$sctp" --tree "$repo" --good HEAD >"$T/b1" 2>&1 || rc=$?
expect_eq "bisect --tree without --bad: exit" "$rc" 100
expect_grep "needs --good C1 and --bad C2" "$T/b1"
rc=0
"$BENCHBOOT" bisect "$sctp" --kernels "$T/nosuch" --good HEAD >"$T/b2" 2>&1 || rc=$?
expect_eq "bisect --good without --tree: exit" "$rc" 100
for i in $(seq 1 65); do
	git -C "$repo" -c user.name=bb -c user.email=bb@localhost commit -q --allow-empty -m "commit $i"
done
rc=0
"$BENCHBOOT" bisect "$sctp" --tree "$repo" --good HEAD~65 --bad HEAD -o "$T/bis" >"$T/b3" 2>&1 || rc=$?
expect_eq "bisect over 65 commits: exit" "$rc" 100
expect_grep "holds 65 first-parent commits, at most 63 candidates: narrow the range" "$T/b3"
rc=0
"$BENCHBOOT" bisect "$sctp" --tree "$repo" --good HEAD --bad HEAD~3 -o "$T/bis" >"$T/b4" 2>&1 || rc=$?
expect_eq "bisect with the ends swapped: exit" "$rc" 100
expect_grep "is not an ancestor of --bad" "$T/b4"
rc=0
"$BENCHBOOT" bisect "$sctp" --tree "$T/empty" --good a --bad b -o "$T/bis" >"$T/b5" 2>&1 || rc=$?
expect_eq "bisect --tree of a folder outside git: exit" "$rc" 100
expect_grep "not a git repository" "$T/b5"
