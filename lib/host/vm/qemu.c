/* Booting under QEMU with a watched serial console; see qemu.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "console_proto.h"
#include "host/console_reader.h"
#include "host/vm/qemu.h"

#define DEFAULT_QEMU "qemu-system-x86_64"
#define STOP_GRACE_S 5.0  /* SIGTERM, then this long before SIGKILL */
#define TRACE_GRACE_S 2.0 /* after a panic or oops: keep reading the trace this long */
/* after benchboot's init reported its own crash: PID 1 syncs and powers off by itself */
#define INIT_CRASH_GRACE_S 20.0

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

const char *bb_boot_outcome_name(enum bb_boot_outcome o)
{
	static const char *const names[] = {
	    "poweroff", "panic",       "oops",        "hang",
	    "deadline", "interrupted", "qemu-failed", "no-kernel-output",
	    "stopped",  "init-crash"};
	return (unsigned)o < sizeof(names) / sizeof(*names) ? names[o] : "?";
}

enum bb_boot_outcome bb_console_classify(const char *line)
{
	static const struct {
		const char *text;
		enum bb_boot_outcome o;
	} table[] = {
	    {"Kernel panic - not syncing", BB_BOOT_PANIC},
	    {"Oops: ", BB_BOOT_OOPS},
	    {"BUG: unable to handle", BB_BOOT_OOPS},
	    {"BUG: kernel NULL pointer dereference", BB_BOOT_OOPS},
	    {"kernel BUG at ", BB_BOOT_OOPS},
	    {"general protection fault", BB_BOOT_OOPS},
	    {"BUG: scheduling while atomic", BB_BOOT_OOPS},
	    {BB_CON_LINE(BB_CON_INIT_CRASH), BB_BOOT_INIT_CRASH},
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(*table); i++)
		if (strstr(line, table[i].text))
			return table[i].o;
	return BB_BOOT_POWEROFF;
}

/* In the child: pin it (and the threads it will start) to the CPUs of set. 0 or -errno. */
static int pin(const struct bb_cpuset *set)
{
	cpu_set_t cs;
	CPU_ZERO(&cs);
	for (unsigned c = 0; c < BB_CPUSET_MAX && c < CPU_SETSIZE; c++)
		if (bb_cpuset_has(set, c))
			CPU_SET(c, &cs);
	return sched_setaffinity(0, sizeof(cs), &cs) ? -errno : 0;
}

static pid_t spawn(char *const argv[], int out_fd, int err_fd, const struct bb_cpuset *affinity)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	/* Ctrl-C reaches benchboot only, which stops the VM itself; the VM dies with it. */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	int devnull = open("/dev/null", O_RDWR);
	if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
		_exit(127);
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	int pr = affinity ? pin(affinity) : 0;
	if (pr) {
		char list[256];
		bb_cpulist_format(affinity, list, sizeof(list));
		dprintf(2, "cannot pin QEMU to host CPUs %s: %s\n", list, strerror(-pr));
		_exit(127);
	}
	execvp(argv[0], argv);
	dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Stop a VM: SIGTERM (QEMU exits cleanly and flushes its disks), SIGKILL if it lingers. */
