# The results writer (the runner's child that owns the results disk) dies and the boot goes
# on: `benchboot run` boots an image with benchboot.debug.crash=writer-3, which makes the
# writer segfault at its third request (1: the first sync with env.json, 2: iteration 1's
# sync, 3: iteration 2's). The runner says `BENCHBOOT writer-died`, gives the disk up, and the
# runs still end ok with their files on the console: iteration 1 stays on the disk, iterations
# 2 and 3 (and everything else) reach the console, the boot ends normally (boot-end, power
# off), no init-crash, and `collect --console` gets the whole boot from the console, as
# `benchboot run` does when it sees the writer's death.
. tests/lib.sh
. tests/qemu/init-image.inc
. tests/qemu/crash.inc

crash_run writer-3

expect_grep "^benchboot: benchboot.debug.crash=writer-3: crashing on purpose" "$T/console"
expect_grep "^benchboot: the results writer died (Segmentation fault): the results disk is given up" "$T/console"
expect_writer_lost "writer-died signal=11 exit=-1 requests=3"
echo "writer death reported, the runs went on, their results reached the console"
