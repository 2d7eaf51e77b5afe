/*
 * The init's run loop (init/run.c) with real processes (/bin/sh, sleep, cat of recorded netperf
 * outputs) under a fake root: gated start, rusage, stats and results.json, sysctls applied and
 * restored, the watchdog (SIGTERM, then SIGKILL), failed runs that let the next one go on, an
 * iteration whose results do not fit on a tiny results disk (a real one, an image file under
 * the fake /sys/class/block) failed with the reason.
 * cgroup mode is "none" here (the QEMU tests check cgroups for real).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "init_fake_root.h"
#include "init.h"
#include "results/resdisk.h"
#include "results.h"

static struct boot b;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A boot as main() would leave it after setup, with the given runs. */
static void setup(const char *runs)
{
	const char *root = init_fake_root(NULL);
	char text[8192], err[256];
	sigset_t set;

	memset(&b, 0, sizeof(b));
	snprintf(text, sizeof(text), "benchboot-plan 1\ncgroup.mode=none\n%s", runs);
	if (bb_plan_parse(text, strlen(text), &b.plan, err, sizeof(err)))
		bb_test_fail(__FILE__, __LINE__, "plan: %s", err);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	b.sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	b.ncpu = 4;
	b.cgroup.mode = BB_CGROUP_NONE;
	b.cgroup_fd = -1;
	b.cgroup.ok = 1;
	b.cpufreq.ok = 1;
	b.run_sysctls = calloc(b.plan.nruns, sizeof(*b.run_sysctls));
	b.run_failed = calloc(b.plan.nruns, sizeof(*b.run_failed));
	init_mkdirs(INIT_RESULTS_DIR "/runs", 0755);
	test_write_file(root, "proc/sys/kernel/knob", "5\n");
	test_write_file(root, "proc/sys/kernel/pair", "1\t2\n");
}

static char *file(const char *fmt, const char *a, const char *c)
{
	char path[1024];
	snprintf(path, sizeof(path), fmt, a, c);
	char *s = init_read(path, NULL);
	if (!s)
		bb_test_fail(__FILE__, __LINE__, "cannot read %s: %s", path, strerror(errno));
	return s;
}

#define STATUS(run, iter) file(INIT_RESULTS_DIR "/runs/%s/%s/status", run, iter)

