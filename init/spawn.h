/*
 * The one way the init starts a child process: a struct spawn says how the child is set up,
 * spawn() forks it (straight into a cgroup when asked) and sets it up in one fixed order:
 *
 *   1. early(early_arg)                   (perf: its debug hang switch, on the init's stdio)
 *   2. the signal mask emptied            (SPAWN_MASK_FIRST)
 *   3. a process group of its own         (new_pgrp)
 *   4. the fds of close_fds closed        (the gate's write end, the writer's other end)
 *   5. stdin, stdout, stderr: the paths opened (stdin read-only, the others truncated, 0644),
 *      then dup2'd onto 0, 1, 2 with the fds given; one that cannot be opened is left as the
 *      init's. The opened fds stay open (closed in 8 when asked; perf keeps its /dev/null)
 *   6. moves: each fd to its fixed number without close-on-exec (perf record's --control
 *      fd:3,4), out of the way first; a move that fails ends the child with 126
 *   7. the gate: one byte read from gate_fd, or its end (every writer closed)
 *   8. every fd from 3 up closed, but the moved ones (close_others)
 *   9. oom_score_adj written, SIGPIPE back to its default (sigpipe_default)
 *  10. the signal mask emptied            (SPAWN_MASK_AT_EXEC)
 *  11. fn(arg), the child then exits with its return; or else execve(path, argv, envp) (envp
 *      NULL: the init's environment), 127 when it fails (with a line on stderr when
 *      say_exec_error)
 *
 * With cgroup_fd >= 0 the child is cloned into that cgroup (clone3 CLONE_INTO_CGROUP, cgroup v2:
 * no migration afterwards, which costs an RCU grace period per process); `placed` says whether
 * that worked, otherwise it was a plain fork and the caller moves the child. After a raw clone3
 * the child must not malloc: argv and path are made before, in the parent.
 */
#ifndef BENCHBOOT_INIT_SPAWN_H
#define BENCHBOOT_INIT_SPAWN_H

#include <sys/types.h>

#define SPAWN_MAX_FDS 2

enum spawn_mask {
	SPAWN_MASK_KEEP,    /* the init's signal mask, as it is */
	SPAWN_MASK_FIRST,   /* emptied before anything else (a gated child dies of a SIGTERM) */
	SPAWN_MASK_AT_EXEC, /* emptied just before fn or exec */
};

struct spawn_move {
	int fd, to;
};

struct spawn {
	void (*early)(void *arg);
	void *early_arg;
	enum spawn_mask mask;
	int new_pgrp;
	int close_fds[SPAWN_MAX_FDS];
	size_t nclose;
	/* the child's stdin, stdout, stderr: a path, or an fd of the parent (-1: neither) */
	const char *stdin_path, *stdout_path, *stderr_path;
	int stdin_fd, stdout_fd, stderr_fd;
	struct spawn_move moves[SPAWN_MAX_FDS];
	size_t nmoves;
	int gate_fd; /* -1: no gate */
	int close_others;
	const char *oom_score_adj; /* NULL: the init's */
	int sigpipe_default;
	int cgroup_fd; /* -1: the init's cgroup */
	int placed;    /* set by spawn(): the child was cloned into cgroup_fd */
	/* what the child runs: fn(arg), or path with argv (NULL-terminated) and envp */
	int (*fn)(void *arg);
	void *arg;
	const char *path;
	char *const *argv;
	char *const *envp;
	int say_exec_error; /* "benchboot: cannot run ARGV0: ERROR" on stderr */
};

#define SPAWN_INIT                                                                                 \
	{                                                                                          \
		.stdin_fd = -1, .stdout_fd = -1, .stderr_fd = -1, .gate_fd = -1, .cgroup_fd = -1   \
	}

/* Start the child s describes. Its pid, or -errno (errno as fork or clone3 left it). */
pid_t spawn(struct spawn *s);

#endif
