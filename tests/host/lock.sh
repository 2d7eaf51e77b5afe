# The lock pins every outside input by name, version, size and sha256; the repository names
# no mirror host.
. tests/lib.sh
lock=config/inputs.lock
bad=$(grep -v '^#' "$lock" | awk 'NF != 6 || length($5) != 64 || $5 !~ /^[0-9a-f]+$/ || $4 !~ /^[0-9]+$/ || ($1 != "deb" && $1 != "src" && $1 != "opt")' | head -n3)
[ -z "$bad" ] || fail "malformed lock lines: $bad"
expect_eq "kernel packages" "$(grep -c '^deb linux-image-6\.1\.0-[0-9]*-amd64 ' $lock)" 1
for p in busybox-static stress-ng libc6 libsctp1; do
	grep -q "^deb $p " $lock || fail "$p missing from the lock"
done
grep -q '^src netperf 2\.7\.0+git20210121\.3bc455b+ds-.* 2c2be1aa92dcf6cc46b1e4a7d10a61d8a6863657c5fc97341373f283b1ae57c2 ' $lock ||
	fail "netperf source with SCTP (Debian 13) not pinned at the known orig sha256"
grep -q '^src e2fsprogs 1\.47\.0-' $lock || fail "e2fsprogs 1.47.0 source not pinned"
. tools/scripts/apt-private.sh
if host=$(bb_mirror_uri | sed -E 's#^[a-z]+://([^/:]+).*#\1#'); then
	if git grep -qi -F "$host" -- . 2>/dev/null; then fail "the repository names the mirror host"; fi
fi
! git grep -qi 'deb\.debian\.org\|snapshot\.debian' -- . ':!tests/host/lock.sh' || fail "a Debian mirror host is written in the repository"
grep -q '^opt linux-source-[0-9]*\.[0-9]* ' $lock || fail "the kernel source (linux-source) is not pinned as an optional input"
kver=$(awk '$1 == "deb" && $2 ~ /^linux-image-/ { print $3 }' $lock)
expect_eq "linux-source is the kernel under test's version" "$(awk '$1 == "opt" && $2 ~ /^linux-source-/ { print $3 }' $lock)" "$kver"
