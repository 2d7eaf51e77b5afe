/*
 * init/setuptime.c: the readiness back-off, the first iteration's path marks, the deferred
 * setup work, the kernel log records (a saved /dev/kmsg under a fake
 * root); and the first results sync, which leaves runs/ out (init/results.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "init_fake_root.h"
#include "init.h"
#include "kernel_log.h"
#include "results.h"
#include "setuptime.h"
#include "results/resdisk.h"
#include "sha256.h"

TEST(ready_backoff_doubles_then_caps)
{
	CHECK_INT(ready_backoff_ms(0), ==, 1);
	CHECK_INT(ready_backoff_ms(1), ==, 2);
	CHECK_INT(ready_backoff_ms(2), ==, 4);
	for (int i = 3; i < 1000; i++)
		CHECK_INT(ready_backoff_ms(i), ==, READY_MAX_MS);
	CHECK_INT(ready_backoff_ms(-5), ==, 1);
	CHECK_INT(ready_backoff_ms(1 << 30), ==, READY_MAX_MS);
	/* a server that listens after 100 ms is seen within READY_MAX_MS of it */
	int t = 0, tries = 0;
	while (t < 100)
		t += ready_backoff_ms(tries++);
	CHECK_INT(t, <, 100 + READY_MAX_MS);
	CHECK_INT(tries, <=, 100 / READY_MAX_MS + 3);
}

TEST(first_path_restarts_until_a_release)
{
	first_path_start();
	CHECK(first_path.run_start > 0);
	first_path_mark(&first_path.server_fork);
	double fork1 = first_path.server_fork;
	first_path_mark(&first_path.server_fork); /* kept: the first time counts */
	CHECK(first_path.server_fork == fork1);
	first_path.ready_tries = 3;
	first_path_start(); /* an iteration that failed before its clients: start again */
	CHECK(first_path.server_fork == 0);
	CHECK_INT(first_path.ready_tries, ==, 0);
	first_path_mark(&first_path.release);
	double release = first_path.release, start = first_path.run_start;
	first_path_start(); /* later iterations leave the first path alone */
	first_path_mark(&first_path.server_fork);
	CHECK(first_path.run_start == start);
	CHECK(first_path.release == release);
	CHECK(first_path.server_fork == 0);
}

static int deferred_calls;
static void deferred(struct boot *b)
{
	deferred_calls++;
}

TEST(deferred_setup_runs_once)
{
	setup_deferred_run(NULL); /* nothing deferred: nothing happens */
	CHECK(setup_deferred_start == 0);
	setup_deferred = deferred;
	setup_deferred_run(NULL);
	setup_deferred_run(NULL);
	CHECK_INT(deferred_calls, ==, 1);
	CHECK(setup_deferred == NULL);
	CHECK(setup_deferred_end >= setup_deferred_start && setup_deferred_start > 0);
	CHECK(setup_deferred_waited == setup_deferred_end - setup_deferred_start);
}

TEST(kmsg_records_parse)
{
	unsigned long long us;
	const char *text;
	CHECK_INT(kmsg_parse("6,359,3010651,-;Run /init as init process", &us, &text), ==, 0);
	CHECK_INT(us, ==, 3010651);
	CHECK_STR(text, "Run /init as init process");
	CHECK_INT(kmsg_parse("15,1200,99,-,caller=T1;x", &us, &text), ==, 0);
	CHECK_INT(us, ==, 99);
	CHECK_STR(text, "x");
	CHECK_INT(kmsg_parse(" SUBSYSTEM=net", &us, &text), ==, -1);
	CHECK_INT(kmsg_parse("6,359;no time", &us, &text), ==, -1);
	CHECK_INT(kmsg_parse("6,359,12\n;later line", &us, &text), ==, -1);
	CHECK_INT(kmsg_parse("", &us, &text), ==, -1);
	CHECK_INT(kmsg_parse("a,b,c,-;x", &us, &text), ==, -1);
}