static int stop_vm(pid_t pid, int *status)
{
	kill(pid, SIGTERM);
	double until = now_s() + STOP_GRACE_S;
	while (now_s() < until) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		usleep(20000);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* What the probe saw: a kernel line ends it. */
struct probe {
	char kernel_line[160];
	int lines;
};

static double probe_line(void *ctx, const char *line)
{
	struct probe *p = ctx;
	p->lines++;
	if (!bb_console_is_kernel(line))
		return 0;
	/* "[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@...) ...": its first
	 * words, without the timestamp */
	const char *t = line;
	if (*t == '[' && strchr(t, ']'))
		t = strchr(t, ']') + 1;
	t += strspn(t, " ");
	int words = 0;
	size_t n = 0;
	while (t[n] && (t[n] != ' ' || ++words < 3))
		n++;
	snprintf(p->kernel_line, sizeof(p->kernel_line), "%.*s", (int)(n < 100 ? n : 100), t);
	return -1;
}

int bb_kvm_probe(const char *qemu, const char *kernel, double timeout_s, char *why, size_t whylen)
{
	const char *dev = getenv(BB_KVM_DEVICE_ENV);
	char dir[] = "/tmp/bbkvm.XXXXXX", dbgarg[80], dbg[64];
	struct probe pr = {0};
	struct bb_qemu_result res;
	struct stat st;
	int ok = 0;

	if (!dev || !*dev)
		dev = BB_KVM_DEVICE;
	if (access(dev, R_OK | W_OK)) {
		snprintf(why, whylen, "%s: %s", dev, strerror(errno));
		return 0;
	}
	if (!kernel) {
		snprintf(why, whylen, "no kernel to probe with");
		return 0;
	}
	if (!mkdtemp(dir)) {
		snprintf(why, whylen, "mkdtemp: %s", strerror(errno));
		return 0;
	}
	/* the firmware's debug console (SeaBIOS writes there): tells "firmware ran" apart
	 * from "nothing ran" */
	snprintf(dbg, sizeof(dbg), "%s/debugcon", dir);
	snprintf(dbgarg, sizeof(dbgarg), "file:%s", dbg);
	const char *extra[] = {"-debugcon", dbgarg, "-global", "isa-debugcon.iobase=0x402", NULL};
	struct bb_qemu_opts o = {
	    .qemu = qemu,
	    .accel = BB_ACCEL_KVM,
	    .kernel = kernel,
	    .append = "console=ttyS0 panic=-1",
	    .cpus = 1,
	    .mem_mb = 256,
	    .deadline_s = timeout_s,
	    .on_line = probe_line,
	    .ctx = &pr,
	    .extra_args = extra,
	};
	int r = bb_qemu_boot(&o, &res);
	int firmware = pr.lines > 0 || (!stat(dbg, &st) && st.st_size > 0);
	if (r) {
		snprintf(why, whylen, "%s", res.detail);
	} else if (*pr.kernel_line) {
		ok = 1;
		snprintf(why, whylen, "the kernel printed \"%s\" under KVM in %.1f s",
		         pr.kernel_line, res.wall_s);
	} else if (res.outcome == BB_BOOT_QEMU_FAILED) {
		snprintf(why, whylen, "%s", res.detail);
	} else if (firmware) {
		snprintf(why, whylen, "firmware ran but the kernel printed nothing in %.0f s",
		         timeout_s);
	} else if (res.outcome == BB_BOOT_DEADLINE) {
		snprintf(why, whylen, "nothing ran: no firmware or kernel output in %.0f s",
		         timeout_s);
	} else {
		snprintf(why, whylen, "the probe VM ended (%s) before the kernel printed anything",
		         bb_boot_outcome_name(res.outcome));
	}
	unlink(dbg);
	rmdir(dir);
	return ok;
}

struct watch {
	const struct bb_qemu_opts *o;
	struct bb_qemu_result *res;
	int logfd;
	char line[4096];
	char last[400]; /* the last complete line */
	size_t len;
	double last_output, silence;
	enum bb_boot_outcome pending;
	double stop_at;
	int log_error;
	int kernel_seen, stop_now;
	/* since a stall report, only a line from user space counts as output for the silence
	 * limit: the kernel's repeated reports of a hung machine are not progress */
	int stalled;
};

static void watch_line(struct watch *w)
{
	w->line[w->len] = 0;
	if (w->len && w->line[w->len - 1] == '\r')
		w->line[--w->len] = 0;
	enum bb_boot_outcome c = bb_console_classify(w->line);
	if (c != BB_BOOT_POWEROFF && w->pending == BB_BOOT_POWEROFF) {
		struct bb_console_event ev;
		w->pending = c;
		w->stop_at =
		    now_s() + (c == BB_BOOT_INIT_CRASH ? INIT_CRASH_GRACE_S : TRACE_GRACE_S);
		if (c == BB_BOOT_INIT_CRASH && bb_console_event(w->line, &ev))
			bb_init_crash_text(&ev, w->res->detail, sizeof(w->res->detail));
		else
			snprintf(w->res->detail, sizeof(w->res->detail), "%.500s", w->line);
	}
	if (bb_console_stall(w->line)) {
		if (!w->res->stalls++)
			snprintf(w->res->stall, sizeof(w->res->stall), "%.500s", w->line);
		w->stalled = 1;
	} else if (w->stalled && *w->line && !bb_console_is_kernel_log(w->line)) {
		w->stalled = 0; /* user space printed: the machine went on */
		w->last_output = now_s();
	}
	snprintf(w->last, sizeof(w->last), "%.399s", w->line);
	if (!w->kernel_seen)
		w->kernel_seen = bb_console_is_kernel(w->line);
	if (w->o->on_line) {
		/* a limit holds until the caller sets another: a run's limit lasts from its
		 * run-start to its run-end whatever is printed in between */
		double allow = w->o->on_line(w->o->ctx, w->line);
		if (allow < 0)
			w->stop_now = 1;
		else if (allow > 0)
			w->silence = allow;
	}
	w->len = 0;
}

static void watch_bytes(struct watch *w, const char *buf, size_t n)
{
	if (w->logfd >= 0) {
		size_t off = 0;
		while (off < n) {
			ssize_t k = write(w->logfd, buf + off, n - off);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				w->log_error = errno ? errno : EIO;
				break;
			}
			off += k;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n' || w->len == sizeof(w->line) - 1) {
			if (buf[i] != '\n')
				w->line[w->len++] = buf[i];
			watch_line(w);
		} else {
			w->line[w->len++] = buf[i];
		}
	}
}

