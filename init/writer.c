/*
 * The results writer (writer.h): a child of the runner that finds and opens the results disk
 * once, in parallel with the runner's setup, then writes the boot's files there on request.
 * One request at a time, each answered: the runner waits for the answer, so a run's files are
 * on the disk before its run-end line, and env.json before any client runs, as without it.
 * A process, not a thread (setuptime.h: a second thread in the init hit a soft lockup).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "console_proto.h"
#include "init.h"
#include "results.h"
#include "spawn.h"
#include "writer.h"

enum writer_op { WRITER_SYNC = 1, WRITER_FINISH = 2 };

struct writer_req {
	int op;
	int dump_console;
	char skip[64]; /* "" for none */
};

struct writer_reply {
	int status; /* of the sync or the finish */
	double sync_ms;
	struct writer_open open;
	char bootdir[128];
};

struct writer_open writer_open;

/* The runner's side: the writer's pid and socket (-1: none), what it last said, and the sync
 * asked whose answer is owed (writer_sync_begin .. writer_sync_wait). */
enum owed_state { OWED_NONE, OWED_BY_WRITER, OWED_HERE };
static struct {
	pid_t pid;
	int fd;
	int requests;
	int answers;
	int timeout_s, disk_wait_s; /* results.timeout; results.wait, for the first answer too */
	pid_t killed;               /* a writer stopped for not answering, not reaped yet */
	char boot_id[64];
	char bootdir[128];
	struct {
		enum owed_state state;
		struct writer_req req;
		int status;
		double sync_ms;
	} owed;
} w = {.pid = -1, .fd = -1};

/* --- the writer process --- */

/* Wait for the disk (the plan's results_wait), open it; the figures in *o. */
static void open_disk(const struct boot *b, struct writer_open *o)
{
	o->start = init_now_ms();
	if (b->plan.results_wait > 0)
		results_wait_for_disk(init_root, b->plan.results_wait);
	double t = init_now_ms();
	o->wait_ms = t - o->start;
	o->disk = results_open(init_root, b->boot_id) == 0;
	o->end = init_now_ms();
	o->open_ms = o->end - t;
}

/* Do one request; 1 when the writer is done after it (finish). */
static int serve(const struct writer_req *req, struct writer_reply *rep)
{
	double t = init_now_ms();
	/* benchboot.debug.crash=sync-marks: a line as each sync begins (its end is the
	 * "results: synced ..." line), for tests that kill the VM inside a sync */
	if (req->op != WRITER_FINISH && init_debug_switch_is("sync-marks"))
		say("results: sync begins");
	if (req->op == WRITER_FINISH)
		rep->status = results_finish();
	else
		rep->status = results_sync_except(init_path(INIT_RESULTS_DIR), req->dump_console,
		                                  *req->skip ? req->skip : NULL);
	rep->sync_ms = init_now_ms() - t;
	rep->open.disk = results_disk_open();
	snprintf(rep->bootdir, sizeof(rep->bootdir), "%s", results_bootdir());
	return req->op == WRITER_FINISH;
}

/*
 * The writer's life: open, then serve until finish. When the runner is gone (end of file: it
 * crashed), the writer leaves: what was synced stays, the disk is not closed (PID 1 reports the
 * crash, as without a writer). benchboot.debug.crash=writer-N crashes it at its Nth request,
 * benchboot.debug.crash=writer-open before it opens the disk.
 */
static void writer_main(int fd, const struct boot *b)
{
	struct writer_reply rep = {0};
	init_crash_point("writer-open");
	open_disk(b, &rep.open);
	rep.open.forked = 1;
	for (int n = 1;; n++) {
		struct writer_req req;
		ssize_t got;
		while ((got = read(fd, &req, sizeof(req))) < 0 && errno == EINTR)
			;
		if (got != (ssize_t)sizeof(req))
			_exit(0);
		char point[32];
		snprintf(point, sizeof(point), "writer-%d", n);
		init_crash_point(point);
		snprintf(point, sizeof(point), "writer-hang-%d", n);
		if (init_debug_switch_is(point)) {
			say("benchboot.debug.crash=%s: not answering, on purpose", point);
			for (;;)
				pause();
		}
		req.skip[sizeof(req.skip) - 1] = 0;
		int last = serve(&req, &rep);
		if (send(fd, &rep, sizeof(rep), MSG_NOSIGNAL) != (ssize_t)sizeof(rep) || last)
			_exit(0);
	}
}

