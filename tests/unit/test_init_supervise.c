/*
 * init/supervise.c: what PID 1 learns from the runner's shared page after the runner ended.
 * Each case forks a real child that maps nothing of its own: it writes its steps into the page
 * PID 1 mapped before the fork, as the runner does, and crashes (benchboot.debug.crash) or
 * exits; the parent reads the page after the child is gone, as PID 1 does.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "init.h"

/* Run fn in a child sharing init_shared; returns its wait status. */
static int in_child(void (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		fn();
		_exit(0);
	}
	int status;
	CHECK_INT(waitpid(pid, &status, 0), ==, pid);
	return status;
}

static void crash_in_net(void)
{
	init_crash_switch("console=ttyS0 quiet benchboot.debug.crash=net benchboot.poweroff=1");
	init_step("plan", NULL, 0);
	init_shared->poweroff = 0; /* what the plan said, before the crash */
	init_step("modules", NULL, 0);
	init_step("net", NULL, 0);
	init_step("cgroup", NULL, 0); /* never reached */
}

TEST(crash_switch_kills_the_child_in_its_step_and_the_page_survives)
{
	CHECK_INT(init_shared_map(), ==, 0);
	CHECK_INT(init_shared->poweroff, ==, 1); /* the default before the plan is read */
	int status = in_child(crash_in_net);
	CHECK(WIFSIGNALED(status));
	CHECK_INT(WTERMSIG(status), ==, SIGSEGV);
	CHECK_STR(init_shared->step, "net");
	CHECK_INT(init_shared->poweroff, ==, 0);
	char line[512];
	CHECK_INT(init_crash_line(init_shared, status, line, sizeof(line)), ==, 1);
	CHECK_STR(line, "init-crash signal=11 step=net");
}

static void crash_in_second_iteration(void)
{
	init_crash_switch("benchboot.debug.crash=run-2");
	init_step("run-1", "SCTP_STREAM.prsctp_enable=0", 1);
	init_step("results", NULL, 0);
	init_step("run-1", "SCTP_STREAM.prsctp_enable=0", 1);
	init_step("run-2", "SCTP_STREAM.prsctp_enable=1", 1);
}

TEST(crash_in_a_run_names_the_run_and_its_iteration)
{
	CHECK_INT(init_shared_map(), ==, 0);
	int status = in_child(crash_in_second_iteration);
	CHECK(WIFSIGNALED(status));
	char line[512];
	CHECK_INT(init_crash_line(init_shared, status, line, sizeof(line)), ==, 1);
	CHECK_STR(line, "init-crash signal=11 step=run-2 run=SCTP_STREAM.prsctp_enable=1 iter=1");
}

static void no_switch_finishes(void)
{
	init_crash_switch("benchboot.debug.crash=nosuchstep xbenchboot.debug.crash=net");
	init_step("net", NULL, 0);
	init_step("finish", NULL, 0);
	init_shared->boot_end = 1;
}

TEST(a_runner_that_finished_is_no_crash)
{
	CHECK_INT(init_shared_map(), ==, 0);
	int status = in_child(no_switch_finishes);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	char line[512] = "";
	CHECK_INT(init_crash_line(init_shared, status, line, sizeof(line)), ==, 0);
	CHECK_STR(line, "");
}

static void exits_early(void)
{
	init_crash_switch("");
	init_step("cgroup", NULL, 0);
	_exit(3);
}

static void exits_zero_before_boot_end(void)
{
	init_step("finish", NULL, 0);
}

TEST(an_exit_before_boot_end_is_reported_with_its_status)
{
	char line[512];
	CHECK_INT(init_shared_map(), ==, 0);
	int status = in_child(exits_early);
	CHECK_INT(init_crash_line(init_shared, status, line, sizeof(line)), ==, 1);
	CHECK_STR(line, "init-crash signal=0 exit=3 step=cgroup");
	status = in_child(exits_zero_before_boot_end);
	CHECK_INT(init_crash_line(init_shared, status, line, sizeof(line)), ==, 1);
	CHECK_STR(line, "init-crash signal=0 exit=0 step=finish");
}

static void scribbles(void)
{
	/* a runner gone wrong may leave anything in the page */
	memset(init_shared->step, 'x', sizeof(init_shared->step)); /* no terminating NUL */
	memcpy(init_shared->step, "a b\nBENCHBOOT", 13);
	memset(init_shared->run, 0, sizeof(init_shared->run));
	init_shared->iter = 7;
	raise(SIGABRT);
}

TEST(pid1_copies_the_page_bounded_and_filtered)
{
	char line[512];
	CHECK_INT(init_shared_map(), ==, 0);
	int status = in_child(scribbles);
	CHECK(WIFSIGNALED(status));
	CHECK_INT(init_crash_line(init_shared, status, line, sizeof(line)), ==, 1);
	CHECK(!strchr(line, '\n'));
	CHECK_INT(strncmp(line, "init-crash signal=6 step=a_b_BENCHBOOTxxx", 41), ==, 0);
	CHECK_INT(strlen(line), <, 40 + sizeof(init_shared->step));
	CHECK(!strstr(line, " run="));
}
