# benchboot build JOB.yaml: only what the job uses goes in the image. The SCTP job's image has
# the sctp module chain, netperf and netserver with libsctp; the stress-ng job's has stress-ng
# and no sctp, no netperf; a job with two boot groups gives two images whose plans are the
# ones `benchboot check --plans` writes.
. tests/lib.sh
bb_need sysroot netperf
manifest_has() { grep -q " $2\$" "$1" || fail "$2 not in $1"; }
manifest_lacks() { ! grep -q "$2" "$1" || fail "$2 in $1: $(grep "$2" "$1" | head -3)"; }

"$BENCHBOOT" build -o "$T/img" config/jobs/netperf-sctp.yaml >"$T/out"
expect_grep "^$T/img/netperf-sctp: image id " "$T/out"
m="$T/img/netperf-sctp/manifest"
kver=$(basename "$(ls -d "$SYSROOT"/lib/modules/*)")
for ko in net/sctp/sctp.ko net/ipv4/udp_tunnel.ko net/ipv6/ip6_udp_tunnel.ko lib/libcrc32c.ko \
	crypto/crc32c_generic.ko drivers/net/dummy.ko; do
	manifest_has "$m" "/lib/modules/$kver/kernel/$ko"
done
manifest_has "$m" /usr/bin/netperf
manifest_has "$m" /usr/bin/netserver
manifest_has "$m" /etc/benchboot/plan
grep -q "/libsctp.so.1" "$m" || fail "libsctp.so.1 not in $m"
manifest_lacks "$m" stress-ng
"$BENCHBOOT" check --plans "$T/plans" config/jobs/netperf-sctp.yaml >/dev/null
want=$(sha256sum <"$T/plans/plan.0" | cut -d' ' -f1)
expect_grep "^100644 [0-9]* $want /etc/benchboot/plan$" "$m"

"$BENCHBOOT" build -o "$T/img" config/jobs/stress-ng-icmp-flood-short.yaml >"$T/out"
m="$T/img/stress-ng-icmp-flood-short/manifest"
manifest_has "$m" /usr/bin/stress-ng
manifest_lacks "$m" "/sctp.ko"   # (stress-ng itself links libsctp.so.1: that stays)
manifest_lacks "$m" "\.ko$"
manifest_lacks "$m" netperf
manifest_lacks "$m" netserver

"$BENCHBOOT" build -o "$T/img" config/jobs/netperf-cgroup.yaml >"$T/out"
"$BENCHBOOT" check --plans "$T/cg" config/jobs/netperf-cgroup.yaml >/dev/null
for n in 0 1; do
	m="$T/img/netperf-cgroup.boot$n/manifest"
	[ -f "$m" ] || fail "no image netperf-cgroup.boot$n"
	want=$(sha256sum <"$T/cg/plan.$n" | cut -d' ' -f1)
	expect_grep "^100644 [0-9]* $want /etc/benchboot/plan$" "$m"
done
[ ! -e "$T/img/netperf-cgroup" ] || fail "a two-boot job also made images/netperf-cgroup"

# kernel_cmdline reaches the image's cmdline; a bad job is exit 100 before any build
printf 'suite: stress-ng\nkernel_cmdline: mitigations=off\nstress-ng:\n  test: cpu\n' >"$T/k.yaml"
"$BENCHBOOT" build -o "$T/img" "$T/k.yaml" >/dev/null
expect_eq "cmdline" "$(cat "$T/img/k/cmdline")" "console=ttyS0 panic=-1 mitigations=off"
printf 'suite: stress-ng\nstress-ng:\n  test: cpu\n  cpu-methd: fft\n' >"$T/bad.yaml"
set +e
"$BENCHBOOT" build -o "$T/img" "$T/bad.yaml" 2>"$T/err"
rc=$?
set -e
expect_eq "exit code of a bad job" "$rc" 100
expect_grep "bad.yaml:4:3: unknown key 'cpu-methd' in 'stress-ng:'" "$T/err"
[ ! -e "$T/img/bad" ] || fail "an image was built for a bad job"