TEST(run_clients_stats_sysctl)
{
	char runs[2048];
	snprintf(runs, sizeof(runs),
	         "[run tcp.one]\nsuite=netperf\nparam.test=TCP_STREAM\niterations=2\nruntime=5\n"
	         "sysctl.kernel.knob=7\nsysctl.kernel.pair=3  4\n"
	         "client.arg=/bin/sh\nclient.arg=-c\nclient.arg=cat %s/tests/fixtures/netperf/"
	         "tcp_stream-cC.txt; cat /proc/sys/kernel/knob >&2 2>/dev/null; exit 0\n"
	         "client.count=50%%\nclient.cpus=0\n",
	         getenv("BB_TOP") ? getenv("BB_TOP") : ".");
	setup(runs);
	run_one(&b, 0);
	char *st = STATUS("tcp.one", "2");
	CHECK_CONTAINS(st, "\"status\": \"ok\"");
	CHECK_CONTAINS(st, "\"clients_requested\": 2");
	CHECK_CONTAINS(st, "\"requested\": \"7\"");
	CHECK_CONTAINS(st, "\"actual\": \"7\"");
	CHECK_CONTAINS(st, "\"boot_value\": \"5\"");
	CHECK_CONTAINS(st, "\"exit_code\": 0");
	CHECK_CONTAINS(st, "\"cpus\": \"0\"");
	CHECK_CONTAINS(st, "\"mode\": \"none\"");
	/* restored after each run, recorded for env.json */
	CHECK_STR(file("/proc/sys/kernel/knob%s%s", "", ""), "5");
	CHECK_INT(b.run_sysctls[0].n, ==, 2);
	CHECK_STR(b.run_sysctls[0].v[0].actual, "7");
	char *res = file(INIT_RESULTS_DIR "/runs/%s/results.json%s", "tcp.one", "");
	CHECK_CONTAINS(res, "\"netperf.Throughput_Mbps\": [\n    7132.47,\n    7132.47\n  ]");
	CHECK_CONTAINS(res, "\"netperf.Throughput_total_Mbps\": [\n    14264.94,");
	char *ru = file(INIT_RESULTS_DIR "/runs/%s/1/client.1.rusage%s", "tcp.one", "");
	CHECK_CONTAINS(ru, "\"max_resident_set_size\": ");
	CHECK_CONTAINS(file(INIT_RESULTS_DIR "/runs/%s/1/client.0.out%s", "tcp.one", ""),
	               "MIGRATED TCP STREAM TEST");
	char *con = file("/console.txt%s%s", "", "");
	CHECK_CONTAINS(con,
	               "BENCHBOOT run-start id=tcp.one iter=1/2 runtime=5 clients=2 pos=1/2\n");
	CHECK_CONTAINS(con,
	               "BENCHBOOT run-start id=tcp.one iter=2/2 runtime=5 clients=2 pos=2/2\n");
	CHECK_CONTAINS(con, "BENCHBOOT run-end id=tcp.one iter=2 status=ok ");
	CHECK_CONTAINS(con, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=tcp.one.i1.netperf.Throughput_Mbps "
	                    "RESULT=pass UNITS=Mbps MEASUREMENT=7132.47>\n");
	CHECK_CONTAINS(con, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=tcp.one.i2 RESULT=pass>\n");
	CHECK_CONTAINS(con, "BENCHBOOT sysctl run=tcp.one key=kernel.knob requested=7 actual=7\n");
	CHECK_CONTAINS(con,
	               "BENCHBOOT sysctl run=tcp.one key=kernel.pair requested=3,,4 actual=3,4\n");
	CHECK_STR(file("/proc/sys/kernel/pair%s%s", "", ""), "1 2");
	CHECK_INT(b.run_failed[0], ==, 0);
}

TEST(run_watchdog_sigterm)
{
	setup("[run hang]\nsuite=netperf\nruntime=0.2\ngrace=0.3\nclient.arg=/bin/sleep\n"
	      "client.arg=100\n");
	double t0 = now();
	run_one(&b, 0);
	double took = now() - t0;
	CHECK(took >= 0.5 && took < 3);
	char *st = STATUS("hang", "1");
	CHECK_CONTAINS(st, "\"status\": \"timeout\"");
	CHECK_CONTAINS(st, "\"timed_out\": true");
	CHECK_CONTAINS(st, "clients still running after runtime 0.2s + grace 0.3s: SIGTERM\"");
	CHECK_CONTAINS(st, "\"signal\": 15");
	CHECK_CONTAINS(file("/console.txt%s%s", "", ""),
	               "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=hang RESULT=fail>");
	CHECK_INT(b.run_failed[0], ==, 1);
}

TEST(run_watchdog_sigkill)
{
	/* SIGTERM is ignored by the whole process group: SIGKILL 5 s later */
	setup("[run stubborn]\nsuite=netperf\nruntime=0.1\ngrace=0.1\nclient.arg=/bin/sh\n"
	      "client.arg=-c\nclient.arg=trap '' TERM; sleep 100; sleep 100\n");
	double t0 = now();
	run_one(&b, 0);
	double took = now() - t0;
	CHECK(took >= 5 && took < 9);
	char *st = STATUS("stubborn", "1");
	CHECK_CONTAINS(st, "\"status\": \"timeout\"");
	CHECK_CONTAINS(st, "SIGTERM, then SIGKILL after 5s");
	CHECK_CONTAINS(st, "\"signal\": 9");
}

TEST(run_failures_then_next_runs)
{
	char runs[4096];
	snprintf(
	    runs, sizeof(runs),
	    "[run badsysctl]\nsuite=netperf\nruntime=1\nsysctl.kernel.no_such_knob=1\n"
	    "client.arg=/bin/sh\nclient.arg=-c\nclient.arg=touch /tmp/never-%d\n"
	    "[run "
	    "needsmod]\nsuite=netperf\nruntime=1\nneeds.module=nosuchmod\nclient.arg=/bin/true\n"
	    "[run "
	    "exit3]\nsuite=netperf\nruntime=1\nclient.arg=/bin/sh\nclient.arg=-c\nclient.arg=exit "
	    "3\n"
	    "[run noexec]\nsuite=netperf\nruntime=1\nclient.arg=/no/such/binary\n"
	    "[run garbage]\nsuite=netperf\nruntime=1\nclient.arg=/bin/echo\nclient.arg=hello\n"
	    "[run good]\nsuite=netperf\nruntime=5\nclient.arg=/bin/cat\n"
	    "client.arg=%s/tests/fixtures/netperf/tcp_stream-cC.txt\n",
	    (int)getpid(), getenv("BB_TOP") ? getenv("BB_TOP") : ".");
	setup(runs);
	for (size_t i = 0; i < b.plan.nruns; i++)
		run_one(&b, i);
	CHECK_CONTAINS(STATUS("badsysctl", "1"),
	               "\"reason\": \"sysctl kernel.no_such_knob: unknown key (no "
	               "/proc/sys/kernel/no_such_knob)\"");
	char never[64];
	snprintf(never, sizeof(never), "/tmp/never-%d", (int)getpid());
	CHECK(access(never, F_OK) != 0); /* its client never ran */
	CHECK_CONTAINS(STATUS("needsmod", "1"),
	               "\"reason\": \"needs module nosuchmod: not in the image");
	CHECK_CONTAINS(STATUS("exit3", "1"), "\"reason\": \"client 0: exit status 3\"");
	CHECK_CONTAINS(STATUS("noexec", "1"), "\"reason\": \"client 0: exit status 127\"");
	CHECK_CONTAINS(file(INIT_RESULTS_DIR "/runs/%s/1/client.0.err%s", "noexec", ""),
	               "benchboot: cannot run /no/such/binary: No such file or directory");
	CHECK_CONTAINS(STATUS("garbage", "1"), "\"reason\": \"results: ");
	CHECK_CONTAINS(STATUS("good", "1"), "\"status\": \"ok\"");
	CHECK_INT(b.run_failed[0] + b.run_failed[1] + b.run_failed[2] + b.run_failed[3] +
	              b.run_failed[4],
	          ==, 5);
	CHECK_INT(b.run_failed[5], ==, 0);
}

TEST(run_server_ready_then_clients)
{
	char runs[2048];
	if (access("/usr/bin/python3", X_OK))
		SKIP("python3 not installed (used as a TCP server)");
	/* the server listens only after 0.5 s: the client starts once it accepts connections */
	snprintf(runs, sizeof(runs),
	         "[run srv]\nsuite=netperf\nruntime=5\ngrace=10\n"
	         "server.0.arg=/usr/bin/python3\nserver.0.arg=-c\nserver.0.arg="
	         "import socket,time; time.sleep(0.5); s=socket.socket(); "
	         "s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1); "
	         "s.bind(('127.0.0.1',18765)); s.listen(5); time.sleep(100)\n"
	         "server.0.ready=tcp:127.0.0.1:18765\nserver.0.cpus=0\n"
	         "client.arg=/bin/cat\nclient.arg=%s/tests/fixtures/netperf/tcp_stream-cC.txt\n",
	         getenv("BB_TOP") ? getenv("BB_TOP") : ".");
	setup(runs);
	double t0 = now();
	run_one(&b, 0);
	CHECK(now() - t0 >= 0.5);
	char *st = STATUS("srv", "1");
	CHECK_CONTAINS(st, "\"status\": \"ok\"");
	/* the server was stopped after the clients: SIGTERM */
	CHECK_CONTAINS(st, "\"servers\": [\n    {\n      \"index\": 0,");
	CHECK_CONTAINS(st, "\"signal\": 15");
	CHECK_CONTAINS(file(INIT_RESULTS_DIR "/runs/%s/results.json%s", "srv", ""), "7132.47");
}

TEST(run_server_exits_before_ready)
{
	setup("[run srvdies]\nsuite=netperf\nruntime=5\ngrace=10\nserver.0.arg=/bin/false\n"
	      "server.0.ready=tcp:127.0.0.1:1\nclient.arg=/bin/true\n");
	double t0 = now();
	run_one(&b, 0);
	CHECK(now() - t0 < 5);
	CHECK_CONTAINS(
	    STATUS("srvdies", "1"),
	    "\"reason\": \"server 0 exited (exit status 1) before tcp:127.0.0.1:1 was ready\"");
}

/* Ready is a listening socket in the kernel's list (/proc/net/tcp under the fake root lists
 * 127.0.0.1:1 as listening, where nothing listens for real): no connect is made. */
TEST(run_server_ready_from_the_kernels_list)
{
	setup("[run srvlist]\nsuite=netperf\nruntime=5\ngrace=0.5\nserver.0.arg=/bin/sleep\n"
	      "server.0.arg=100\nserver.0.ready=tcp:127.0.0.1:1\nclient.arg=/bin/true\n");
	test_write_file(init_root, "proc/net/tcp",
	                "  sl  local_address rem_address   st\n"
	                "   0: 0100007F:0001 00000000:0000 0A 00000000:00000000 00:00000000 "
	                "00000000     0        0 99 1 0000000000000000 100 0 0 10 0\n");
	test_write_file(init_root, "proc/net/tcp6", "  sl  local_address rem_address   st\n");
	run_one(&b, 0);
	char *st = STATUS("srvlist", "1");
	CHECK(!strstr(st, "not ready"));
	/* the client ran (it printed nothing netperf would: that is its failure) */
	CHECK_CONTAINS(st, "\"clients\": [\n    {\n      \"index\": 0,");
	CHECK_CONTAINS(st, "\"exit\": \"exit status 0\"");
	/* and without it in the list: not ready, as a refused connect says */
	setup("[run srvgone]\nsuite=netperf\nruntime=5\ngrace=0.5\nserver.0.arg=/bin/sleep\n"
	      "server.0.arg=100\nserver.0.ready=tcp:127.0.0.1:1\nclient.arg=/bin/true\n");
	test_write_file(init_root, "proc/net/tcp", "  sl  local_address rem_address   st\n");
	test_write_file(init_root, "proc/net/tcp6", "  sl  local_address rem_address   st\n");
	run_one(&b, 0);
	CHECK_CONTAINS(STATUS("srvgone", "1"),
	               "\"reason\": \"server 0 not ready on tcp:127.0.0.1:1: Connection refused\"");
}

TEST(run_server_not_ready_in_grace)
{
	setup("[run srvslow]\nsuite=netperf\nruntime=5\ngrace=0.5\nserver.0.arg=/bin/sleep\n"
	      "server.0.arg=100\nserver.0.ready=tcp:127.0.0.1:1\nclient.arg=/bin/true\n");
	double t0 = now();
	run_one(&b, 0);
	CHECK(now() - t0 < 5);
	CHECK_CONTAINS(STATUS("srvslow", "1"),
	               "\"reason\": \"server 0 not ready on tcp:127.0.0.1:1: Connection refused\"");
	/* the server was stopped */
	CHECK_CONTAINS(STATUS("srvslow", "1"), "\"signal\": 15");
}

TEST(run_children_inherit_no_fds)
{
	setup("[run fds]\nsuite=netperf\nruntime=5\nclient.arg=/bin/sh\nclient.arg=-c\n"
	      "client.arg=ls /proc/$$/fd\n");
	int leak = open("/dev/null", O_RDONLY); /* like libext2fs's device fd: no O_CLOEXEC */
	CHECK(leak > 2);
	run_one(&b, 0);
	CHECK_STR(file(INIT_RESULTS_DIR "/runs/%s/1/client.0.out%s", "fds", ""), "0\n1\n2\n");
}

/* LAVA test case ids: at most 100 characters of [A-Za-z0-9._-], unique per run. */
TEST(run_lava_ids)
{
	char runs[4096], id[201];
	memset(id, 'a', 200);
	id[200] = 0;
	id[5] = '+';
	snprintf(runs, sizeof(runs),
	         "[run %s]\nsuite=netperf\nruntime=5\nclient.arg=/bin/cat\n"
	         "client.arg=%s/tests/fixtures/netperf/tcp_stream-cC.txt\n",
	         id, getenv("BB_TOP") ? getenv("BB_TOP") : ".");
	setup(runs);
	run_one(&b, 0);
	char *con = file("/console.txt%s%s", "", "");
	char *l = strstr(con, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=");
	CHECK(l);
	int n = 0;
	for (char *c = l + 35; *c != ' '; c++, n++)
		CHECK((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' || *c == '-');
	CHECK_INT(n, <=, 100);
	CHECK(!strncmp(l + 35, "aaaaa_aaa", 9));
	CHECK_CONTAINS(l, ".netperf.Throughput_Mbps RESULT=pass");
	CHECK_CONTAINS(con, "RESULT=pass>\n"); /* the per-run line */
}

/* A regular file of the boot folder on the disk image: 1 there, 0 not there. */
static int on_disk(const char *img, const char *rel)
{
	struct resdisk *d;
	struct resdisk_entry e;
	char path[512];
	CHECK_INT(bb_resdisk_open(img, RESDISK_READ, &d), ==, 0);
	snprintf(path, sizeof(path), "boots/0001-full1/%s", rel);
	int r = bb_resdisk_stat(d, path, &e);
	bb_resdisk_close(d);
	return r == 0;
}

/*
 * A results disk too small for the second run's output: results_sync fails with ENOSPC, so
 * that iteration is failed with the reason (status file, run-end line), left out of
 * results.json, and the matrix goes on; the third run's results reach the disk.
 */
TEST(run_results_disk_full)
{
	char runs[4096], img[4096], cmd[12288], *out;
	const char *top = getenv("BB_TOP") ? getenv("BB_TOP") : ".";
	snprintf(runs, sizeof(runs),
	         "[run first]\nsuite=netperf\nruntime=5\nclient.arg=/bin/cat\n"
	         "client.arg=%s/tests/fixtures/netperf/tcp_stream-cC.txt\n"
	         "[run big]\nsuite=netperf\nruntime=5\nclient.arg=/bin/sh\nclient.arg=-c\n"
	         "client.arg=cat %s/tests/fixtures/netperf/tcp_stream-cC.txt; "
	         "yes benchboot | head -c 6000000 >&2\n"
	         "[run next]\nsuite=netperf\nruntime=5\nclient.arg=/bin/cat\n"
	         "client.arg=%s/tests/fixtures/netperf/tcp_stream-cC.txt\n",
	         top, top, top);
	setup(runs);
	const char *root = test_tmpdir();
	snprintf(img, sizeof(img), "%s/tiny.img", root);
	snprintf(cmd, sizeof(cmd),
	         "truncate -s 4M %s && mke2fs -q -F -t ext4 -L BENCHBOOT -m 0 -b 4096 "
	         "-E lazy_itable_init=0,lazy_journal_init=0 %s 2>&1",
	         img, img);
	test_need("mke2fs", "e2fsprogs");
	if (test_run(cmd, &out))
		FAIL("mke2fs failed: %s", out);
	CHECK_INT(bb_resdisk_init_marker(img, "00112233445566778899aabbccddeeff"), ==, 0);
	test_write_file(root, "sys/class/block/vdb/size", "8192\n");
	test_write_file(root, "sys/class/block/vdb/dev", "253:16\n");
	test_write_file(root, "sys/class/block/vdb/ro", "0\n");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/dev && ln -s %s %s/dev/vdb", root, img, root);
	CHECK_INT(test_run(cmd, NULL), ==, 0);
	CHECK_INT(results_open(root, "full1"), ==, 0);
	CHECK_STR(results_bootdir(), "0001-full1");

	for (size_t i = 0; i < b.plan.nruns; i++)
		run_one(&b, i);

	char *con = file("/console.txt%s%s", "", "");
	/* the first run fitted */
	CHECK_CONTAINS(STATUS("first", "1"), "\"status\": \"ok\"");
	CHECK(on_disk(img, "runs/first/1/status"));
	CHECK(on_disk(img, "runs/first/results.json"));
	CHECK_CONTAINS(con, "BENCHBOOT run-end id=first iter=1 status=ok ");
	/* the second did not: failed, with the reason, and not in results.json */
	char *st = STATUS("big", "1");
	CHECK_CONTAINS(st, "\"status\": \"failed\"");
	CHECK_CONTAINS(st, "\"reason\": \"results not written to the results disk: No space left "
	                   "on device");
	CHECK_CONTAINS(con, "No space left on device");
	CHECK_CONTAINS(con, "BENCHBOOT run-end id=big iter=1 status=failed ");
	CHECK_CONTAINS(con, " reason=results not written to the results disk: No space left on "
	                    "device");
	CHECK_CONTAINS(con, "TEST_CASE_ID=big RESULT=fail>");
	CHECK(!strstr(con, "TEST_CASE_ID=big RESULT=pass>"));
	CHECK(!on_disk(img, "runs/big/results.json"));
	char path[600];
	snprintf(path, sizeof(path), "%s" INIT_RESULTS_DIR "/runs/big/results.json", root);
	CHECK(access(path, F_OK) != 0);
	CHECK_INT(b.run_failed[0], ==, 0);
	CHECK_INT(b.run_failed[1], ==, 1);
	/* the matrix went on: the next run ran and kept its results (the big file is retried
	 * after the next run's files, and not fitting again does not fail them) */
	CHECK_CONTAINS(file(INIT_RESULTS_DIR "/runs/%s/1/client.0.out%s", "next", ""),
	               "Throughput");
	CHECK_CONTAINS(con, "BENCHBOOT run-end id=next iter=1 status=ok ");
	CHECK_CONTAINS(STATUS("next", "1"), "\"status\": \"ok\"");
	CHECK(on_disk(img, "runs/next/1/status"));
	CHECK(on_disk(img, "runs/next/results.json"));
	CHECK(!on_disk(img, "runs/big/1/client.0.err"));
	CHECK_INT(b.run_failed[2], ==, 0);
	/* the disk stayed consistent */
	snprintf(cmd, sizeof(cmd), "e2fsck -fn %s 2>&1", img);
	if (test_run(cmd, &out))
		bb_test_fail(__FILE__, __LINE__, "e2fsck -fn: %s", out);
}

/* `last` in an affinity is the highest online CPU of the machine the init runs on. */
TEST(run_affinity_last_cpu)
{
	char runs[1024];
	snprintf(runs, sizeof(runs),
	         "[run pinlast]\nsuite=netperf\nruntime=5\nclient.arg=/bin/cat\n"
	         "client.arg=%s/tests/fixtures/netperf/tcp_stream-cC.txt\nclient.cpus=last\n"
	         "[run badrange]\nsuite=netperf\nruntime=5\nclient.arg=/bin/true\n"
	         "client.cpus=1-last\n",
	         getenv("BB_TOP") ? getenv("BB_TOP") : ".");
	setup(runs);
	snprintf(b.online, sizeof(b.online), "0");
	run_one(&b, 0);
	run_one(&b, 1);
	char *st = STATUS("pinlast", "1");
	CHECK_CONTAINS(st, "\"cpus\": \"0\"");
	CHECK_INT(b.run_failed[0], ==, 0);
	CHECK_CONTAINS(STATUS("badrange", "1"),
	               "\"reason\": \"client 0: affinity 1-last: no such CPUs here (online: 0)\"");
	CHECK_INT(b.run_failed[1], ==, 1);
}

/*
 * The clients are forked (waiting on their gate) while the first server starts: when that
 * server never gets ready they are killed before the gate opens, never run, and are left out
 * of the records.
 */
TEST(run_clients_forked_early_never_run_when_the_server_fails)
{
	char runs[2048], flag[1024];
	snprintf(flag, sizeof(flag), "%s/client-ran", test_tmpdir());
	snprintf(runs, sizeof(runs),
	         "[run early]\nsuite=netperf\nruntime=5\ngrace=10\nclient.count=2\n"
	         "server.0.arg=/bin/sh\nserver.0.arg=-c\nserver.0.arg=sleep 0.3; exit 3\n"
	         "server.0.ready=tcp:127.0.0.1:1\n"
	         "client.arg=/bin/sh\nclient.arg=-c\nclient.arg=touch %s\n",
	         flag);
	setup(runs);
	CHECK_STR(init_root, test_tmpdir());
	run_one(&b, 0);
	char *st = STATUS("early", "1");
	CHECK_CONTAINS(st, "\"reason\": \"server 0 exited (exit status 3) before tcp:127.0.0.1:1 "
	                   "was ready\"");
	CHECK_CONTAINS(st, "\"clients\": []");
	CHECK(access(flag, F_OK) != 0);
	char path[2048];
	snprintf(path, sizeof(path), "%s" INIT_RESULTS_DIR "/runs/early/1/client.0.rusage",
	         init_root);
	CHECK(access(path, F_OK) != 0);
	/* the forked clients were reaped: nothing of them is left */
	CHECK_INT(waitpid(-1, NULL, WNOHANG), <, 1);
}
