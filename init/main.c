/*
 * benchboot's init, PID 1: the minimum, so that nothing benchboot does can take it down. It
 * mounts, opens the console, starts the runner (runner.c: everything else) as its child, then
 * only reaps. When the runner ends, PID 1 ends the boot as the plan said (power off, reboot,
 * a debug shell, or idle reaping orphans). When the runner died instead (a signal, or an exit
 * before boot-end), PID 1 first says `BENCHBOOT init-crash signal=N step=STEP` with the step
 * it was in (supervise.c): what the runner had synced to the results disk stays there, and
 * the kernel is not panicked ("Attempted to kill init"), which would blame the kernel under
 * test. PID 1 never returns from main and never exits.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "console_proto.h"
#include "init.h"

static struct boot boot;

/* Reap every child that exited; returns the wait status of `watch` when it was one of them. */
static int reap(pid_t watch, int *watch_status)
{
	int found = 0, status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		if (pid == watch) {
			*watch_status = status;
			found = 1;
		}
	return found;
}

static void end_now(int how);

/*
 * Sleep until a child exits. Every other signal stays blocked and is dropped, but the three
 * that BusyBox's halt, poweroff and reboot send to PID 1 (SIGUSR1, SIGUSR2, SIGTERM; sinit
 * maps its own the same way): those end the boot at once, as typed in the debug shell.
 */
static void wait_child(const sigset_t *set)
{
	siginfo_t info;
	for (;;) {
		switch (sigwaitinfo(set, &info)) {
		case SIGCHLD:
			return;
		case SIGUSR1: /* halt: a machine that stays on is of no use to a lab; power off */
		case SIGUSR2:
			end_now(RB_POWER_OFF);
			break;
		case SIGTERM:
			end_now(RB_AUTOBOOT);
			break;
		}
	}
}

static void debug_shell(const sigset_t *set)
{
	say("benchboot.debug=1: shell on the console; exit it to finish the boot");
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setsid();
		ioctl(0, TIOCSCTTY, 1);
		execl("/bin/sh", "sh", NULL);
		execl("/bin/busybox", "sh", NULL);
		_exit(127);
	}
	int status;
	while (pid > 0 && !reap(pid, &status))
		wait_child(set);
}

/* Power off (RB_POWER_OFF) or reboot (RB_AUTOBOOT) now; returns only when that failed. */
static void end_now(int how)
{
	int reboot = how == RB_AUTOBOOT;
	say(reboot ? "rebooting" : "powering off");
	sync();
	tcdrain(1); /* the last lines must leave the serial port before the power does */
	init_ops->reboot(how);
	say("%s failed: %s; idling", reboot ? "reboot" : "power off", strerror(errno));
}

/* End the boot as the runner left word: power off, reboot, or idle reaping orphans. */
static void finish(const struct init_shared *how, const sigset_t *set)
{
	int ignored;
	sync();
	if (how->debug)
		debug_shell(set);
	if (how->reboot || how->poweroff) {
		end_now(how->reboot ? RB_AUTOBOOT : RB_POWER_OFF);
	} else {
		say("poweroff=0: done, idling (the machine stays up)");
	}
	for (;;) {
		reap(0, &ignored);
		wait_child(set);
	}
}

int main(int argc, char **argv)
{
	struct boot *b = &boot;
	sigset_t set;
	int status = 0;

	b->t_exec_ms = init_now_ms();
	init_block_signals(&set);
	b->mount_failures = mount_early();
	console_setup();
	init_ops->reboot(RB_DISABLE_CAD);

	/* map, then fork: without the shared page PID 1 could not tell how the runner ended */
	char cmdline[4096];
	if (init_read_line("/proc/cmdline", cmdline, sizeof(cmdline)))
		*cmdline = 0;
	init_crash_switch(cmdline); /* benchboot.debug.crash=map: the mapping fails on purpose */
	const char *what = "no shared page";
	pid_t runner = -1;
	int rc = init_shared_map();
	if (!rc && (runner = fork()) < 0) {
		rc = -errno;
		what = "fork";
	}
	if (runner == 0) {
		/* the benchmarks' orphans come back to the runner, which counts and reaps them */
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		runner_main(b);
		_exit(0);
	}
	if (runner < 0) {
		say("cannot start the runner as a child (%s: %s): running it in PID 1", what,
		    strerror(-rc));
		runner_main(b);
		finish(init_shared, &set);
	}
	while (!reap(runner, &status))
		wait_child(&set);

	char line[512];
	struct init_shared seen = *init_shared;
	if (init_crash_line(&seen, status, line, sizeof(line))) {
		machine("%s", line);
		say("benchboot's init crashed (%s in step %s): what was synced to the results disk "
		    "before stays there; ending the boot",
		    WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exited early", seen.step);
	}
	finish(&seen, &set);
	return 0;
}
