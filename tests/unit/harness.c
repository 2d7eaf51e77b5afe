/* The unit-test runner: one forked child per TEST; see harness.h. */
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

extern const struct bb_test __start_bb_tests[], __stop_bb_tests[];

static char tmpdir[4096];
static char msgpath[4200];

void bb_test_fail(const char *file, int line, const char *fmt, ...)
{
	FILE *f = fopen(msgpath, "w");
	va_list ap;
	if (!f)
		f = stderr;
	fprintf(f, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
	_exit(1);
}

void bb_test_skip(const char *fmt, ...)
{
	FILE *f = fopen(msgpath, "w");
	va_list ap;
	if (!f)
		f = stderr;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
	_exit(77);
}

void test_need(const char *tool, const char *package)
{
	const char *path = getenv("PATH");
	char dir[4096];
	for (const char *p = path ? path : "/usr/bin:/bin"; *p; p += *p == ':') {
		size_t n = strcspn(p, ":");
		snprintf(dir, sizeof(dir), "%.*s/%s", (int)n, p, tool);
		if (access(dir, X_OK) == 0)
			return;
		p += n;
	}
	bb_test_skip("%s not installed (package %s; tools/scripts/install-deps)", tool, package);
}

const char *test_tmpdir(void)
{
	return tmpdir;
}

const char *test_fixture(const char *name)
{
	static char path[4096];
	const char *top = getenv("BB_TOP");
	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", top ? top : ".", name);
	return path;
}

static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

const char *test_write_file(const char *dir, const char *rel, const char *content)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (mkdirs(path))
		bb_test_fail(__FILE__, __LINE__, "mkdir for %s: %s", path, strerror(errno));
	FILE *f = fopen(path, "w");
	if (!f)
		bb_test_fail(__FILE__, __LINE__, "open %s: %s", path, strerror(errno));
	fputs(content, f);
	fclose(f);
	return path;
}

int test_run(const char *cmd, char **out)
{
	FILE *p = popen(cmd, "r");
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	if (!p || !buf)
		bb_test_fail(__FILE__, __LINE__, "popen %s", cmd);
	size_t n;
	while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (cap - len < 2)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = 0;
	int st = pclose(p);
	if (out)
		*out = buf;
	else
		free(buf);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *ci = getenv("CI"), *limit_env = getenv("BB_TEST_TIMEOUT");
	int failed = 0, in_ci = ci && !strcmp(ci, "true");
	unsigned limit = limit_env && atoi(limit_env) > 0 ? (unsigned)atoi(limit_env) : 300;
	for (const struct bb_test *t = __start_bb_tests; t < __stop_bb_tests; t++) {
		if (argc > 1 && strcmp(argv[1], t->name))
			continue;
		const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		snprintf(tmpdir, sizeof(tmpdir), "%s/bbtest.XXXXXX", base);
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			return 111;
		}
		snprintf(msgpath, sizeof(msgpath), "%s.msg", tmpdir);
		unlink(msgpath);
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			/* the time limit: SIGALRM's default action ends the case */
			signal(SIGALRM, SIG_DFL);
			alarm(limit);
			t->fn();
			_exit(0);
		}
		int st = 0;
		waitpid(pid, &st, 0);
		char msg[2048] = "";
		FILE *f = fopen(msgpath, "r");
		if (f) {
			size_t n = fread(msg, 1, sizeof(msg) - 1, f);
			msg[n] = 0;
			fclose(f);
			unlink(msgpath);
		}
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			printf("PASS %s:%s\n", prog, t->name);
		} else if (WIFEXITED(st) && WEXITSTATUS(st) == 77 && !in_ci) {
			printf("SKIP %s:%s: %s\n", prog, t->name, msg);
		} else {
			failed++;
			char why[2100];
			snprintf(why, sizeof(why), "%s", msg);
			if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
				snprintf(msg, sizeof(msg),
				         "skipped under CI=true (CI has all a test needs): %.1900s",
				         why);
			else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
				snprintf(msg, sizeof(msg), "timed out after %u s (BB_TEST_TIMEOUT)",
				         limit);
			else if (WIFSIGNALED(st))
				snprintf(msg, sizeof(msg), "killed by signal %d", WTERMSIG(st));
			printf("FAIL %s:%s: %s\n", prog, t->name, msg);
		}
		if (!getenv("BB_KEEP_TMP"))
			nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	return failed ? 1 : 0;
}

char *test_slurp(const char *name)
{
	FILE *f = fopen(test_fixture(name), "r");
	if (!f)
		bb_test_fail(__FILE__, __LINE__, "fixture %s missing", name);
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	for (size_t n; buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0;) {
		len += n;
		if (len + 1 == cap && !(buf = realloc(buf, cap *= 2)))
			break;
	}
	fclose(f);
	if (!buf)
		bb_test_fail(__FILE__, __LINE__, "out of memory reading fixture %s", name);
	buf[len] = 0;
	return buf;
}
