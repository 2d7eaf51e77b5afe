/*
 * init/writer.c: the results writer, a real child process, on a real results disk (an ext4
 * image under a fake root, as the init sees /sys/class/block and /dev): it opens the disk, syncs
 * on request and finishes; when it dies (benchboot.debug.crash=writer-N, a real SIGSEGV), the
 * runner's side says so, gives the disk up, and the files reach the console instead; a writer
 * that died between requests is reaped by run_reap as the writer, not as a benchmark's orphan.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "init_fake_root.h"
#include "init.h"
#include "results/resdisk.h"
#include "results.h"
#include "writer.h"

/* A fake root with one marked results disk (vdb) and the init's results dir; its image path. */
static const char *disk_root(char *img, size_t len)
{
	const char *root = init_fake_root(NULL);
	char *out;
	if (init_fake_disk(root, "vdb", "253:16", img, len, &out))
		bb_test_fail(__FILE__, __LINE__, "making a disk image failed: %s", out);
	CHECK_INT(bb_resdisk_init_marker(img, "00112233445566778899aabbccddeeff"), ==, 0);
	test_write_file(root, "run/benchboot/results/env.json", "{}\n");
	test_write_file(root, "run/benchboot/results/runs/r/1/status", "ok\n");
	return root;
}

/* 1 when the boot folder on the image holds rel. */
static int on_disk(const char *img, const char *bootdir, const char *rel)
{
	struct resdisk *d;
	struct resdisk_entry e;
	char path[512];
	CHECK_INT(bb_resdisk_open(img, RESDISK_READ, &d), ==, 0);
	snprintf(path, sizeof(path), "boots/%s/%s", bootdir, rel);
	int r = bb_resdisk_stat(d, path, &e);
	bb_resdisk_close(d);
	return r == 0;
}

static struct boot *fresh_boot(const char *id)
{
	static struct boot b;
	memset(&b, 0, sizeof(b));
	snprintf(b.boot_id, sizeof(b.boot_id), "%s", id);
	return &b;
}

TEST(writer_opens_syncs_and_finishes)
{
	char img[4096];
	disk_root(img, sizeof(img));
	init_crash_switch("");
	CHECK_INT(writer_start(fresh_boot("w1")), ==, 0);
	CHECK(writer_running());
	double ms = -1;
	writer_sync_begin(0, "runs"); /* the writer syncs while this process goes on */
	CHECK_INT(writer_sync_wait(&ms), ==, 0);
	CHECK(ms >= 0);
	CHECK_INT(writer_open.synced, ==, 1);
	CHECK_INT(writer_sync_wait(NULL), ==, 0); /* nothing owed */
	CHECK_INT(writer_open.forked, ==, 1);
	CHECK_INT(writer_open.disk, ==, 1);
	CHECK(writer_open.end >= writer_open.start && writer_open.start > 0);
	CHECK(on_disk(img, "0001-w1", "env.json"));
	CHECK(!on_disk(img, "0001-w1", "runs")); /* left out by the first sync */
	CHECK_INT(writer_sync(0, NULL, NULL), ==, 0);
	CHECK(on_disk(img, "0001-w1", "runs/r/1/status"));
	CHECK_INT(writer_finish(), ==, 0);
	CHECK(!writer_running());
	CHECK(on_disk(img, "0001-w1", "done"));
	CHECK_INT(waitpid(-1, NULL, WNOHANG), ==, -1); /* the writer was reaped */
	char *text = init_fake_console();
	CHECK_CONTAINS(text, "boot folder 0001-w1");
	CHECK_CONTAINS(text, "results disk closed: 0001-w1 complete");
	CHECK(!strstr(text, "BENCHBOOT-FILE")); /* all went to the disk */
	free(text);
}

TEST(writer_death_at_a_request_sends_the_results_to_the_console)
{
	char img[4096];
	const char *root = disk_root(img, sizeof(img));
	init_crash_switch("quiet benchboot.debug.crash=writer-2");
	CHECK_INT(writer_start(fresh_boot("w2")), ==, 0);
	CHECK_INT(writer_sync(0, "runs", NULL), ==, 0); /* request 1: env.json on the disk */
	test_write_file(root, "run/benchboot/results/runs/r/2/status", "ok\n");
	writer_sync_begin(0, NULL);               /* request 2: the writer crashes */
	CHECK_INT(writer_sync_wait(NULL), ==, 0); /* done here instead, to the console */
	CHECK(!writer_running());
	CHECK_INT(writer_open.disk, ==, 0);
	char *text = init_fake_console();
	CHECK_CONTAINS(text, "BENCHBOOT writer-died signal=11 exit=-1 requests=2");
	CHECK_CONTAINS(text, "the results writer died (Segmentation fault)");
	CHECK_CONTAINS(text, "boot=0001-w2 path=runs/r/2/status");
	CHECK_CONTAINS(text, "boot=0001-w2 path=env.json"); /* every file, on the console */
	free(text);
	CHECK_INT(writer_finish(), ==, 0); /* here: the done file on the console */
	text = init_fake_console();
	CHECK_CONTAINS(text, "boot=0001-w2 path=done");
	free(text);
	CHECK(on_disk(img, "0001-w2", "env.json"));
	CHECK(!on_disk(img, "0001-w2", "done"));
	init_crash_switch("");
}

