# The image does not depend on where the job file lives: the same job saved in two folders
# (as `make demo`'s temporary job is, every time) builds the same image id, byte for byte the
# same initramfs, and a plan that names the job file without its folder.
. tests/lib.sh
bb_need sysroot netperf
mkdir -p "$T/a" "$T/elsewhere/deeper"
cp config/jobs/netperf-sctp.yaml "$T/a/job.yaml"
cp config/jobs/netperf-sctp.yaml "$T/elsewhere/deeper/job.yaml"
(cd "$T/a" && "$BENCHBOOT" build -o "$T/img1" job.yaml) >"$T/out1"
"$BENCHBOOT" build -o "$T/img2" "$T/elsewhere/deeper/job.yaml" >"$T/out2"
id1=$(sed -n 's/.*: image id \([0-9a-f]*\).*/\1/p' "$T/out1")
id2=$(sed -n 's/.*: image id \([0-9a-f]*\).*/\1/p' "$T/out2")
[ -n "$id1" ] || fail "no image id in: $(cat "$T/out1")"
expect_eq "image id of the job in another folder" "$id2" "$id1"
cmp "$T/img1/job/initrd.img" "$T/img2/job/initrd.img" || fail "the two initramfs differ"
"$BENCHBOOT" check --plans "$T/plans" "$T/elsewhere/deeper/job.yaml" >/dev/null
head -n 2 "$T/plans/plan.0" | contains "^# job.yaml, boot group 0 of 1" ||
	fail "the plan's first comment: $(head -n 2 "$T/plans/plan.0")"
grep -q "$T" "$T/plans/plan.0" && fail "the plan names the job's folder: $(grep "$T" "$T/plans/plan.0")"
echo "one image id for the job in two folders: $id1"

# build --set: the override is applied (it reaches the plan) and changes the image id; the same
# override twice gives the same id
"$BENCHBOOT" build -o "$T/img3" "$T/a/job.yaml" --set runtime=7s >"$T/out3" ||
	fail "build --set failed: $(cat "$T/out3")"
"$BENCHBOOT" build -o "$T/img4" "$T/a/job.yaml" --set runtime=7s >"$T/out4" ||
	fail "build --set failed: $(cat "$T/out4")"
id3=$(sed -n 's/.*: image id \([0-9a-f]*\).*/\1/p' "$T/out3")
id4=$(sed -n 's/.*: image id \([0-9a-f]*\).*/\1/p' "$T/out4")
[ -n "$id3" ] || fail "no image id in: $(cat "$T/out3")"
[ "$id3" != "$id1" ] || fail "build --set runtime=7s kept the image id $id1"
expect_eq "image id of the same --set twice" "$id4" "$id3"
zcat "$T/img3/job/initrd.img" | cpio -i --to-stdout --quiet etc/benchboot/plan 2>/dev/null | contains -x "runtime=7" ||
	fail "the image's plan has no runtime=7"
echo "build --set runtime=7s: image id $id3"
