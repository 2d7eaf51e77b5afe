# The results writer stops answering (as with a disk that no longer completes its I/O) and the
# boot goes on: `benchboot run` boots an image with benchboot.debug.crash=writer-hang-3 (the
# writer answers nothing from its third request on: iteration 2's sync) and
# benchboot.results.timeout=5. After 5 s the runner stops the writer (SIGKILL), says
# `BENCHBOOT writer-died ... timeout_s=5`, gives the disk up, and everything from then on goes
# to the console, as when the writer crashes (init-writer-crash.sh): the runs end ok, the boot
# powers off, `benchboot run` collects the whole boot from the console.
. tests/lib.sh
. tests/qemu/init-image.inc
. tests/qemu/crash.inc

crash_run writer-hang-3 benchboot.results.timeout=5

expect_grep "^benchboot: benchboot.debug.crash=writer-hang-3: not answering, on purpose" "$T/console"
expect_grep "^benchboot: the results writer did not answer within 5 s (results.timeout): stopped" "$T/console"
expect_writer_lost "writer-died signal=9 exit=-1 requests=3 timeout_s=5"
echo "a writer that stopped answering was stopped after results.timeout; the runs went on, their results reached the console"
