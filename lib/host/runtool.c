/* Running a tool to its end; see runtool.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/bytebuf.h"
#include "host/errbuf.h"
#include "host/runtool.h"

/* In the child: stdout where asked, then argv[0] by $PATH, then in each of dirs. */
static void exec_tool(const struct bb_tool *t, int out_fd)
{
	if (t->out == BB_TOOL_TO_NULL)
		out_fd = open("/dev/null", O_WRONLY);
	if (t->out == BB_TOOL_TO_LOG) {
		out_fd = open(t->log, O_WRONLY | O_APPEND | O_CREAT, 0666);
		if (out_fd < 0)
			_exit(126);
		dup2(out_fd, 2);
	}
	if (out_fd >= 0)
		dup2(out_fd, 1);
	if (t->env_name)
		setenv(t->env_name, t->env_value, 1);
	if (strchr(t->argv[0], '/'))
		execv(t->argv[0], t->argv);
	else
		execvp(t->argv[0], t->argv);
	for (size_t i = 0; t->dirs && t->dirs[i]; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", t->dirs[i], t->argv[0]);
		execv(path, t->argv);
	}
	_exit(127);
}

int bb_tool_run(const struct bb_tool *t, int *status, char *err, size_t errlen)
{
	int fds[2] = {-1, -1}, rc = 0;
	if (t->out == BB_TOOL_CAPTURE && pipe2(fds, O_CLOEXEC) < 0)
		return bb_errbuf_fail(err, errlen, -errno, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		rc = bb_errbuf_fail(err, errlen, -errno, "unable to fork: %s", strerror(errno));
		goto out_close;
	}
	if (pid == 0)
		exec_tool(t, t->out == BB_TOOL_CAPTURE ? fds[1] : 2);
	if (t->out == BB_TOOL_CAPTURE) {
		char buf[8192];
		ssize_t n;
		close(fds[1]);
		fds[1] = -1;
		while ((n = read(fds[0], buf, sizeof(buf))) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 || bb_bytebuf_append(t->captured, buf, (size_t)n)) {
				rc = bb_errbuf_fail(err, errlen, -EIO,
				                    "reading the output of %s failed", t->argv[0]);
				break;
			}
		}
	}
	if (t->tick && t->tick_s && t->out != BB_TOOL_CAPTURE) {
		pid_t got;
		time_t start = time(NULL);
		unsigned next = t->tick_s;
		while ((got = waitpid(pid, status, WNOHANG)) == 0) {
			sleep(1);
			unsigned s = (unsigned)(time(NULL) - start);
			if (s >= next) {
				t->tick(t->tick_ctx, s);
				next = s + t->tick_s;
			}
		}
		if (got == pid)
			goto waited;
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR) {
			rc = bb_errbuf_fail(err, errlen, -errno, "waitpid: %s", strerror(errno));
			goto out_close;
		}
waited:
	if (!rc && WIFEXITED(*status) && WEXITSTATUS(*status) == 127)
		rc = bb_errbuf_fail(err, errlen, -ENOEXEC, "unable to run %s: not found",
		                    t->argv[0]);
out_close:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	return rc;
}
