# make demo's script on the pinned kernel: it runs, and ends with the comparison of
# prsctp_enable 0 and 1 (an environment section, a run block, the summary line).
. tests/lib.sh
bb_need init netperf qemu
rc=0
bb_timeout 1200 tools/scripts/demo "$T/demo" >"$T/demo.out" 2>&1 || rc=$?
cat "$T/demo.out"
expect_eq "demo exit code" $rc 0
expect_grep "^== benchboot compare" "$T/demo.out"
expect_grep "^A: prsctp_enable=0 (1 boot)" "$T/demo.out"
expect_grep "^run .*test=SCTP_STREAM_MANY" "$T/demo.out"
expect_grep "A: 1 run in 1 boot, prsctp_enable=0   B: 1 run in 1 boot, prsctp_enable=1" "$T/demo.out"
expect_grep "sysctl.net.sctp.prsctp_enable.actual: 0 | 1" "$T/demo.out"
expect_grep "^[0-9]* significant change" "$T/demo.out"
# --all: the table shows the throughput stats of both sides
expect_grep "netperf.Throughput_total_Mbps" "$T/demo.out"
# the 95% interval of the %change: one boot a side, so over its iterations only, in ( ), and
# the table says that boot-to-boot variance is unknown
expect_grep "boot-to-boot variance unknown (1 boot a side)" "$T/demo.out"
expect_grep "%change .*95% interval" "$T/demo.out"
expect_grep "[-+]\?[0-9.]*% .*([-0-9.]*, [-0-9.]*) .*netperf.Throughput_Mbps$" "$T/demo.out"
