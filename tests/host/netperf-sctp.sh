# netperf is built from the pinned Debian 13 source with SCTP: SCTP_STREAM_MANY is a known test,
# and the binary needs only the libraries the sysroot provides.
. tests/lib.sh
np="$B/netperf/netperf"
[ -x "$np" ] || fail "$np not built (make netperf)"
out=$("$np" -t SCTP_STREAM_MANY -H 127.0.0.1 -p 1 -l 1 2>&1 || true)
case "$out" in *"unknown"* | *"invalid"*) fail "netperf does not know SCTP_STREAM_MANY: $out" ;; esac
out=$("$np" -t NO_SUCH_TEST -H 127.0.0.1 -p 1 -l 1 2>&1 || true)
echo "$out" | contains -i 'unknown\|invalid\|not' || fail "an unknown test is not reported, so the check above proves nothing: $out"
for lib in $(readelf -d "$np" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
	[ -e "$SYSROOT/lib/x86_64-linux-gnu/$lib" ] || [ -e "$SYSROOT/usr/lib/x86_64-linux-gnu/$lib" ] ||
		fail "netperf needs $lib, which the sysroot does not have"
done
readelf -d "$np" | contains 'libsctp.so.1' || fail "netperf is not linked with libsctp"
