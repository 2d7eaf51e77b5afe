# benchboot build refuses bad input with exit 100 and a message that names the problem, and
# writes nothing: paths escaping the image, colliding paths, a missing library, an unknown
# module (with a suggestion), bad options.
. tests/lib.sh
bb_need sysroot netperf
echo one >"$T/one"
echo two >"$T/two"

# expect_bad WHAT MESSAGE-REGEX ARGS...: exit 100, the message on stderr, no output directory
expect_bad() {
	local what=$1 msg=$2 rc=0
	shift 2
	rm -rf "$T/out"
	"$BENCHBOOT" build -o "$T/out" --no-init "$@" >"$T/stdout" 2>"$T/stderr" || rc=$?
	cat "$T/stderr"
	expect_eq "$what: exit code" "$rc" 100
	grep -q -e "$msg" "$T/stderr" || fail "$what: '$msg' not in: $(cat "$T/stderr")"
	[ ! -e "$T/out" ] || fail "$what: something was written to $T/out"
}

expect_bad "dotdot escape" "image path '../../etc/evil' (from --file $T/one) is empty or escapes the image root" \
	--name x --file "$T/one:../../etc/evil"
expect_bad "dotdot escape inside" "escapes the image root" --name x --file "$T/one:/usr/../../evil"
mkdir -p "$T/tree"
ln -s ../../../etc/passwd "$T/tree/evil"
expect_bad "symlink escape" "symlink /opt/evil -> ../../../etc/passwd (from --file $T/tree) points outside the image root" \
	--name x --file "$T/tree:/opt"
expect_bad "duplicate path" "duplicate path /etc/x with different content (from --file $T/one and from --file $T/two)" \
	--name x --file "$T/one:/etc/x" --file "$T/two:/etc/x"
expect_bad "file vs directory" "/etc/hosts/x (from --file $T/two) is inside /etc/hosts, which is a file" \
	--name x --file "$T/two:/etc/hosts/x"
expect_bad "unknown module" "unknown module 'sctpp' for kernel .*; did you mean sctp" \
	--name x --module sctpp
expect_bad "no binary" "--binary /usr/bin/no-such-tool: no such file in the sysroot" \
	--name x --binary /usr/bin/no-such-tool
expect_bad "no name" "--name NAME is required"
expect_bad "bad name" "image name 'a/b' must be made of" --name a/b
expect_bad "bad compression" "--compress bz2: expected gzip, zstd or none" --name x --compress bz2
expect_bad "unknown option" "unknown option --frobnicate" --name x --frobnicate
expect_bad "file without dest" "--file $T/one: expected SRC:DEST" --name x --file "$T/one"
expect_bad "bad early cpio" "early cpio $T/one is not an uncompressed newc" --name x --early-cpio "$T/one"
expect_bad "not a sysroot" "sysroot $T/nothing is not a directory" --name x --sysroot "$T/nothing"
SOURCE_DATE_EPOCH=yesterday expect_bad "bad SOURCE_DATE_EPOCH" "SOURCE_DATE_EPOCH='yesterday' is not a number" --name x

mkdir -p "$T/mods/lib/modules/6.1.0-99-amd64/kernel"
expect_bad "modules of another release" "kernel .* is release 6.1.0-.* but the modules directory $T/mods/lib/modules/6.1.0-99-amd64 is for 6.1.0-99-amd64" \
	--name x --module sctp --modules-dir "$T/mods/lib/modules/6.1.0-99-amd64"

# a sysroot without libsctp: netperf cannot be closed
fake=$T/fake
mkdir -p "$fake/lib/x86_64-linux-gnu" "$fake/lib64" "$fake/boot"
glibc=$(bb_sysroot_glibc)
cp "$glibc"/{libc.so.6,libm.so.6,ld-linux-x86-64.so.2} "$fake/lib/x86_64-linux-gnu/"
ln -s /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$fake/lib64/"
ln -s "$(ls "$SYSROOT"/boot/vmlinuz-*)" "$fake/boot/"
expect_bad "missing library" "library libsctp.so.1 needed by /usr/bin/netperf not found in $fake" \
	--name x --sysroot "$fake" --binary "$B/netperf/netperf"
# ... and the same sysroot is fine for a binary it can close
"$BENCHBOOT" build -o "$T/out" --no-init --name ok --sysroot "$fake" --file "$T/one:/etc/one" >/dev/null ||
	fail "the fake sysroot cannot build a plain image"
[ -s "$T/out/ok/initrd.img" ] || fail "no image from the fake sysroot"

# an output folder that cannot be made where the user put it (under a file: ENOTDIR) is bad
# input, 100, as docs/architecture.md's list of errnos says
rc=0
"$BENCHBOOT" build -o "$T/one/sub" --no-init --name x >/dev/null 2>"$T/stderr" || rc=$?
expect_eq "unwritable output: exit code" "$rc" 100
grep -q "benchboot build: fatal: unable to build image x: unable to create $T/one/sub/x" "$T/stderr" ||
	fail "unexpected message: $(cat "$T/stderr")"
echo ok
