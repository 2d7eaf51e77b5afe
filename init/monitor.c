/* The monitors' sampling process and their stats (monitor.h). */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
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
#include "monitor_cpu.h"
#include "monitor_perf.h"
#include "monitor_status.h"
#include "parse/parse_monitor.h"
#include "plan/plan.h"
#include "readall.h"
#include "spawn.h"

#define MONITOR_MAX 16
#define STOP_WAIT_MS 2000

static pid_t sampler_pid;
static int sampler_exited;
static const struct bb_plan *options_plan; /* monitor.NAME.OPTION keys (monitor_use_plan) */

void monitor_use_plan(const struct bb_plan *plan)
{
	options_plan = plan;
}

/*
 * When m samples and how often: the job's `interval:` (plan key monitor.NAME.interval) for a
 * periodic monitor, LKP's own default otherwise; a two-snapshot monitor given an interval
 * samples every interval instead, as LKP's interrupts, softirqs and cpuidle monitors do.
 */
static enum bb_monitor_when timing(const struct bb_monitor *m, double *interval)
{
	const char *v =
	    options_plan ? bb_plan_monitor_option(options_plan, m->name, "interval") : NULL;
	double x = v ? strtod(v, NULL) : 0;
	*interval = m->interval_s;
	if (x <= 0 || m->when == BB_MON_END)
		return m->when;
	*interval = x;
	return BB_MON_EVERY;
}

static double boottime_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Append a file's text to the sample being built; NULL when out of memory (buf freed). */
static char *put(char *buf, size_t *len, size_t *cap, const char *data, size_t n)
{
	if (*len + n + 2 > *cap) {
		char *nb = realloc(buf, *cap = (*len + n + 2) * 2);
		if (!nb) {
			free(buf);
			return NULL;
		}
		buf = nb;
	}
	memcpy(buf + *len, data, n);
	*len += n;
	return buf;
}

/* Read path (with init_root) into the sample, after `==> PATH <==` when mark; 0 or -errno. */
static int put_file(char **buf, size_t *len, size_t *cap, const char *path, int mark)
{
	char *data = NULL, head[4200];
	size_t dlen = 0;
	int in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	bb_read_fd(in, &data, &dlen);
	close(in);
	int hl = mark ? snprintf(head, sizeof head, "==> %s <==\n", path + strlen(init_root)) : 0;
	if (!(*buf = put(*buf, len, cap, head, (size_t)hl)) ||
	    !(*buf = put(*buf, len, cap, data ? data : "", dlen))) {
		free(data);
		return -ENOMEM;
	}
	if (*len && (*buf)[*len - 1] != '\n')
		(*buf)[(*len)++] = '\n';
	free(data);
	return 0;
}