TEST(writer_dead_between_requests_is_reaped_as_the_writer)
{
	char img[4096];
	disk_root(img, sizeof(img));
	init_crash_switch("benchboot.debug.crash=writer-open");
	CHECK_INT(writer_start(fresh_boot("w3")), ==, 0);
	siginfo_t si = {0};
	CHECK_INT(waitid(P_ALL, 0, &si, WEXITED | WNOWAIT), ==, 0); /* dead, not yet reaped */
	run_reap();
	CHECK(!writer_running());
	char *text = init_fake_console();
	CHECK_CONTAINS(text, "BENCHBOOT writer-died signal=11 exit=-1 requests=0");
	free(text);
	CHECK_INT(writer_sync(0, NULL, NULL), ==, 0); /* in this process, to the console */
	text = init_fake_console();
	CHECK_CONTAINS(text, "boot=0000-w3 path=env.json");
	free(text);
	CHECK_INT(writer_finish(), ==, 0);
	init_crash_switch("");
}

/* The writer dies on the sync asked while the first server starts, and run_reap (the runner
 * waiting for the server) reaps it before the answer is awaited: the sync is done here. */
TEST(writer_dead_with_an_answer_owed_is_replaced_here)
{
	char img[4096];
	disk_root(img, sizeof(img));
	init_crash_switch("benchboot.debug.crash=writer-1");
	CHECK_INT(writer_start(fresh_boot("w4")), ==, 0);
	writer_sync_begin(0, "runs");
	siginfo_t si = {0};
	CHECK_INT(waitid(P_ALL, 0, &si, WEXITED | WNOWAIT), ==, 0);
	run_reap();
	CHECK(!writer_running());
	CHECK_INT(writer_sync_wait(NULL), ==, 0);
	char *text = init_fake_console();
	CHECK_CONTAINS(text, "BENCHBOOT writer-died signal=11 exit=-1 requests=1");
	CHECK(!strstr(strstr(text, "writer-died") + 1, "writer-died")); /* said once */
	CHECK_CONTAINS(text, "path=env.json");
	CHECK(!strstr(text, "path=runs/"));
	free(text);
	CHECK_INT(writer_finish(), ==, 0);
	init_crash_switch("");
}

/* A writer that stops answering (benchboot.debug.crash=writer-hang-N, as a disk that no longer
 * completes its I/O would): after results.timeout the runner stops it, says so once, and the
 * sync is done here, to the console; run_reap reaps the killed writer as the writer: its death
 * is not said again. */
TEST(writer_that_stops_answering_is_stopped_after_the_timeout)
{
	char img[4096];
	const char *root = disk_root(img, sizeof(img));
	init_crash_switch("benchboot.debug.crash=writer-hang-2");
	struct boot *b = fresh_boot("w5");
	b->plan.results_timeout = 1;
	CHECK_INT(writer_start(b), ==, 0);
	CHECK_INT(writer_sync(0, "runs", NULL), ==, 0); /* request 1: answered */
	test_write_file(root, "run/benchboot/results/runs/r/2/status", "ok\n");
	double t = init_now_ms();
	CHECK_INT(writer_sync(0, NULL, NULL), ==, 0); /* request 2: no answer; done here */
	CHECK(init_now_ms() - t >= 950);
	CHECK(!writer_running());
	CHECK_INT(writer_open.disk, ==, 0);
	char *text = init_fake_console();
	CHECK_CONTAINS(text, "writer-hang-2: not answering, on purpose");
	CHECK_CONTAINS(text, "BENCHBOOT writer-died signal=9 exit=-1 requests=2 timeout_s=1\n");
	CHECK_CONTAINS(text, "did not answer within 1 s (results.timeout): stopped");
	CHECK_CONTAINS(text, "boot=0001-w5 path=runs/r/2/status");
	free(text);
	siginfo_t si = {0};
	CHECK_INT(waitid(P_ALL, 0, &si, WEXITED | WNOWAIT), ==, 0); /* dead by SIGKILL */
	CHECK_INT(si.si_status, ==, SIGKILL);
	run_reap();
	CHECK_INT(waitpid(-1, NULL, WNOHANG), ==, -1); /* reaped */
	text = init_fake_console();
	CHECK(!strstr(strstr(text, "writer-died") + 1, "writer-died")); /* said once */
	free(text);
	CHECK_INT(writer_finish(), ==, 0); /* here: the done file on the console */
	text = init_fake_console();
	CHECK_CONTAINS(text, "boot=0001-w5 path=done");
	free(text);
	CHECK(on_disk(img, "0001-w5", "env.json"));
	init_crash_switch("");
}
