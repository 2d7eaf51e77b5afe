/* perf-stat and perf-profile (monitor_perf.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "init.h"
#include "monitor_cpu.h"
#include "monitor_perf.h"
#include "monitor_status.h"
#include "parse/parse_perf.h"
#include "spawn.h"

#define PERF "/usr/bin/perf"
#define KALLSYMS "/tmp/benchboot-kallsyms"
#define KPTR "/proc/sys/kernel/kptr_restrict"
#define STOP_WAIT_S 30
/* perf report and perf script together, after the iteration: the default post-processing
 * budget (perf-profile: {budget: S}); past it they are stopped and the monitor is recorded
 * as unavailable with that reason, and the boot goes on */
#define BUDGET_S 600
/* a perf child is the OOM killer's first choice: perf, not the benchmark or the init */
#define PERF_OOM_ADJ "1000"
#define PERF_CTL_FD 3 /* perf record's --control fd:3,4 */
#define PERF_ACK_FD 4
#define PERF_READY_MAX_S 60 /* the benchmark waits at most this for perf record to be ready */
#define LKP_PERIOD "1000003"
/* cpu-clock: about SOFT_SAMPLES samples per CPU over the window, every 1 to 4 ms */
#define SOFT_SAMPLES 2500
#define SOFT_PERIOD_MIN 1000003LL
#define SOFT_PERIOD_MAX 4000003LL
#define NOT_STARTED 3 /* the controller's exit code: the window ended before its delay */

struct perfmon {
	const char *name;
	pid_t pid;
	int exited, status;
	int asked;
	double delay, duration; /* the controller's, seconds; duration 0: to the end */
	double pdelay;          /* perf-profile: the window's start, s into the measured window */
	double pduration;       /* perf-profile: the window's length, s */
	int ctl[2], ack[2];     /* perf-profile: perf record's --control pipe and its answers */
	int ready[2];           /* perf-profile: a byte from the controller once perf is ready */
	char event[32];         /* perf-profile: the event sampled */
	char notes[1024];       /* "note: ...\n" lines */
	char kptr[16];          /* perf-profile: kptr_restrict when it started */
};

static struct perfmon mons[] = {{.name = "perf-stat"}, {.name = "perf-profile"}};
#define NMONS (sizeof mons / sizeof mons[0])

static const struct bb_plan *win_plan;
static double win_runtime;
static char win_run[128]; /* the run, for the heartbeat lines */

void monitor_perf_window(const struct bb_plan *plan, double runtime)
{
	win_plan = plan;
	win_runtime = runtime;
}

void monitor_perf_run(const char *id)
{
	snprintf(win_run, sizeof win_run, "%s", id ? id : "");
}

/* benchboot.debug.crash=perf-report-hang (perf-script-hang, ...): this perf never answers, on
 * purpose (the post-processing budget then stops it); said on the init's console */
static void perf_hang_switch(void *arg)
{
	char *const *argv = arg;
	char point[48];
	snprintf(point, sizeof point, "perf-%s-hang", argv[1]);
	if (init_debug_switch_is(point)) {
		say("benchboot.debug.crash=%s: not answering, on purpose", point);
		for (;;)
			pause();
	}
}

/* A perf child: stdin from /dev/null, out on stdout, err on stderr (-1: the init's), perf
 * record's --control fds ctl and ack on fd:3,4 (-1: none), the OOM killer's first choice,
 * SIGPIPE at its default, the signal mask cleared; then perf with argv. Its pid or -errno. */
static pid_t spawn_perf(char *const argv[], int out, int err, int ctl, int ack)
{
	char path[4096]; /* init_path's buffer is the child's too (oom_score_adj) */
	snprintf(path, sizeof path, "%s", init_path("%s", PERF));
	struct spawn s = SPAWN_INIT;
	s.early = perf_hang_switch;
	s.early_arg = (void *)argv;
	s.stdin_path = "/dev/null";
	s.stdout_fd = out;
	s.stderr_fd = err;
	if (ctl >= 0 && ack >= 0) {
		s.moves[s.nmoves++] = (struct spawn_move){ctl, PERF_CTL_FD};
		s.moves[s.nmoves++] = (struct spawn_move){ack, PERF_ACK_FD};
	}
	s.oom_score_adj = PERF_OOM_ADJ;
	s.sigpipe_default = 1;
	s.mask = SPAWN_MASK_AT_EXEC;
	s.path = path;
	s.argv = argv;
	return spawn(&s);
}

