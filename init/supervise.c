/*
 * What PID 1 and the runner share. PID 1 (main.c) does only the mounts, the console, reaping
 * and the power-off; everything else runs in the runner, a child (runner.c). When the runner
 * dies by a signal (a bug in benchboot, libext2fs, the OOM killer), PID 1 must still say which
 * step it was in and how to end the boot: the runner keeps both in one shared anonymous page
 * that outlives it. PID 1 never trusts that page: it copies it out bounded and filtered.
 *
 * The debug switch benchboot.debug.crash=STEP makes the runner crash on purpose (a NULL
 * write, as a real bug would) when it enters STEP: the QEMU test of this path uses it; with
 * STEP writer-N, the results writer (writer.h) crashes at its Nth request instead; with
 * writer-hang-N it stops answering there (the runner's timeout, results.timeout, then acts).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "console_proto.h"
#include "init.h"

/* no shared page (mmap failed): PID 1 sees nothing of the runner and powers off as by default */
static struct init_shared fallback = {.step = "start", .poweroff = 1};
struct init_shared *init_shared = &fallback;
static char crash_at[sizeof(fallback.step)];

int init_shared_map(void)
{
	if (init_debug_switch_is("map"))
		return -ENOMEM;
	void *p = mmap(NULL, sizeof(struct init_shared), PROT_READ | PROT_WRITE,
	               MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	init_shared = p;
	memset(init_shared, 0, sizeof(*init_shared));
	init_shared->poweroff = 1;
	snprintf(init_shared->step, sizeof(init_shared->step), "start");
	return 0;
}

/* The value of benchboot.debug.crash= in a kernel command line ("" when absent). */
void init_crash_switch(const char *cmdline)
{
	static const char key[] = "benchboot.debug.crash=";
	*crash_at = 0;
	for (const char *p = cmdline; p && (p = strstr(p, key)); p++) {
		if (p != cmdline && p[-1] != ' ')
			continue;
		const char *v = p + sizeof(key) - 1;
		snprintf(crash_at, sizeof(crash_at), "%.*s", (int)strcspn(v, " \n"), v);
	}
}

int init_debug_switch_is(const char *name)
{
	return *crash_at && !strcmp(crash_at, name);
}

void init_crash_point(const char *name)
{
	if (init_debug_switch_is(name)) {
		say("benchboot.debug.crash=%s: crashing on purpose", name);
		*(volatile int *)0 = 1; /* SIGSEGV, as a bug would */
	}
}

void init_step(const char *step, const char *run, int iter)
{
	struct init_shared *s = init_shared;
	snprintf(s->step, sizeof(s->step), "%s", step);
	snprintf(s->run, sizeof(s->run), "%s", run ? run : "");
	s->iter = iter;
	init_crash_point(step);
}

/* Copy a string of the shared page: at most cap-1 bytes, only what a console word may hold. */
static void copy_word(char *out, size_t cap, const char *in, size_t inlen)
{
	size_t n = 0;
	for (size_t i = 0; i < inlen && in[i] && n + 1 < cap; i++) {
		char c = in[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		         (c >= '0' && c <= '9') || strchr("._:=+-/", c);
		out[n++] = ok ? c : '_';
	}
	out[n] = 0;
	if (!n)
		snprintf(out, cap, "-");
}

int init_crash_line(const struct init_shared *s, int status, char *buf, size_t len)
{
	char step[sizeof(s->step)], run[sizeof(s->run)], what[32];
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && s->boot_end)
		return 0;
	copy_word(step, sizeof(step), s->step, sizeof(s->step));
	copy_word(run, sizeof(run), s->run, sizeof(s->run));
	if (WIFSIGNALED(status))
		snprintf(what, sizeof(what), "signal=%d", WTERMSIG(status));
	else
		snprintf(what, sizeof(what), "signal=0 exit=%d", WEXITSTATUS(status));
	if (*s->run && s->iter > 0)
		snprintf(buf, len, BB_CON_INIT_CRASH " %s step=%s run=%s iter=%d", what, step, run,
		         s->iter);
	else
		snprintf(buf, len, BB_CON_INIT_CRASH " %s step=%s", what, step);
	return 1;
}