/* --- the runner's side --- */

struct writer_args {
	int fd;
	const struct boot *b;
};

static int writer_child(void *arg)
{
	const struct writer_args *a = arg;
	writer_main(a->fd, a->b);
	return 0;
}

int writer_start(const struct boot *b)
{
	int sv[2];
	snprintf(w.boot_id, sizeof(w.boot_id), "%s", b->boot_id);
	*w.bootdir = 0;
	w.requests = w.answers = 0;
	w.timeout_s = b->plan.results_timeout > 0 ? b->plan.results_timeout : BB_RESULTS_TIMEOUT;
	w.disk_wait_s = b->plan.results_wait;
	w.owed.state = OWED_NONE;
	memset(&writer_open, 0, sizeof(writer_open));
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	struct writer_args a = {sv[1], b};
	struct spawn s = SPAWN_INIT;
	s.close_fds[s.nclose++] = sv[0];
	s.fn = writer_child;
	s.arg = &a;
	pid_t pid = spawn(&s);
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return pid;
	}
	close(sv[1]);
	w.pid = pid;
	w.fd = sv[0];
	return 0;
}

int writer_running(void)
{
	return w.fd >= 0;
}

void writer_open_here(const struct boot *b)
{
	open_disk(b, &writer_open);
	snprintf(w.bootdir, sizeof(w.bootdir), "%s", results_bootdir());
}

/* The disk given up: the writer is gone, every result goes to the console from now on. */
static void writer_gone(void)
{
	close(w.fd);
	w.fd = -1;
	w.pid = -1;
	writer_open.disk = 0;
	if (!*w.bootdir)
		snprintf(w.bootdir, sizeof(w.bootdir), "0000-%s", w.boot_id);
	results_console_only(w.bootdir);
}

/* The writer died with wait status `status`: said once, the disk given up (console only). */
static void writer_lost(int status)
{
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	machine(BB_CON_WRITER_DIED " signal=%d exit=%d requests=%d", sig,
	        WIFEXITED(status) ? WEXITSTATUS(status) : -1, w.requests);
	say("the results writer died (%s): the results disk is given up, every result from now "
	    "on goes to the console",
	    sig ? strsignal(sig) : "it exited");
	writer_gone();
}

/*
 * The writer did not answer in time (a disk that stopped answering, a bug): killed, said once,
 * the disk given up. Not waited for: a process stuck in the disk's I/O dies only when the I/O
 * ends; run_reap reaps it whenever it does (writer_reaped).
 */
static void writer_hung(int seconds)
{
	kill(w.pid, SIGKILL);
	w.killed = w.pid;
	machine(BB_CON_WRITER_DIED " signal=%d exit=-1 requests=%d timeout_s=%d", SIGKILL,
	        w.requests, seconds);
	say("the results writer did not answer within %d s (results.timeout): stopped; the "
	    "results disk is given up, every result from now on goes to the console",
	    seconds);
	writer_gone();
}

int writer_reaped(pid_t pid, int status)
{
	if (pid > 0 && pid == w.killed) {
		w.killed = 0; /* said when it was stopped */
		return 1;
	}
	if (pid <= 0 || pid != w.pid)
		return 0;
	writer_lost(status);
	return 1;
}

/* The writer's socket gave no answer: it is dead or dying (its end is closed): reaped, said. */
static void lost_at_request(void)
{
	int status = 0;
	pid_t pid = w.pid;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	writer_lost(status);
}