TEST(kmsg_find_first_of_each)
{
	const char *root = test_tmpdir();
	init_root = root;
	test_write_file(root, "dev/kmsg",
	                "6,1,100,-;Linux version 6.1\n"
	                " SUBSYSTEM=Run /init as init process\n"
	                "6,359,2995864,-;Run /init as init process\n"
	                "15,400,3100250,-;benchboot: first client released\n"
	                "15,401,3200000,-;benchboot: first client released\n"
	                "garbage\n"
	                "4,402,3300000,-;Run /init as init process (again)");
	const char *want[] = {KMSG_RUN_INIT, KMSG_FIRST_CLIENT, "never there"};
	double ms[3];
	kmsg_find(want, ms, 3);
	CHECK(ms[0] > 2995.863 && ms[0] < 2995.865);
	CHECK(ms[1] > 3100.249 && ms[1] < 3100.251);
	CHECK(ms[2] == -1);
	init_root = "/nonexistent-root";
	kmsg_find(want, ms, 1);
	CHECK(ms[0] == -1);
}

/* kmsg.log: the records as the console prints them, continuation lines and garbage left out;
 * a second call appends only the records the first did not have. */
TEST(kernel_log_appends_new_records)
{
	const char *root = test_tmpdir();
	init_root = root;
	test_write_file(root, "dev/kmsg",
	                "6,1,100,-;Linux version 6.1\n"
	                " SUBSYSTEM=net\n"
	                "4,2,24912345,-;rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
	                "garbage\n");
	char path[4200], *text;
	size_t len;
	unsigned long long next = 0;
	snprintf(path, sizeof(path), "%s/kmsg.log", root);
	CHECK_INT(kernel_log_append(path, &next), ==, 0);
	CHECK_INT(next, ==, 3);
	/* the ring buffer moved on: record 1 dropped, 2 again, 3 new */
	test_write_file(root, "dev/kmsg",
	                "4,2,24912345,-;rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
	                "0,3,1234000000,-;Kernel panic - not syncing: x\n");
	CHECK_INT(kernel_log_append(path, &next), ==, 0);
	CHECK_INT(next, ==, 4);
	CHECK((text = init_read("/kmsg.log", &len)) != NULL);
	CHECK_STR(text, "[    0.000100] Linux version 6.1\n"
	                "[   24.912345] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
	                "[ 1234.000000] Kernel panic - not syncing: x\n");
	free(text);
	init_root = "/nonexistent-root";
	CHECK_INT(kernel_log_append(path, &next), ==, -ENOENT);
}

/* The first sync leaves the iteration in the making (runs/) for later. */
TEST(sync_except_skips_a_folder)
{
	const char *root = init_fake_root(NULL);
	char local[4096];
	snprintf(local, sizeof(local), "%s/results", root);
	test_write_file(local, "env.json", "{}\n");
	test_write_file(local, "runs/r/1/server.0.out", "x\n");
	test_write_file(root, "sys/class/block/.keep", "");
	CHECK_INT(results_open(root, "skip1"), ==, -ENODEV); /* no disk: the console gets them */
	CHECK_INT(results_sync_except(local, 0, "runs"), ==, 0);
	char *text = init_fake_console();
	CHECK_CONTAINS(text, "path=env.json");
	CHECK(!strstr(text, "path=runs/"));
	free(text);
	CHECK_INT(results_sync(local, 0), ==, 0); /* the next sync has them */
	text = init_fake_console();
	CHECK_CONTAINS(text, "path=runs/r/1/server.0.out");
	free(text);
}

/* Two disks labelled BENCHBOOT, the first without a marker: the init opens each once, skips
 * the first without writing to it and takes the second. */
TEST(results_open_takes_the_first_marked_of_the_labelled_disks)
{
	const char *root = init_fake_root(NULL);
	char *out;
	const char *names[2] = {"vdb", "vdc"};
	char img[2][4096], before[65], after[65];
	for (int i = 0; i < 2; i++)
		if (init_fake_disk(root, names[i], i ? "253:32" : "253:16", img[i], sizeof(img[i]),
		                   &out))
			FAIL("making a disk image failed: %s", out);
	CHECK_INT(bb_resdisk_init_marker(img[1], "00112233445566778899aabbccddeeff"), ==, 0);
	CHECK_INT(bb_sha256_file_hex(img[0], before), ==, 0);
	CHECK_INT(results_open(root, "two1"), ==, 0);
	CHECK_STR(results_bootdir(), "0001-two1");
	CHECK_INT(bb_sha256_file_hex(img[0], after), ==, 0);
	CHECK_STR(after, before);
	char *text = init_fake_console();
	CHECK_CONTAINS(text, "vdb: labelled BENCHBOOT but no valid marker: not a benchboot disk");
	CHECK_CONTAINS(text, "results disk vdc (id 00112233445566778899aabbccddeeff): boot folder "
	                     "0001-two1");
	free(text);
	results_finish();
}