/* QEMU's command line, with the strings it points to. */
struct qemu_cmd {
	const char *argv[64 + 32];
	char mem[32], cpus[32], drive[4200];
};

/* The command line of o under accel; 0, or -errno with res->detail. */
static int qemu_cmdline(const struct bb_qemu_opts *o, enum bb_accel accel, struct qemu_cmd *c,
                        struct bb_qemu_result *res)
{
	int n = 0;
	const char **argv = c->argv;
	snprintf(c->mem, sizeof(c->mem), "%d", o->mem_mb > 0 ? o->mem_mb : 1024);
	snprintf(c->cpus, sizeof(c->cpus), "%d", o->cpus > 0 ? o->cpus : BB_QEMU_DEFAULT_CPUS);
	argv[n++] = o->qemu ? o->qemu : DEFAULT_QEMU;
	argv[n++] = "-accel";
	argv[n++] = accel == BB_ACCEL_KVM ? "kvm" : "tcg";
	if (accel == BB_ACCEL_KVM) {
		argv[n++] = "-cpu";
		argv[n++] = "host";
	}
	static const char *const fixed[] = {"-nodefaults", "-display", "none", "-no-reboot",
	                                    "-serial",     "stdio",    NULL};
	argv[n++] = "-m";
	argv[n++] = c->mem;
	argv[n++] = "-smp";
	argv[n++] = c->cpus;
	for (int i = 0; fixed[i]; i++)
		argv[n++] = fixed[i];
	argv[n++] = "-kernel";
	argv[n++] = o->kernel;
	if (o->initrd) {
		argv[n++] = "-initrd";
		argv[n++] = o->initrd;
	}
	if (o->append) {
		argv[n++] = "-append";
		argv[n++] = o->append;
	}
	if (o->disk) {
		if (strchr(o->disk, ',')) {
			snprintf(res->detail, sizeof(res->detail), "%s: a ',' in a disk path",
			         o->disk);
			return -EINVAL;
		}
		if (o->disk_blkdebug && (strchr(o->disk, ':') || strpbrk(o->disk_blkdebug, ":,"))) {
			snprintf(res->detail, sizeof(res->detail),
			         "%s, %s: a ':' or ',' in a path given to blkdebug", o->disk,
			         o->disk_blkdebug);
			return -EINVAL;
		}
		if (o->disk_blkdebug)
			snprintf(c->drive, sizeof(c->drive),
			         "file=blkdebug:%s:%s,format=raw,if=virtio", o->disk_blkdebug,
			         o->disk);
		else
			snprintf(c->drive, sizeof(c->drive), "file=%s,format=raw,if=virtio",
			         o->disk);
		argv[n++] = "-drive";
		argv[n++] = c->drive;
	}
	for (int i = 0; o->extra_args && o->extra_args[i]; i++) {
		if (n >= 64 + 30) {
			snprintf(res->detail, sizeof(res->detail), "too many QEMU arguments");
			return -E2BIG;
		}
		argv[n++] = o->extra_args[i];
	}
	argv[n] = NULL;
	return 0;
}