/* A numeric option monitor.NAME.OPTION (>= 0), or def; a bad value is said and ignored. */
static double option(const char *name, const char *opt, double def)
{
	const char *v = win_plan ? bb_plan_monitor_option(win_plan, name, opt) : NULL;
	char *end;
	if (!v)
		return def;
	double d = strtod(v, &end);
	if (end == v || *end || !isfinite(d) || d < 0) {
		say("monitor %s: monitor.%s.%s=%s is not a number of seconds >= 0: %g used", name,
		    name, opt, v, def);
		return def;
	}
	return d;
}

static void add_note(struct perfmon *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_note(struct perfmon *m, const char *fmt, ...)
{
	size_t l = strlen(m->notes);
	va_list ap;
	if (l + 8 >= sizeof m->notes)
		return;
	l += (size_t)snprintf(m->notes + l, sizeof m->notes - l, "note: ");
	va_start(ap, fmt);
	vsnprintf(m->notes + l, sizeof m->notes - l - 1, fmt, ap);
	va_end(ap);
	l = strlen(m->notes);
	if (l + 1 < sizeof m->notes)
		strcat(m->notes, "\n");
}

/* The CPU PMU the kernel registered (none under QEMU's TCG: software events only). */
static int have_pmu(void)
{
	return !access(init_path("/sys/bus/event_source/devices/cpu"), F_OK) ||
	       !access(init_path("/sys/bus/event_source/devices/cpu_core"), F_OK);
}

/* perf_event_attr as of its first version (PERF_ATTR_SIZE_VER0, 64 bytes): the init is built
 * against musl without the kernel's headers. */
struct attr0 {
	uint32_t type, size;
	uint64_t config, sample_period, sample_type, read_format;
	uint64_t flags; /* bit 0 disabled, bits 15-16 precise_ip */
	uint32_t wakeup_events, bp_type;
	uint64_t config1;
};

/* Whether a hardware cycles sampling event with precise_ip opens: 0 or -errno. */
static int probe_cycles(int precise)
{
	struct attr0 a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = 0;   /* PERF_TYPE_HARDWARE */
	a.config = 0; /* PERF_COUNT_HW_CPU_CYCLES */
	a.sample_period = 1000003;
	a.flags = 1 | ((uint64_t)precise << 15);
	long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

/* The kernel log's `... generic registers: N` (LKP's perf_reg_num), or -1. */
static int generic_counters(void)
{
	int size = klogctl(10, NULL, 0); /* SYSLOG_ACTION_SIZE_BUFFER */
	if (size <= 0)
		return -1;
	char *buf = malloc((size_t)size + 1);
	if (!buf)
		return -1;
	int n = klogctl(3, buf, size), v = -1; /* SYSLOG_ACTION_READ_ALL */
	if (n > 0) {
		buf[n] = 0;
		const char *t = strstr(buf, "generic registers:");
		if (t)
			v = atoi(t + 18);
	}
	free(buf);
	return v;
}

/* Why perf cannot run here, or NULL: no perf binary, a kernel without perf events. */
static const char *missing(char *why, size_t len)
{
	if (access(init_path("%s", PERF), X_OK)) {
		snprintf(
		    why, len,
		    "unavailable: %s: %s (the image has no perf: benchboot build puts Debian's "
		    "linux-perf in images whose job asks for perf-stat or perf-profile)",
		    PERF, strerror(errno));
		return why;
	}
	if (access(init_path("/proc/sys/kernel/perf_event_paranoid"), F_OK)) {
		snprintf(why, len,
		         "unavailable: /proc/sys/kernel/perf_event_paranoid: %s (kernel without "
		         "CONFIG_PERF_EVENTS?)",
		         strerror(errno));
		return why;
	}
	return NULL;
}

static int sigwait_for(const sigset_t *set, double seconds)
{
	if (seconds < 0)
		return sigwaitinfo(set, NULL);
	struct timespec ts = {(time_t)seconds, (long)((seconds - floor(seconds)) * 1e9)};
	return sigtimedwait(set, NULL, &ts);
}

static double now_s(void)
{
	return init_now_ms() / 1e3;
}

/* Copy /proc/kallsyms (readable in full while kptr_restrict is 0) for perf report. */
static void copy_kallsyms(void)
{
	size_t len = 0;
	char *text = init_read("/proc/kallsyms", &len);
	if (!text)
		return;
	int fd = open(init_path("%s", KALLSYMS), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		for (size_t off = 0; off < len;) {
			ssize_t w = write(fd, text + off, len - off);
			if (w <= 0)
				break;
			off += (size_t)w;
		}
		close(fd);
	}
	free(text);
}

/*
 * The controller process of one perf monitor: waits delay (a stop before: exit NOT_STARTED),
 * runs argv with stdout and stderr on out (after head, when given), stops it with SIGINT after
 * duration (0: at the stop), waits for it. Never returns.
 */
/*
 * perf record with --control: "ping" it and wait for its "ack", which it sends once it has
 * set up and started its workload (its start-up takes seconds under TCG), at most
 * PERF_READY_MAX_S. 1 when perf exited meanwhile (its status in *status), -1 on a stop,
 * else 0.
 */
static int perf_ready(const struct perfmon *m, pid_t perf, const sigset_t *set, int *status)
{
	static const struct timespec none = {0, 0};
	if (perf < 0 || write(m->ctl[1], "ping\n", 5) < 0)
		return perf < 0;
	for (double dl = now_s() + PERF_READY_MAX_S; now_s() < dl;) {
		struct pollfd p = {.fd = m->ack[0], .events = POLLIN};
		int r = poll(&p, 1, 200);
		if (r > 0) {
			char buf[64];
			return read(m->ack[0], buf, sizeof buf) <= 0 &&
			       waitpid(perf, status, 0) == perf;
		}
		int sig = sigtimedwait(set, NULL, &none);
		if (sig == SIGCHLD && waitpid(perf, status, WNOHANG) == perf)
			return 1;
		if (sig == SIGINT || sig == SIGTERM)
			return -1;
	}
	return 0;
}

static void controller(const struct perfmon *m, char *const argv[], const char *out,
                       const char *head, int kptr)
{
	sigset_t set, none;
	double start = now_s();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGPIPE, SIG_IGN); /* perf gone: the --control write fails, it does not kill */
	sigemptyset(&none);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_SETMASK, &set, NULL);
	sigset_t stop = set;
	sigdelset(&stop, SIGCHLD);
	if (m->delay > 0)
		for (double end = now_s() + m->delay; now_s() < end;)
			if (sigwait_for(&stop, end - now_s()) > 0)
				_exit(NOT_STARTED);
	char old[16] = "";
	if (kptr && !init_read_line(KPTR, old, sizeof old) && strcmp(old, "0"))
		init_write(KPTR, "0", 0);
	else
		old[0] = 0;
	int fd = open(init_path("%s", out), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		_exit(126);
	if (head && write(fd, head, strlen(head)) < 0)
		_exit(126);
	pid_t perf = spawn_perf(argv, fd, fd, m->ctl[0], m->ack[1]);
	close(fd);
	int status = 0, done = perf < 0, stopped = 0;
	if (m->ctl[1] >= 0) {
		close(m->ctl[0]);
		close(m->ack[1]);
		int r = perf_ready(m, perf, &set, &status);
		done = r > 0;
		stopped = r < 0;
		start = now_s();
		/* the init releases the benchmark on this byte (or on the pipe's end) */
		ssize_t w = write(m->ready[1], "r", 1);
		(void)w; /* a failed write: the pipe's end, which the init reads as well */
		close(m->ready[1]);
	}
	double end = m->duration > 0 ? now_s() + m->duration : -1;
	/* perf-profile: "enable" at the window's start and "disable" at its end, timed from the
	 * measured window's start, the benchmark's release once perf was ready */
	double ctl_at[2] = {start + m->pdelay, start + m->pdelay + m->pduration};
	const char *ctl_cmd[2] = {"enable\n", "disable\n"};
	int next = m->ctl[1] >= 0 ? 0 : 2;
	while (!done && !stopped) {
		double until = end;
		if (next < 2 && (until < 0 || ctl_at[next] < until))
			until = ctl_at[next];
		int sig = sigwait_for(&set, until < 0             ? -1
		                            : until - now_s() > 0 ? until - now_s()
		                                                  : 0);
		if (sig < 0 && errno == EAGAIN && next < 2 && now_s() >= ctl_at[next]) {
			if (write(m->ctl[1], ctl_cmd[next], strlen(ctl_cmd[next])) < 0)
				next = 2;
			next++;
			continue;
		}
		if (sig == SIGCHLD || sig < 0) {
			if (waitpid(perf, &status, WNOHANG) == perf) {
				done = 1;
				break;
			}
			if (sig == SIGCHLD || errno != EAGAIN)
				continue;
		}
		break; /* a stop, or the duration is over */
	}
	if (!done) {
		kill(perf, SIGINT);
		for (double dl = now_s() + STOP_WAIT_S; !done;) {
			if (waitpid(perf, &status, WNOHANG) == perf)
				break;
			if (now_s() >= dl) {
				kill(perf, SIGKILL);
				waitpid(perf, &status, 0);
				break;
			}
			sigwait_for(&set, 0.05);
		}
	}
	if (kptr) {
		copy_kallsyms();
		if (old[0])
			init_write(KPTR, old, 0);
	}
	_exit(perf < 0 ? 125 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

struct controller_args {
	const struct perfmon *m;
	char *const *argv;
	const char *out, *head;
	int kptr;
};

static int controller_child(void *arg)
{
	const struct controller_args *a = arg;
	controller(a->m, a->argv, a->out, a->head, a->kptr);
	return 0; /* (the controller ends with _exit) */
}

/* Fork the controller of a perf monitor (it forks perf): its pid or -errno. */
static pid_t spawn_controller(const struct perfmon *m, char *const argv[], const char *out,
                              const char *head, int kptr)
{
	struct controller_args a = {m, argv, out, head, kptr};
	struct spawn s = SPAWN_INIT;
	s.fn = controller_child;
	s.arg = &a;
	return spawn(&s);
}

/* Close the perf-profile's pipes in the init, all but the read end of ready when keep_ready. */
static void close_pipes(struct perfmon *m, int keep_ready)
{
	int *fds[] = {&m->ctl[0], &m->ctl[1], &m->ack[0], &m->ack[1], &m->ready[0], &m->ready[1]};
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
		if (*fds[i] >= 0 && !(keep_ready && fds[i] == &m->ready[0])) {
			close(*fds[i]);
			*fds[i] = -1;
		}
}

static void start_stat(struct perfmon *m, const char *dir, int pmu)
{
	char events[1024] = "", hw[512] = "", out[600], ms[32], head[1400];
	int regs = pmu ? generic_counters() : -1;
	for (size_t i = 0; bb_perf_stat_hw_groups[i]; i++) {
		const char *g = bb_perf_stat_hw_groups[i];
		if (!pmu) {
			for (const char *c = g; *c; c++) {
				size_t l = strlen(hw);
				if (l + 2 < sizeof hw)
					hw[l] = *c == ',' ? ' ' : *c, hw[l + 1] = 0;
			}
			strcat(hw, " ");
			continue;
		}
		if (i == 0 && regs >= 0 && regs < 4) /* LKP: the first group in two */
			g = "{cpu-cycles,instructions,cache-references,cache-misses},"
			    "{branch-instructions,branch-misses}";
		size_t l = strlen(events);
		snprintf(events + l, sizeof events - l, "%s,", g);
	}
	strcat(events, bb_perf_stat_sw_events);
	if (!pmu) {
		char clean[512];
		size_t o = 0;
		for (const char *c = hw; *c && o + 1 < sizeof clean; c++)
			if (*c != '{' && *c != '}')
				clean[o++] = *c;
		while (o && clean[o - 1] == ' ')
			o--;
		clean[o] = 0;
		add_note(m,
		         "hardware events not supported here (no CPU PMU: the kernel registered "
		         "none, as under QEMU's TCG; KVM with -cpu host has one): %s",
		         clean);
	}
	double interval = option(m->name, "interval", 1);
	const char *ims =
	    win_plan ? bb_plan_monitor_option(win_plan, m->name, "interval_ms") : NULL;
	long msec = ims ? atol(ims) : lround(interval * 1000);
	if (msec < 10)
		msec = 1000;
	snprintf(ms, sizeof ms, "%ld", msec);
	snprintf(out, sizeof out, "%s/monitor.%s", dir, m->name);
	unlink(init_path("%s", out));
	char *argv[] = {"perf", "stat", "-a",   "--scale",  "-I", ms,  "-x",
	                ",",    "-e",   events, "--log-fd", "1",  NULL};
	snprintf(head, sizeof head, "%s stat -a --scale -I %s -x , -e %s --log-fd 1\n", PERF, ms,
	         events);
	m->delay = option(m->name, "delay", 0);
	m->duration = option(m->name, "duration", 0);
	pid_t pid = spawn_controller(m, argv, out, head, 0);
	m->pid = pid > 0 ? pid : 0;
}

static void start_profile(struct perfmon *m, const char *dir, int pmu)
{
	char out[600], data[600];
	const char *ev = "cpu-clock";
	int err = 0;
	if (pmu) {
		static const char *const evs[] = {"cycles:pp", "cycles:p", "cycles"};
		for (int i = 0; i < 3; i++)
			if (!(err = probe_cycles(2 - i))) {
				ev = evs[i];
				break;
			}
	}
	snprintf(m->event, sizeof m->event, "%s", ev);
	if (init_read_line(KPTR, m->kptr, sizeof m->kptr))
		m->kptr[0] = 0;
	if (!strcmp(ev, "cpu-clock"))
		add_note(m,
		         "sampled cpu-clock, a software clock, not cycles:pp: %s (as under QEMU's "
		         "TCG); the stats are named perf-profile.*.cpu-clock.*",
		         pmu ? strerror(-err) : "no CPU PMU here");
	/* LKP's window: delay runtime/2 (integer seconds), duration 10 s; here clipped to the
	 * measured window */
	double rt = win_runtime > 0 ? win_runtime : 0;
	double delay = option(m->name, "delay", floor(rt / 2));
	double duration = option(m->name, "duration", 10);
	if (rt > 0 && delay >= rt)
		delay = floor(rt / 2);
	if (rt > 0 && delay + duration > rt)
		duration = rt - delay;
	if (duration <= 0)
		duration = 1;
	/* perf starts with the measured window, its events off (-D -1), its workload `sleep
	 * DELAY+DURATION`; the controller turns the events on DELAY into the measured window
	 * and off DURATION later through perf's --control pipe, timed from the window's start:
	 * LKP's -D counts from perf's start, and perf's start-up (seconds under TCG) would shift
	 * a short window past the benchmark's end. The end of the measured window stops perf in
	 * any case. */
	m->delay = 0;
	m->duration = 0;
	m->pdelay = delay;
	m->pduration = duration;
	add_note(m, "window: %gs from %gs into the measured window of %gs", duration, delay, rt);
	snprintf(out, sizeof out, "%s/monitor.%s.log", dir, m->name);
	snprintf(data, sizeof data, "%s/monitor.%s.data", dir, m->name);
	unlink(init_path("%s", out));
	unlink(init_path("%s", data));
	unlink(init_path("%s", KALLSYMS));
	char evbuf[32], databuf[600];
	snprintf(evbuf, sizeof evbuf, "%s", ev);
	snprintf(databuf, sizeof databuf, "%s", init_path("%s", data));
	char secs[32], count[48], ctl[16];
	snprintf(ctl, sizeof ctl, "fd:%d,%d", PERF_CTL_FD, PERF_ACK_FD);
	snprintf(secs, sizeof secs, "%ld", (long)ceil(delay + duration));
	/* LKP's sample period, 1000003 events (its `period:`); the software clock of a machine
	 * without a PMU counts nanoseconds, and under TCG a guest nanosecond is 10-50 times
	 * less work than a bare-metal cycle: a longer period there, and no real-time priority,
	 * which starves the benchmark and the init of a 2-vCPU guest (docs/jobs.md, "perf under
	 * TCG") */
	int soft = !strcmp(ev, "cpu-clock");
	const char *period = win_plan ? bb_plan_monitor_option(win_plan, m->name, "period") : NULL;
	char *pend = NULL;
	long long pv = period ? strtoll(period, &pend, 10) : 0;
	if (period && (pend == period || *pend || pv < 1)) {
		add_note(m, "period %s is not a whole number of events >= 1: the default used",
		         period);
		period = NULL;
	}
	/* on the software clock: a sample every window / SOFT_SAMPLES ns, 1 ms (LKP's count) for
	 * a window of 2.5 s or less, 4 ms from 10 s on: a short window keeps enough samples, a
	 * long one a perf.data the guest reports in seconds */
	long long soft_ns = (long long)(duration * 1e9 / SOFT_SAMPLES);
	soft_ns = soft_ns < SOFT_PERIOD_MIN   ? SOFT_PERIOD_MIN
	          : soft_ns > SOFT_PERIOD_MAX ? SOFT_PERIOD_MAX
	                                      : soft_ns;
	if (period)
		snprintf(count, sizeof count, "--count=%s", period);
	else if (soft)
		snprintf(count, sizeof count, "--count=%lld", soft_ns);
	else
		snprintf(count, sizeof count, "--count=%s", LKP_PERIOD);
	char *argv[24] = {"perf", "record", "-q",  "-g", "-m", "256",  "-a",
	                  count,  "-e",     evbuf, "-N", "-o", databuf};
	size_t n = 13;
	if (!soft)
		argv[n++] = "--realtime=1";
	else
		add_note(m, "%s, at normal priority (no --realtime=1: on the software clock)",
		         count + 2);
	if (pipe2(m->ctl, O_CLOEXEC) || pipe2(m->ack, O_CLOEXEC) || pipe2(m->ready, O_CLOEXEC)) {
		add_note(m, "no --control pipe (%s): sampling from perf's start", strerror(errno));
		close_pipes(m, 0);
	} else {
		argv[n++] = "-D";
		argv[n++] = "-1";
		argv[n++] = "--control";
		argv[n++] = ctl;
	}
	argv[n++] = "--";
	argv[n++] = "/bin/sleep";
	argv[n++] = secs;
	argv[n] = NULL;
	pid_t pid = spawn_controller(m, argv, out, NULL, 1);
	m->pid = pid > 0 ? pid : 0;
	close_pipes(m, pid > 0);
}

void monitor_perf_start(const struct bb_strv *names, const char *dir)
{
	int pmu = have_pmu();
	for (size_t k = 0; k < NMONS; k++) {
		struct perfmon *m = &mons[k];
		char why[600];
		m->pid = 0;
		m->exited = m->status = m->asked = 0;
		m->notes[0] = m->event[0] = 0;
		m->ctl[0] = m->ctl[1] = m->ack[0] = m->ack[1] = m->ready[0] = m->ready[1] = -1;
		for (size_t i = 0; i < names->n && !m->asked; i++)
			m->asked = !strcmp(names->v[i], m->name);
		if (!m->asked)
			continue;
		if (missing(why, sizeof why)) {
			monitor_status(dir, m->name, why, NULL);
			m->asked = 0;
			continue;
		}
		if (k == 0)
			start_stat(m, dir, pmu);
		else
			start_profile(m, dir, pmu);
		if (!m->pid) {
			snprintf(why, sizeof why, "unavailable: fork: %s", strerror(errno));
			monitor_status(dir, m->name, why, NULL);
			m->asked = 0;
			continue;
		}
		monitor_status(dir, m->name, "ok", m->notes);
	}
}

void monitor_perf_wait_ready(void)
{
	for (size_t k = 0; k < NMONS; k++) {
		struct perfmon *m = &mons[k];
		if (!m->asked ||
		    m->ready[0] < 0) /* (asked: its fds were set by monitor_perf_start) */
			continue;
		double t0 = now_s();
		struct pollfd p = {.fd = m->ready[0], .events = POLLIN};
		int r;
		do
			r = poll(&p, 1, (PERF_READY_MAX_S + 5) * 1000);
		while (r < 0 && errno == EINTR);
		if (r <= 0)
			add_note(
			    m, "perf record not ready after %ds: the benchmark started without it",
			    PERF_READY_MAX_S + 5);
		else
			add_note(
			    m,
			    "perf record ready %.1fs after its start: the benchmark started then",
			    now_s() - t0);
		close(m->ready[0]);
		m->ready[0] = -1;
	}
}

int monitor_perf_reaped(pid_t pid, int status)
{
	for (size_t k = 0; k < NMONS; k++)
		if (pid > 0 && mons[k].pid == pid) {
			mons[k].exited = 1;
			mons[k].status = status;
			return 1;
		}
	return 0;
}

void monitor_perf_stop(void)
{
	for (size_t k = 0; k < NMONS; k++)
		if (mons[k].pid && !mons[k].exited)
			kill(mons[k].pid, SIGINT);
	double dl = now_s() + STOP_WAIT_S + 5;
	for (size_t k = 0; k < NMONS; k++) {
		struct perfmon *m = &mons[k];
		while (m->pid && !m->exited) {
			int status;
			struct rusage ru;
			pid_t r = wait4(m->pid, &status, WNOHANG, &ru);
			if (r == m->pid) {
				monitor_cpu_add(&ru);
				m->exited = 1;
				m->status = status;
				break;
			}
			if (r < 0 && errno == ECHILD)
				break;
			if (now_s() >= dl) {
				say("monitor %s: its perf did not end within %d s: killed", m->name,
				    STOP_WAIT_S);
				kill(m->pid, SIGKILL);
				if (wait4(m->pid, &status, 0, &ru) == m->pid) {
					monitor_cpu_add(&ru);
					m->status = status;
				}
				m->exited = 1;
				break;
			}
			struct timespec ts = {0, 20 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
}

/* Run perf with argv, stdout to out (a path under init_root) or, fold non-NULL, through the
 * folder; stderr to err_path (appended); a heartbeat on the console while it works; killed at
 * the deadline (now_s() time). 0 or -errno (-ETIMEDOUT: killed); *status its wait status. */
static int run_perf(char *const argv[], const char *out, struct bb_perf_fold *fold,
                    const char *err_path, int *status, double dl)
{
	int p[2] = {-1, -1}, fd = -1;
	char what[32]; /* the heartbeat's what=: perf-report, perf-script */
	snprintf(what, sizeof what, "perf-%s", argv[1]);
	if (fold ? pipe2(p, O_CLOEXEC) : 0)
		return -errno;
	if (!fold &&
	    (fd = open(init_path("%s", out), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		return -errno;
	int efd = open(init_path("%s", err_path), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	pid_t pid = spawn_perf(argv, fold ? p[1] : fd, efd, -1, -1);
	int e = pid < 0 ? pid : 0;
	if (fd >= 0)
		close(fd);
	if (efd >= 0)
		close(efd);
	if (fold) {
		close(p[1]);
		char *buf = malloc(1 << 16), *line = NULL;
		size_t have = 0, cap = 0;
		for (int eof = pid < 0 || !buf; !eof;) {
			heartbeat(what, win_run);
			struct pollfd pf = {p[0], POLLIN, 0};
			if (now_s() >= dl) {
				kill(pid, SIGKILL);
				e = -ETIMEDOUT;
				break;
			}
			if (poll(&pf, 1, 1000) <= 0)
				continue;
			ssize_t n = read(p[0], buf, 1 << 16);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			for (ssize_t i = 0; i < n; i++) {
				if (buf[i] == '\n') {
					if (line)
						line[have] = 0;
					if (!e && bb_perf_fold_line(fold, line ? line : ""))
						e = -ENOMEM;
					have = 0;
					continue;
				}
				if (have + 2 > cap) {
					char *nl = realloc(line, cap = cap ? cap * 2 : 256);
					if (!nl) {
						e = -ENOMEM;
						break;
					}
					line = nl;
				}
				line[have++] = buf[i];
			}
		}
		free(buf);
		free(line);
		close(p[0]);
	}
	if (pid > 0)
		for (;;) {
			heartbeat(what, win_run);
			pid_t r = waitpid(pid, status, WNOHANG);
			if (r == pid || (r < 0 && errno != EINTR))
				break;
			if (now_s() >= dl) {
				kill(pid, SIGKILL);
				waitpid(pid, status, 0);
				e = -ETIMEDOUT;
				break;
			}
			struct timespec ts = {0, 50 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	return e;
}

/* The last non-empty line of a file, for a reason. */
static void last_line(const char *path, char *buf, size_t len)
{
	char *t = init_read(path, NULL);
	buf[0] = 0;
	if (!t)
		return;
	size_t n = strlen(t);
	while (n && (t[n - 1] == '\n' || t[n - 1] == ' '))
		t[--n] = 0;
	char *l = strrchr(t, '\n');
	snprintf(buf, len, "%s", l ? l + 1 : t);
	free(t);
}

static void stats_stat(struct perfmon *m, const char *dir, struct bb_stats *out)
{
	char path[600], err[300] = "", uns[512] = "", why[1024];
	snprintf(path, sizeof path, "%s/monitor.%s", dir, m->name);
	char *raw = init_read(path, NULL);
	if (!raw) {
		snprintf(why, sizeof why, "unavailable: cannot read %s: %s", path, strerror(errno));
		monitor_status(dir, m->name, why, m->notes);
		return;
	}
	size_t before = out->n;
	int r = bb_perf_stat_stats(raw, out, uns, sizeof uns, err, sizeof err);
	if (uns[0])
		add_note(m, "hardware events not supported here (perf stat: <not supported>): %s",
		         uns);
	if (r) {
		out->n = before;
		snprintf(why, sizeof why, "unavailable: %s: not parsed: %s", path,
		         r == -EINVAL ? err : strerror(-r));
	} else if (out->n == before) {
		char line[200];
		last_line(path, line, sizeof line);
		snprintf(why, sizeof why,
		         "unavailable: perf stat gave no interval (the measured window shorter "
		         "than two intervals?)%s%s",
		         line[0] ? "; perf's last line: " : "", line);
	} else
		snprintf(why, sizeof why, "ok");
	if (strcmp(why, "ok"))
		say("monitor %s: %s", m->name, why + 13);
	monitor_status(dir, m->name, why, m->notes);
	free(raw);
}

static void stats_profile(struct perfmon *m, const char *dir, struct bb_stats *out)
{
	char data[600], report[600], folded[600], log[600], why[1024], line[300], err[300] = "";
	snprintf(data, sizeof data, "%s/monitor.%s.data", dir, m->name);
	snprintf(report, sizeof report, "%s/monitor.%s", dir, m->name);
	snprintf(folded, sizeof folded, "%s/monitor.%s.folded", dir, m->name);
	snprintf(log, sizeof log, "%s/monitor.%s.log", dir, m->name);
	struct stat st;
	int code = m->exited && WIFEXITED(m->status) ? WEXITSTATUS(m->status) : -1;
	if (code == NOT_STARTED) {
		snprintf(why, sizeof why, "unavailable: the measured window ended before %gs",
		         m->delay);
		goto out_status;
	}
	if (stat(init_path("%s", data), &st) || st.st_size == 0) {
		last_line(log, line, sizeof line);
		snprintf(why, sizeof why, "unavailable: perf record wrote no %s%s%s", data,
		         line[0] ? ": " : "", line);
		goto out_status;
	}
	char ks[64];
	int have_ks = !access(init_path("%s", KALLSYMS), R_OK);
	snprintf(ks, sizeof ks, "--kallsyms=%s", init_path("%s", KALLSYMS));
	char datap[600];
	snprintf(datap, sizeof datap, "%s", init_path("%s", data));
	char *rep[] = {"perf", "report", "--children",        "--header",
	               "-U",   "-g",     "folded,0.5,callee", "--sort=dso,symbol",
	               "-i",   datap,    have_ks ? ks : NULL, NULL};
	int status = 0;
	double t0 = now_s(), budget = option(m->name, "budget", BUDGET_S), dl = t0 + budget;
	int r = run_perf(rep, report, NULL, log, &status, dl);
	if (r == -ETIMEDOUT) {
		snprintf(why, sizeof why,
		         "unavailable: perf report overran the post-processing budget of %gs: "
		         "stopped (a longer one: perf-profile: {budget: S})",
		         budget);
		goto out_status;
	}
	if (r || !WIFEXITED(status) || WEXITSTATUS(status)) {
		last_line(log, line, sizeof line);
		snprintf(why, sizeof why, "unavailable: perf report failed (%s)%s%s",
		         r ? strerror(-r) : "exit status", line[0] ? ": " : "", line);
		goto out_status;
	}
	struct bb_perf_fold *f = bb_perf_fold_new();
	char *scr[] = {"perf", "script", "-F", "comm,ip,sym,dso", "-i", datap, have_ks ? ks : NULL,
	               NULL};
	if (f && !(r = run_perf(scr, NULL, f, log, &status, dl)) && WIFEXITED(status) &&
	    !WEXITSTATUS(status)) {
		FILE *fo = fopen(init_path("%s", folded), "we");
		long n = fo ? bb_perf_fold_write(f, m->event, fo) : -errno;
		if (fo && fclose(fo) && n >= 0)
			n = -EIO;
		if (n < 0)
			add_note(m, "no folded stacks: %s: %s", folded, strerror((int)-n));
	} else if (r == -ETIMEDOUT)
		add_note(m,
		         "no folded stacks: perf script overran the post-processing budget of "
		         "%gs: stopped",
		         budget);
	else
		add_note(m, "no folded stacks: perf script failed");
	bb_perf_fold_free(f);
	unlink(init_path("%s", KALLSYMS));
	char *text = init_read(report, NULL);
	char ev[96] = "";
	size_t before = out->n;
	r = text ? bb_perf_profile_stats(text, out, ev, sizeof ev, err, sizeof err) : -errno;
	const char *sd = text ? strstr(text, "\n# sample duration :") : NULL;
	if (sd)
		add_note(m, "samples over %.1fs (perf report's sample duration)",
		         strtod(sd + 20, NULL) / 1e3);
	add_note(m, "post-processing %.1fs (perf report and perf script, after the iteration)",
	         now_s() - t0);
	free(text);
	if (r) {
		out->n = before;
		snprintf(why, sizeof why, "unavailable: %s: not parsed: %s", report,
		         r == -EINVAL ? err : strerror(-r));
	} else if (!ev[0]) {
		snprintf(why, sizeof why,
		         "unavailable: no samples (perf record was not ready before the measured "
		         "window's end, %gs after its start?)",
		         m->pdelay + m->pduration);
	} else
		snprintf(why, sizeof why, "ok");
out_status:
	unlink(init_path("%s", KALLSYMS));
	char now[16];
	if (m->kptr[0] && strcmp(m->kptr, "0") && !init_read_line(KPTR, now, sizeof now))
		add_note(m, "kernel.kptr_restrict %s: 0 while recording (kernel symbols), %s after",
		         m->kptr, now);
	if (strcmp(why, "ok"))
		say("monitor %s: %s", m->name, why + 13);
	monitor_status(dir, m->name, why, m->notes);
}

void monitor_perf_stats(const struct bb_strv *names, const char *dir, struct bb_stats *out)
{
	(void)names;
	for (size_t k = 0; k < NMONS; k++) {
		struct perfmon *m = &mons[k];
		if (!m->asked || !monitor_status_ok(dir, m->name))
			continue;
		if (k == 0)
			stats_stat(m, dir, out);
		else
			stats_profile(m, dir, out);
		m->asked = 0;
	}
}