/* Send req; 0, or -1 when the writer died (then reported). */
static int send_request(const struct writer_req *req)
{
	w.requests++;
	if (send(w.fd, req, sizeof(*req), MSG_NOSIGNAL) == (ssize_t)sizeof(*req))
		return 0;
	lost_at_request();
	return -1;
}

/* Wait up to the timeout for the writer's answer (the first one also covers the wait for the
 * disk): 0 when there is something to read (or the writer's end closed), -1 when it hung. */
static int await_answer(void)
{
	int seconds = w.timeout_s + (w.answers ? 0 : w.disk_wait_s);
	double deadline = init_now_ms() + seconds * 1e3;
	struct pollfd p = {.fd = w.fd, .events = POLLIN};
	for (;;) {
		double left = deadline - init_now_ms();
		int r = poll(&p, 1, left > 0 ? (int)left + 1 : 0);
		if (r > 0)
			return 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 && left <= 0) {
			writer_hung(seconds);
			return -1;
		}
		if (r < 0)
			return 0; /* poll itself failed: the read below decides */
	}
}

/* Read the answer to the request sent; 0, or -1 when the writer died or hung (then
 * reported). */
static int read_answer(struct writer_reply *rep)
{
	ssize_t got;
	if (await_answer())
		return -1;
	while ((got = read(w.fd, rep, sizeof(*rep))) < 0 && errno == EINTR)
		;
	if (got != (ssize_t)sizeof(*rep)) {
		lost_at_request();
		return -1;
	}
	w.answers++;
	if (!writer_open.forked)
		writer_open = rep->open;
	writer_open.disk = rep->open.disk;
	snprintf(w.bootdir, sizeof(w.bootdir), "%s", rep->bootdir);
	return 0;
}

/* A sync in this process (no writer): its status and length in w.owed. */
static void sync_here(const struct writer_req *req)
{
	double t = init_now_ms();
	w.owed.status = results_sync_except(init_path(INIT_RESULTS_DIR), req->dump_console,
	                                    *req->skip ? req->skip : NULL);
	w.owed.sync_ms = init_now_ms() - t;
	w.owed.state = OWED_HERE;
}

void writer_sync_begin(int dump_console, const char *skip)
{
	struct writer_req req = {.op = WRITER_SYNC, .dump_console = dump_console};
	snprintf(req.skip, sizeof(req.skip), "%s", skip ? skip : "");
	writer_sync_wait(NULL); /* one request at a time */
	w.owed.req = req;
	if (w.fd >= 0 && !send_request(&req)) {
		w.owed.state = OWED_BY_WRITER;
		return;
	}
	sync_here(&req);
}

int writer_sync_wait(double *ms)
{
	struct writer_reply rep;
	if (w.owed.state == OWED_BY_WRITER) {
		if (w.fd >= 0 && !read_answer(&rep)) {
			w.owed.status = rep.status;
			w.owed.sync_ms = rep.sync_ms;
		} else {
			sync_here(
			    &w.owed.req); /* the writer died meanwhile: here, to the console */
		}
	}
	if (w.owed.state != OWED_NONE && !writer_open.synced) {
		writer_open.synced = 1;
		writer_open.first_sync_ms = w.owed.sync_ms;
	}
	if (ms)
		*ms = w.owed.state == OWED_NONE ? 0 : w.owed.sync_ms;
	int r = w.owed.state == OWED_NONE ? 0 : w.owed.status;
	w.owed.state = OWED_NONE;
	return r;
}

int writer_sync(int dump_console, const char *skip, double *ms)
{
	writer_sync_begin(dump_console, skip);
	return writer_sync_wait(ms);
}

int writer_finish(void)
{
	struct writer_req req = {.op = WRITER_FINISH};
	struct writer_reply rep;
	writer_sync_wait(NULL);
	if (w.fd >= 0 && !send_request(&req) && !read_answer(&rep)) {
		int status;
		while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR)
			;
		close(w.fd);
		w.fd = -1;
		w.pid = -1;
		return rep.status;
	}
	return results_finish();
}