/* Why the VM must stop now (the detail in res), or BB_BOOT_POWEROFF to go on. */
static enum bb_boot_outcome must_stop(struct watch *w, double t, double start)
{
	const struct bb_qemu_opts *o = w->o;
	char *d = w->res->detail;
	size_t dl = sizeof(w->res->detail);
	if (o->interrupt && *o->interrupt) {
		snprintf(d, dl, "interrupted");
		return BB_BOOT_INTERRUPTED;
	}
	if (w->stop_now)
		return BB_BOOT_STOPPED;
	if (o->kernel_wait_s > 0 && !w->kernel_seen && t - start >= o->kernel_wait_s) {
		snprintf(d, dl, "no kernel output within %.0f s%s%.300s%s", o->kernel_wait_s,
		         *w->last ? " (last line: " : "", w->last, *w->last ? ")" : "");
		return BB_BOOT_NO_KERNEL;
	}
	if (w->pending != BB_BOOT_POWEROFF && t >= w->stop_at)
		return w->pending;
	if (o->deadline_s > 0 && t - start >= o->deadline_s) {
		snprintf(d, dl, "still running after the deadline of %.0f s", o->deadline_s);
		return BB_BOOT_DEADLINE;
	}
	if (w->silence > 0 && t - w->last_output >= w->silence && w->pending == BB_BOOT_POWEROFF) {
		if (w->stalled)
			snprintf(d, dl, "nothing but kernel reports for %.0f s since: %.400s",
			         w->silence, w->res->stall);
		else
			snprintf(d, dl, "no console output for %.0f s (last line: %.300s)",
			         w->silence, w->last);
		return BB_BOOT_HANG;
	}
	return BB_BOOT_POWEROFF;
}

/* The VM's two outputs: its serial console (watched, logged) and QEMU's stderr (kept). */
struct vm_io {
	int fd[2]; /* console, stderr; -1 when closed */
	char errbuf[512];
	size_t errlen;
};

/* Read what is there on the VM's outputs: 0, or -errno (poll failed). */
static int read_vm(struct watch *w, struct vm_io *io, double wait)
{
	struct pollfd pfd[2] = {{io->fd[0], POLLIN, 0}, {io->fd[1], POLLIN, 0}};
	int pr = poll(pfd, 2, (int)(wait * 1000) + 1);
	if (pr < 0)
		return errno == EINTR ? 0 : -errno;
	char buf[8192];
	for (int i = 0; i < 2; i++) {
		if (io->fd[i] < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		ssize_t k = read(io->fd[i], buf, sizeof(buf));
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k <= 0) {
			close(io->fd[i]);
			io->fd[i] = -1;
		} else if (i) {
			size_t room = sizeof(io->errbuf) - 1 - io->errlen;
			size_t take = (size_t)k < room ? (size_t)k : room;
			memcpy(io->errbuf + io->errlen, buf, take);
			io->errlen += take;
			io->errbuf[io->errlen] = 0;
		} else {
			if (!w->stalled)
				w->last_output = now_s();
			watch_bytes(w, buf, k);
		}
	}
	return 0;
}

/*
 * Watch the VM until QEMU ends (both outputs closed, then reaped: *exited) or it must stop
 * (*stop). 0, or -errno with res->detail.
 */
static int watch_vm(struct watch *w, struct vm_io *io, pid_t pid, double start,
                    enum bb_boot_outcome *stop, int *exited, int *status)
{
	const struct bb_qemu_opts *o = w->o;
	for (;;) {
		double t = now_s();
		if ((*stop = must_stop(w, t, start)) != BB_BOOT_POWEROFF)
			return 0;
		if (io->fd[0] < 0 && io->fd[1] < 0) {
			if (waitpid(pid, status, 0) == pid)
				*exited = 1;
			else if (errno == EINTR)
				continue;
			return 0;
		}
		if (o->on_tick)
			o->on_tick(o->ctx);
		double wait = 0.25;
		if (o->deadline_s > 0 && start + o->deadline_s - t < wait)
			wait = start + o->deadline_s - t;
		int r = read_vm(w, io, wait < 0 ? 0 : wait);
		if (r) {
			snprintf(w->res->detail, sizeof(w->res->detail), "poll: %s", strerror(-r));
			return r;
		}
	}
}

/* The outcome once QEMU has ended: why it was stopped, what the console showed, or how
 * QEMU itself ended. */
