# A short libFuzzer run (clang, in Debian) of what collect reads: disk images (libext2fs +
# lib/results/resdisk + lib/host/collect) and console logs (lib/results/consfile), seeded with a real results
# disk and a real console log. BB_FUZZ_SECONDS sets the time (default 20).
. tests/lib.sh
. tests/host/src/results-common.sh
command -v clang >/dev/null || skip "clang not installed"
# whether this clang can build a libFuzzer target at all (a skip), apart from whether
# benchboot's code builds as one (a failure)
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$T/probe.c"
clang -fsanitize=fuzzer -o "$T/probe" "$T/probe.c" 2>"$T/probe.err" ||
	{ cat "$T/probe.err"; fail "clang cannot build a libFuzzer target here (tools/scripts/install-deps installs libclang-rt-14-dev)"; }
# the target and the library under it, instrumented, as the Makefile builds them
make -s B="$B" "$B/tests/progs/fuzz-collect" >"$T/cc.err" 2>&1 ||
	{ cat "$T/cc.err"; fail "the collect fuzz target does not build"; }
cp "$B/tests/progs/fuzz-collect" "$T/fuzz"
build_writer
# seeds: a small results disk with one boot, and the console log of a boot
mkdir -p "$T/seeds" "$T/corpus" "$T/local" "$T/local2" "$T/root2/sys/class/block"
truncate -s 192K "$T/small.img"
mke2fs -q -F -t ext4 -b 1024 -N 32 -O ^has_journal,^resize_inode -L BENCHBOOT "$T/small.img" ||
	fail "mke2fs of the seed"
printf 'benchboot-results-disk 1\nid=%s\n' 0123456789abcdef0123456789abcdef >"$T/marker"
debugfs -w -R "write $T/marker benchboot-disk" "$T/small.img" >/dev/null 2>&1
debugfs -w -R "mkdir boots" "$T/small.img" >/dev/null 2>&1
fake_disk "$T/root" vda "$T/small.img"
make_stage "$T/s1" r1 1 3000
"$T/writer" "$T/root" seed "$T/local" "$T/s1" >/dev/null 2>&1 || fail "writer"
e2fsck -fn "$T/small.img" >/dev/null 2>&1 || fail "seed disk not clean"
{ printf '\0'; cat "$T/small.img"; } >"$T/seeds/disk"
"$T/writer" "$T/root2" seed "$T/local2" "$T/s1" >"$T/console.log" 2>&1 || fail "writer"
{ printf '\1'; cat "$T/console.log"; } >"$T/seeds/console"
secs=${BB_FUZZ_SECONDS:-20}
(cd "$T" && ./fuzz -max_total_time="$secs" -max_len=200000 -rss_limit_mb=1024 -print_final_stats=1 \
	corpus seeds) >"$T/fuzz.log" 2>&1 || { tail -40 "$T/fuzz.log"; fail "the fuzzer found a crash"; }
grep -E "^stat::number_of_executed_units|^Done" "$T/fuzz.log" || true
echo "fuzz ok"