/* One sample of m: `time: T`, then its files as read (a glob's matches in order), one write. */
static void sample(const struct bb_monitor *m, int fd)
{
	char head[64], *buf = NULL;
	size_t cap = 0, len = 0;
	int n = snprintf(head, sizeof head, "time: %.6f\n", boottime_s());
	if (!(buf = put(buf, &len, &cap, head, (size_t)n)))
		return;
	int several = m->files[1] && !m->one_of;
	for (size_t f = 0; m->files[f] && buf; f++) {
		if (strchr(m->files[f], '*')) {
			glob_t g;
			if (!glob(init_path("%s", m->files[f]), 0, NULL, &g))
				for (size_t i = 0; i < g.gl_pathc && buf; i++)
					put_file(&buf, &len, &cap, g.gl_pathv[i], 1);
			globfree(&g);
			continue;
		}
		int r = put_file(&buf, &len, &cap, init_path("%s", m->files[f]), several);
		if (m->one_of && r != -ENOENT)
			break; /* the first that opens, or a read error said in the status */
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

/* 1 when debugfs is mounted on /sys/kernel/debug (/proc/self/mounts). */
static int debugfs_mounted(void)
{
	char *mounts = init_read("/proc/self/mounts", NULL);
	int yes = mounts && strstr(mounts, " /sys/kernel/debug debugfs ") != NULL;
	free(mounts);
	return yes;
}

/* Why path could not be opened, with what it says about the machine. */
static void reason(const struct bb_monitor *m, const char *path, int err, char *why, size_t len)
{
	const char *hint = "";
	if (!strcmp(m->name, "slabinfo") && err == ENOENT)
		hint = " (kernel without CONFIG_SLUB_DEBUG?)";
	else if (!strcmp(m->name, "sched_debug") && err == ENOENT)
		hint = debugfs_mounted() ? " (kernel without CONFIG_SCHED_DEBUG?)"
		                         : " (debugfs is not mounted on /sys/kernel/debug)";
	size_t l = strlen(why);
	snprintf(why + l, len - l, "%s%s: %s%s", l ? "; " : "", path, strerror(err), hint);
}

/* Whether m can be sampled here: 1, or 0 with why, its status line (unavailable: ...). */
static int probe(const struct bb_monitor *m, char *why, size_t len)
{
	char what[900] = "";
	int ok = !m->one_of;
	for (size_t f = 0; m->files[f]; f++) {
		if (strchr(m->files[f], '*')) {
			glob_t g;
			int r = glob(init_path("%s", m->files[f]), 0, NULL, &g);
			globfree(&g);
			if (r) {
				char drv[64] = "";
				if (init_read_line("/sys/devices/system/cpu/cpuidle/current_driver",
				                   drv, sizeof drv))
					snprintf(drv, sizeof drv, "no cpuidle in sysfs");
				/* the one glob monitor: cpuidle */
				snprintf(
				    what, sizeof what,
				    "no idle states under /sys/devices/system/cpu/cpu*/cpuidle "
				    "(cpuidle driver: %s): this kernel has no cpuidle driver for "
				    "these CPUs (QEMU's TCG CPUs offer none)",
				    drv);
				ok = 0;
				break;
			}
			continue;
		}
		int fd = open(init_path("%s", m->files[f]), O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			if (m->one_of) {
				ok = 1;
				break;
			}
			continue;
		}
		reason(m, m->files[f], errno, what, sizeof what);
		if (!m->one_of)
			ok = 0;
	}
	if (!ok)
		snprintf(why, len, "unavailable: %s", what);
	return ok;
}

/* The sampling process: never returns. */
static void sampler(const struct bb_strv *names, const char *dir)
{
	const struct bb_monitor *m[MONITOR_MAX];
	int fd[MONITOR_MAX];
	double next[MONITOR_MAX], every_s[MONITOR_MAX];
	enum bb_monitor_when when[MONITOR_MAX];
	size_t n = 0;
	sigset_t term;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_SETMASK, &term, NULL);
	for (size_t i = 0; i < names->n && n < MONITOR_MAX; i++) {
		const struct bb_monitor *mon = bb_monitor_find(names->v[i]);
		char why[1024];
		if (!mon)
			continue; /* not one of these (perf-stat, ...): its own code records it */
		if (!probe(mon, why, sizeof why)) {
			monitor_status(dir, mon->name, why, NULL);
			continue;
		}
		int f = open(init_path("%s/monitor.%s", dir, mon->name),
		             O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (f < 0) {
			snprintf(why, sizeof why, "unavailable: cannot create %s/monitor.%s: %s",
			         dir, mon->name, strerror(errno));
			monitor_status(dir, mon->name, why, NULL);
			continue;
		}
		monitor_status(dir, mon->name, "ok", NULL);
		when[n] = timing(mon, &every_s[n]);
		m[n] = mon;
		fd[n++] = f;
	}
	double t0 = boottime_s();
	for (size_t i = 0; i < n; i++) {
		next[i] = t0 + every_s[i];
		if (when[i] == BB_MON_EVERY || when[i] == BB_MON_START_END)
			sample(m[i], fd[i]);
	}
	for (;;) {
		int sig, every = 0;
		double due = 0;
		for (size_t i = 0; i < n; i++)
			if (when[i] == BB_MON_EVERY && (!every++ || next[i] < due))
				due = next[i];
		if (every) {
			double wait = due - boottime_s();
			if (wait < 0)
				wait = 0;
			struct timespec ts = {(time_t)wait,
			                      (long)((wait - (double)(time_t)wait) * 1e9)};
			sig = sigtimedwait(&term, NULL, &ts);
		} else
			sig = sigwaitinfo(&term, NULL);
		if (sig == SIGTERM)
			break;
		if (sig >= 0 || errno != EAGAIN)
			continue;
		/* LKP's monitors sample every interval until the end, not at the end */
		double now = boottime_s();
		for (size_t i = 0; i < n; i++) {
			if (when[i] != BB_MON_EVERY || next[i] > now)
				continue;
			sample(m[i], fd[i]);
			next[i] += every_s[i];
			if (next[i] < boottime_s())
				next[i] = boottime_s() + every_s[i];
		}
	}
	for (size_t i = 0; i < n; i++)
		if (when[i] == BB_MON_START_END || when[i] == BB_MON_END)
			sample(m[i], fd[i]);
	_exit(0);
}

struct sampler_args {
	const struct bb_strv *names;
	const char *dir;
};

static int sampler_child(void *arg)
{
	const struct sampler_args *a = arg;
	sampler(a->names, a->dir);
	return 0; /* (the sampler ends with _exit) */
}

pid_t monitor_start(const struct bb_strv *names, const char *dir)
{
	monitor_cpu_reset();
	if (!names->n)
		return 0;
	monitor_perf_start(names, dir); /* perf-stat, perf-profile: processes of their own */
	struct sampler_args a = {names, dir};
	struct spawn s = SPAWN_INIT;
	s.fn = sampler_child;
	s.arg = &a;
	pid_t pid = spawn(&s);
	if (pid < 0)
		return pid;
	sampler_pid = pid;
	sampler_exited = 0;
	return pid;
}

int monitor_reaped(pid_t pid, int status, const struct rusage *ru)
{
	if (monitor_perf_reaped(pid, status)) {
		monitor_cpu_add(ru);
		return 1;
	}
	if (pid <= 0 || pid != sampler_pid)
		return 0;
	sampler_exited = 1;
	monitor_cpu_add(ru);
	return 1;
}

void monitor_stop(pid_t pid)
{
	monitor_perf_stop();
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	double deadline = init_now_ms() + STOP_WAIT_MS;
	while (!sampler_exited) {
		int status;
		struct rusage ru;
		pid_t r = wait4(pid, &status, WNOHANG, &ru);
		if (r == pid)
			monitor_cpu_add(&ru);
		if (r == pid || (r < 0 && errno == ECHILD))
			break;
		if (init_now_ms() >= deadline) {
			say("monitors: the sampling process did not end within %d s: killed",
			    STOP_WAIT_MS / 1000);
			kill(pid, SIGKILL);
			while ((r = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR)
				;
			if (r == pid)
				monitor_cpu_add(&ru);
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
		char path[600], err[256] = "", why[1024];
		if (!m || !monitor_status_ok(dir, m->name))
			continue; /* unavailable: no stats, never zeros */
		snprintf(path, sizeof path, "%s/monitor.%s", dir, m->name);
		char *raw = init_read(path, NULL);
		if (!raw) {
			snprintf(why, sizeof why, "unavailable: cannot read %s: %s", path,
			         strerror(errno));
			say("monitor %s: %s", m->name, why + 13);
			monitor_status(dir, m->name, why, NULL);
			continue;
		}
		size_t before = out->n;
		int r = bb_monitor_stats(m, raw, out, err, sizeof err);
		if (r) {
			snprintf(why, sizeof why, "unavailable: %s: not parsed: %s", path,
			         r == -EINVAL ? err : strerror(-r));
			say("monitor %s: %s", m->name, why + 13);
			out->n = before; /* no part of a monitor's stats */
			monitor_status(dir, m->name, why, NULL);
		} else if (out->n == before) {
			size_t samples = 0;
			for (const char *t = raw; (t = strstr(t, "time: ")); t++)
				samples += t == raw || t[-1] == '\n';
			snprintf(
			    why, sizeof why,
			    "note: no stats: %zu sample%s, every value 0 or no interval between "
			    "two samples (LKP drops such stats)\n",
			    samples, samples == 1 ? "" : "s");
			monitor_status(dir, m->name, "ok", why);
		}
		free(raw);
	}
	monitor_perf_stats(names, dir, out);
}
