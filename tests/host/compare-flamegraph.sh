# compare --flamegraph: a differential flame graph of both sides' perf-profile call stacks,
# opened the way a user would: rendered by a real SVG renderer (rsvg-convert, librsvg) to PNG,
# which must not be blank and must show red (more of B's samples) and blue (fewer) frames; the
# SVG is well-formed XML (xmllint) and names every frame in a <title> with its numbers and as
# text a browser's find hits. Refused when the sides sampled different events; a malformed
# line is named by file and line.
. tests/lib.sh
bb_need rsvg-convert xmllint
K=tests/fixtures/results/kernels
cp -r $K/A $K/B "$T/"
# A: plain files; B: gzip-compressed as collect writes them (monitor.perf-profile.folded.gz)
for d in "$T"/A/*/runs/*/[0-9]; do
	cat >"$d/monitor.perf-profile.folded" <<'F'
# event: cpu-clock
netperf;entry_SYSCALL_64_[k];do_syscall_64_[k];__sys_sendmsg_[k];sctp_sendmsg_[k];sctp_datamsg_from_user_[k] 400
netperf;entry_SYSCALL_64_[k];do_syscall_64_[k];__sys_sendmsg_[k];sctp_sendmsg_[k];copy_user_generic_[k] 300
netperf;entry_SYSCALL_64_[k];do_syscall_64_[k];__sys_recvmsg_[k];sctp_recvmsg_[k] 200
swapper;cpu_startup_entry_[k];default_idle_[k] 100
F
done
for d in "$T"/B/*/runs/*/[0-9]; do
	cat >"$d/monitor.perf-profile.folded" <<'F'
# event: cpu-clock
netperf;entry_SYSCALL_64_[k];do_syscall_64_[k];__sys_sendmsg_[k];sctp_sendmsg_[k];sctp_datamsg_from_user_[k] 700
netperf;entry_SYSCALL_64_[k];do_syscall_64_[k];__sys_sendmsg_[k];sctp_sendmsg_[k];copy_user_generic_[k] 300
netperf;entry_SYSCALL_64_[k];do_syscall_64_[k];__sys_recvmsg_[k];sctp_recvmsg_[k] 100
swapper;cpu_startup_entry_[k];default_idle_[k] 100
netperf;[unknown];memcpy_<&> 50
F
	gzip -n "$d/monitor.perf-profile.folded"
done
set +e
"$BENCHBOOT" compare "$T/A" "$T/B" --flamegraph "$T/fg.svg" >"$T/out" 2>"$T/err"
rc=$?
set -e
expect_eq "compare --flamegraph exit (the table's changes)" $rc 1
expect_grep "netperf.Throughput_Mbps" "$T/out"
[ -s "$T/fg.svg" ] || fail "no flame graph written"
xmllint --noout "$T/fg.svg" || fail "the flame graph is not well-formed XML"
n=$(xmllint --xpath "count(//*[local-name()='g'][@class='f']/*[local-name()='title'])" "$T/fg.svg")
[ "$n" -ge 14 ] || fail "$n frames with a <title>, want 14 (all, netperf, swapper and their callees)"
# 6 iterations a side: sctp_datamsg_from_user 2400 of A's 6000 samples (40%), 4200 of B's 7500
# (56%); the name with <&> escaped, and the frames as text a browser's find hits
expect_grep "<title>sctp_datamsg_from_user_\[k\]&#10;A: 2400 samples (40.00%)&#10;B: 4200 samples (56.00%)&#10;change: +16.00 points" "$T/fg.svg"
expect_grep "<title>sctp_recvmsg_\[k\]&#10;A: 1200 samples (20.00%)&#10;B: 600 samples (8.00%)&#10;change: -12.00 points" "$T/fg.svg"
expect_grep "<title>memcpy_&lt;&amp;&gt;&#10;A: 0 samples (0.00%)&#10;B: 300 samples (4.00%)" "$T/fg.svg"
expect_grep ">sctp_sendmsg_\[k\]</text>" "$T/fg.svg"
expect_grep "function find(t)" "$T/fg.svg"
expect_grep "perf-profile cpu-clock" "$T/fg.svg"
rsvg-convert -o "$T/fg.png" "$T/fg.svg" || fail "rsvg-convert could not render the flame graph"
python3 - "$T/fg.png" "$T/fg.svg" <<'PY'
import sys
import xml.etree.ElementTree as ET
sys.dont_write_bytecode = True  # nothing written into the tree
sys.path.insert(0, "tests/host/src")
from png_pixels import pixels
png, svg = sys.argv[1:]
w, h, px = pixels(png)
colours = set(px)
red = sum(1 for r, g, b in px if r > 200 and g < 120 and b < 120)
blue = sum(1 for r, g, b in px if b > 200 and r < 140 and g < 140)
if len(colours) < 10:
    sys.exit(f"FAIL: the rendered flame graph is blank ({len(colours)} colours)")
if red < 2000 or blue < 500:
    sys.exit(f"FAIL: {red} red and {blue} blue pixels: the changes are not coloured")
# width: the share of B's samples (1180 px for all of them)
ns = "{http://www.w3.org/2000/svg}"
for g in ET.parse(svg).getroot().iter(ns + "g"):
    if g.get("data-name") == "sctp_datamsg_from_user_[k]":
        width = float(g.find(ns + "rect").get("width"))
        if abs(width - 1180 * 4200 / 7500) > 0.2:
            sys.exit(f"FAIL: sctp_datamsg_from_user_[k] is {width} px wide, want {1180 * 4200 / 7500:.1f}")
        break
else:
    sys.exit("FAIL: no frame sctp_datamsg_from_user_[k]")
print(f"rendered {w}x{h}: {len(colours)} colours, {red} red and {blue} blue pixels")
PY
# different events: refused, and no picture
for f in "$T"/B/*/runs/*/[0-9]/monitor.perf-profile.folded.gz; do
	zcat "$f" | sed 's/^# event: cpu-clock/# event: cycles:pp/' >"${f%.gz}"
	rm "$f"
done
rm -f "$T/fg.svg"
set +e
"$BENCHBOOT" compare "$T/A" "$T/B" --flamegraph "$T/fg.svg" >"$T/out" 2>"$T/err"
rc=$?
set -e
expect_eq "different events: exit" $rc 100
expect_grep "A and B sampled different events: A cpu-clock (.*/A/0001-a1b2c3d4/runs/.*/0/monitor.perf-profile.folded), B cycles:pp" "$T/err"
[ ! -e "$T/fg.svg" ] || fail "a flame graph written for different events"
# a malformed line: named by file and line
f=$(ls "$T"/B/*/runs/*prsctp_enable=1/1/monitor.perf-profile.folded)
sed -i '4s/ [0-9]*$/ many/' "$f"
set +e
"$BENCHBOOT" compare "$T/A" "$T/B" --flamegraph "$T/fg.svg" >"$T/out" 2>"$T/err"
rc=$?
set -e
expect_eq "malformed: exit" $rc 100
expect_grep "$f:4: the sample count 'many' is not a whole number" "$T/err"
# a side without call stacks
rm "$T"/B/*/runs/*/[0-9]/monitor.perf-profile.folded
set +e
"$BENCHBOOT" compare "$T/A" "$T/B" --flamegraph "$T/fg.svg" >"$T/out" 2>"$T/err"
rc=$?
set -e
expect_eq "no stacks: exit" $rc 100
expect_grep "B has no perf-profile samples (0 call stack files read" "$T/err"
