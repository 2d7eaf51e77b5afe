/* The one way the init starts a child process (spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "init.h"
#include "spawn.h"

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid,
	    set_tid_size, cgroup;
};

/* fork() straight into the cgroup of cgfd when it is >= 0 and the kernel can; *placed says so. */
static pid_t fork_into(int cgfd, int *placed)
{
	*placed = 0;
	if (cgfd >= 0) {
		struct clone3_args a = {
		    .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD, .cgroup = (uint64_t)cgfd};
		long pid = syscall(SYS_clone3, &a, sizeof(a));
		if (pid >= 0) {
			*placed = 1;
			return (pid_t)pid;
		}
	}
	return fork();
}

static void empty_mask(void)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Steps 5 and 6 of spawn.h: stdin, stdout, stderr, then the moves. */
static void child_fds(const struct spawn *s)
{
	const char *paths[3] = {s->stdin_path, s->stdout_path, s->stderr_path};
	int fds[3] = {s->stdin_fd, s->stdout_fd, s->stderr_fd};
	for (int i = 0; i < 3; i++)
		if (paths[i])
			fds[i] = open(paths[i], i ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY, 0644);
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0)
			dup2(fds[i], i);
	/* out of the way first (a move's fd may be another's target), then dup2'd there without
	 * close-on-exec */
	int tmp[SPAWN_MAX_FDS];
	for (size_t i = 0; i < s->nmoves; i++)
		if ((tmp[i] = fcntl(s->moves[i].fd, F_DUPFD_CLOEXEC, 10)) < 0)
			_exit(126);
	for (size_t i = 0; i < s->nmoves; i++)
		if (dup2(tmp[i], s->moves[i].to) < 0)
			_exit(126);
}

/* Step 8: every fd from 3 up, but the moved ones. */
static void close_others(const struct spawn *s)
{
	int keep_to = 2;
	for (size_t i = 0; i < s->nmoves; i++)
		if (s->moves[i].to > keep_to)
			keep_to = s->moves[i].to;
	for (int fd = 3; fd <= keep_to; fd++) {
		size_t i;
		for (i = 0; i < s->nmoves && s->moves[i].to != fd; i++)
			;
		if (i == s->nmoves)
			close(fd);
	}
	/* nothing of the init's leaks into the child (libext2fs opens the results disk without
	 * O_CLOEXEC) */
	if (syscall(SYS_close_range, (unsigned)keep_to + 1, ~0u, 0))
		for (int fd = keep_to + 1; fd < 1024; fd++)
			close(fd);
}

static void child(const struct spawn *s)
{
	if (s->early)
		s->early(s->early_arg);
	if (s->mask == SPAWN_MASK_FIRST)
		empty_mask();
	if (s->new_pgrp)
		setpgid(0, 0);
	for (size_t i = 0; i < s->nclose; i++)
		close(s->close_fds[i]);
	child_fds(s);
	if (s->gate_fd >= 0) {
		char c;
		while (read(s->gate_fd, &c, 1) < 0 && errno == EINTR)
			;
	}
	if (s->close_others)
		close_others(s);
	if (s->oom_score_adj)
		init_write("/proc/self/oom_score_adj", s->oom_score_adj, 0);
	if (s->sigpipe_default)
		signal(SIGPIPE, SIG_DFL);
	if (s->mask == SPAWN_MASK_AT_EXEC)
		empty_mask();
	if (s->fn)
		_exit(s->fn(s->arg));
	if (s->envp)
		execve(s->path, s->argv, s->envp);
	else
		execv(s->path, s->argv);
	if (s->say_exec_error)
		dprintf(2, "benchboot: cannot run %s: %s\n", s->argv[0], strerror(errno));
	_exit(127);
}

pid_t spawn(struct spawn *s)
{
	pid_t pid = fork_into(s->cgroup_fd, &s->placed);
	if (pid < 0)
		return -errno;
	if (pid == 0)
		child(s);
	return pid;
}