static void boot_outcome(struct watch *w, enum bb_boot_outcome stop, int exited, int status,
                         struct vm_io *io)
{
	struct bb_qemu_result *res = w->res;
	if (stop != BB_BOOT_POWEROFF) {
		res->outcome = stop;
	} else if (w->pending != BB_BOOT_POWEROFF) {
		res->outcome = w->pending;
	} else if (exited && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		res->outcome = BB_BOOT_POWEROFF;
	} else {
		res->outcome = BB_BOOT_QEMU_FAILED;
		io->errbuf[strcspn(io->errbuf, "\n")] = 0;
		if (WIFSIGNALED(status))
			snprintf(res->detail, sizeof(res->detail),
			         "QEMU killed by signal %d%s%.400s", WTERMSIG(status),
			         *io->errbuf ? ": " : "", io->errbuf);
		else
			snprintf(res->detail, sizeof(res->detail),
			         "QEMU exited with status %d%s%.400s",
			         WIFEXITED(status) ? WEXITSTATUS(status) : -1,
			         *io->errbuf ? ": " : "", io->errbuf);
	}
}

/* The accelerator for o: AUTO probes KVM once per process (bb_kvm_probe, with o's kernel). */
static enum bb_accel pick_accel(const struct bb_qemu_opts *o, struct bb_qemu_result *res)
{
	static int kvm_known = -1;
	static char kvm_why[240];
	if (o->accel != BB_ACCEL_AUTO)
		return o->accel;
	if (kvm_known < 0)
		kvm_known =
		    bb_kvm_probe(o->qemu, o->kernel, BB_KVM_PROBE_S, kvm_why, sizeof(kvm_why));
	if (!kvm_known)
		snprintf(res->accel_note, sizeof(res->accel_note), "KVM: %s", kvm_why);
	return kvm_known ? BB_ACCEL_KVM : BB_ACCEL_TCG;
}

int bb_qemu_boot(const struct bb_qemu_opts *o, struct bb_qemu_result *res)
{
	struct qemu_cmd cmd;
	struct vm_io io = {.fd = {-1, -1}};
	int out[2] = {-1, -1}, err[2] = {-1, -1}, r = 0, status = 0, exited = 0;
	struct watch w = {.o = o, .res = res, .logfd = -1, .pending = BB_BOOT_POWEROFF};
	enum bb_boot_outcome stop = BB_BOOT_POWEROFF;

	memset(res, 0, sizeof(*res));
	res->accel_used = pick_accel(o, res);
	if ((r = qemu_cmdline(o, res->accel_used, &cmd, res)))
		return r;
	if (o->console_log) {
		w.logfd = open(o->console_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (w.logfd < 0) {
			r = -errno;
			snprintf(res->detail, sizeof(res->detail), "%s: %s", o->console_log,
			         strerror(errno));
			return r;
		}
	}
	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
		r = -errno;
		snprintf(res->detail, sizeof(res->detail), "pipe: %s", strerror(errno));
		goto out_close;
	}
	double start = now_s();
	pid_t pid = spawn((char *const *)cmd.argv, out[1], err[1], o->affinity);
	if (pid < 0) {
		r = -errno;
		snprintf(res->detail, sizeof(res->detail), "fork: %s", strerror(errno));
		goto out_close;
	}
	if (o->on_start)
		o->on_start(o->ctx, (int)pid);
	close(out[1]);
	close(err[1]);
	out[1] = err[1] = -1;
	io.fd[0] = out[0];
	io.fd[1] = err[0];
	out[0] = err[0] = -1;
	w.last_output = start;
	w.silence = o->silence_s;
	r = watch_vm(&w, &io, pid, start, &stop, &exited, &status);
	if (!exited) {
		int sr = stop_vm(pid, &status);
		if (sr && !r)
			r = sr;
	}
	/* drain what is left of the console into the log */
	if (io.fd[0] >= 0) {
		char buf[8192];
		ssize_t k;
		fcntl(io.fd[0], F_SETFL, O_NONBLOCK);
		while ((k = read(io.fd[0], buf, sizeof(buf))) > 0)
			watch_bytes(&w, buf, k);
	}
	if (w.len)
		watch_line(&w);
	res->exit_status = status;
	res->wall_s = now_s() - start;
	boot_outcome(&w, stop, exited, status, &io);
	if (w.log_error && !r) {
		r = -w.log_error;
		snprintf(res->detail, sizeof(res->detail), "%s: %s", o->console_log,
		         strerror(w.log_error));
	}
out_close:
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
		if (io.fd[i] >= 0)
			close(io.fd[i]);
	}
	if (w.logfd >= 0 && close(w.logfd) && !r) {
		r = -errno;
		snprintf(res->detail, sizeof(res->detail), "%s: %s", o->console_log,
		         strerror(errno));
	}
	return r;
}
