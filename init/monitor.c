/* The monitors' sampling process and their stats (monitor.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "init.h"
#include "monitor.h"
#include "parse_monitor.h"
#include "readall.h"

#define MONITOR_MAX 16
#define STOP_WAIT_MS 2000

static pid_t sampler_pid;
static int sampler_exited;

static double boottime_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One sample of m: `time: T`, then its files as read, in one write. */
static void sample(const struct bb_monitor *m, int fd)
{
	char head[64];
	size_t cap = 0, len = 0;
	char *buf = NULL;
	int n = snprintf(head, sizeof head, "time: %.6f\n", boottime_s());
	for (size_t f = 0; m->files[f]; f++) {
		char *data = NULL, mark[64];
		size_t dlen = 0;
		int ml = m->files[1] ? snprintf(mark, sizeof mark, "==> %s <==\n", m->files[f]) : 0;
		int in = open(init_path("%s", m->files[f]), O_RDONLY | O_CLOEXEC);
		if (in >= 0) {
			bb_read_fd(in, &data, &dlen);
			close(in);
		}
		size_t need = len + (size_t)ml + dlen + (size_t)n + 2;
		char *nb = need > cap ? realloc(buf, cap = need * 2) : buf;
		if (!nb) {
			free(data);
			break;
		}
		buf = nb;
		if (!len) {
			memcpy(buf, head, (size_t)n);
			len = (size_t)n;
		}
		memcpy(buf + len, mark, (size_t)ml);
		len += (size_t)ml;
		if (data)
			memcpy(buf + len, data, dlen);
		len += dlen;
		if (len && buf[len - 1] != '\n')
			buf[len++] = '\n';
		free(data);
	}
	for (size_t off = 0; buf && off < len;) {
		ssize_t w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	free(buf);
}

static void sample_when(const struct bb_monitor **m, const int *fd, size_t n,
                        enum bb_monitor_when a, enum bb_monitor_when b)
{
	for (size_t i = 0; i < n; i++)
		if (m[i]->when == a || m[i]->when == b)
			sample(m[i], fd[i]);
}

/* The sampling process: never returns. */
static void sampler(const struct bb_strv *names, const char *dir)
{
	const struct bb_monitor *m[MONITOR_MAX];
	int fd[MONITOR_MAX];
	size_t n = 0;
	double interval = 0;
	sigset_t term;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_SETMASK, &term, NULL);
	for (size_t i = 0; i < names->n && n < MONITOR_MAX; i++) {
		const struct bb_monitor *mon = bb_monitor_find(names->v[i]);
		if (!mon)
			continue;
		int f = open(init_path("%s/monitor.%s", dir, mon->name),
		             O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (f < 0)
			continue;
		if (mon->when == BB_MON_EVERY && (!interval || mon->interval_s < interval))
			interval = mon->interval_s;
		m[n] = mon;
		fd[n++] = f;
	}
	sample_when(m, fd, n, BB_MON_EVERY, BB_MON_START_END);
	double next = boottime_s() + interval;
	for (;;) {
		int sig;
		if (interval) {
			double wait = next - boottime_s();
			if (wait < 0)
				wait = 0;
			struct timespec ts = {(time_t)wait,
			                      (long)((wait - (double)(time_t)wait) * 1e9)};
			sig = sigtimedwait(&term, NULL, &ts);
		} else
			sig = sigwaitinfo(&term, NULL);
		if (sig == SIGTERM)
			break;
		if (sig < 0 && errno == EAGAIN) {
			/* LKP's monitors sample every interval until the end, not at the end */
			sample_when(m, fd, n, BB_MON_EVERY, BB_MON_EVERY);
			next += interval;
			if (next < boottime_s())
				next = boottime_s() + interval;
		}
	}
	sample_when(m, fd, n, BB_MON_START_END, BB_MON_END);
	_exit(0);
}

pid_t monitor_start(const struct bb_strv *names, const char *dir)
{
	if (!names->n)
		return 0;
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		sampler(names, dir);
	sampler_pid = pid;
	sampler_exited = 0;
	return pid;
}

int monitor_reaped(pid_t pid, int status)
{
	(void)status;
	if (pid <= 0 || pid != sampler_pid)
		return 0;
	sampler_exited = 1;
	return 1;
}

void monitor_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	double deadline = init_now_ms() + STOP_WAIT_MS;
	while (!sampler_exited) {
		int status;
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid || (r < 0 && errno == ECHILD))
			break;
		if (init_now_ms() >= deadline) {
			say("monitors: the sampling process did not end within %d s: killed",
			    STOP_WAIT_MS / 1000);
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		struct timespec ts = {0, 5 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	sampler_pid = 0;
}

void monitor_stats(const struct bb_strv *names, const char *dir, struct bb_stats *out)
{
	for (size_t i = 0; i < names->n; i++) {
		const struct bb_monitor *m = bb_monitor_find(names->v[i]);
		char path[600], err[256] = "";
		if (!m)
			continue;
		snprintf(path, sizeof path, "%s/monitor.%s", dir, m->name);
		char *raw = init_read(path, NULL);
		if (!raw) {
			say("monitor %s: cannot read %s: %s", m->name, path, strerror(errno));
			continue;
		}
		int r = bb_monitor_stats(m, raw, out, err, sizeof err);
		if (r)
			say("monitor %s: %s", m->name, r == -EINVAL ? err : strerror(-r));
		free(raw);
	}
}
