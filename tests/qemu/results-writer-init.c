/*
 * A small /init for the results-disk QEMU tests: it loads the modules of
 * /etc/benchboot/modules.order, then does what the real init does with results (init/results.c:
 * results_open, results_sync after each run, results_finish) for runs whose files are made up
 * but deterministic, printing markers the host watches to kill QEMU at chosen moments:
 *
 *   BBTEST run N start | BBTEST sync N begin | BBTEST sync N end rc=R | BBTEST finish rc=R
 *
 * Kernel command line: bbtest.runs=N (default 2), bbtest.big=BYTES (client.0.out of run 3,
 * default 65536), bbtest.id=BOOTID, bbtest.pause=MS (a pause after each sync, as a real run
 * would take, so the host can kill QEMU between two runs; default 0).
 *
 * Built with -DGEN_ONLY for the host, `results-writer-init DIR RUNS BIG` writes the files the
 * init would write into DIR, so the host knows what every run must look like.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "results.h"

static void put(const char *dir, const char *rel, const char *data, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		printf("BBTEST cannot write %s: %s\n", path, strerror(errno));
	close(fd);
}

/* The files of run n, the same bytes every time. */
static void gen_run(const char *dir, int n, size_t big)
{
	char rel[256], text[256];
	size_t len = n == 3 ? big : 20000 + 1000 * (size_t)n;
	char *out = malloc(len);
	unsigned x = 2463534242u + (unsigned)n;
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		out[i] = "0123456789 abcdefghij\n"[x % 22];
	}
	snprintf(rel, sizeof(rel), "runs/run-%d/1/client.0.out", n);
	put(dir, rel, out, len);
	free(out);
	snprintf(rel, sizeof(rel), "runs/run-%d/1/client.0.err", n);
	put(dir, rel, "", 0);
	snprintf(rel, sizeof(rel), "runs/run-%d/1/client.0.rusage", n);
	int l = snprintf(text, sizeof(text), "utime=%d.5 stime=0.%d maxrss=%d\n", n, n, 1000 + n);
	put(dir, rel, text, (size_t)l);
	snprintf(rel, sizeof(rel), "runs/run-%d/1/server.0.out", n);
	l = snprintf(text, sizeof(text), "server of run %d\n", n);
	put(dir, rel, text, (size_t)l);
	snprintf(rel, sizeof(rel), "runs/run-%d/1/status", n);
	put(dir, rel, "{\"status\":\"ok\"}\n", 16);
	snprintf(rel, sizeof(rel), "runs/run-%d/results.json", n);
	l = snprintf(text, sizeof(text), "{\"test.value\": [%d]}\n", n * 100);
	put(dir, rel, text, (size_t)l);
}

#ifdef GEN_ONLY
int main(int argc, char **argv)
{
	if (argc != 4)
		return 100;
	mkdir(argv[1], 0755);
	for (int n = 1; n <= atoi(argv[2]); n++)
		gen_run(argv[1], n, strtoul(argv[3], NULL, 10));
	return 0;
}
#else

static void load_modules(void)
{
	char line[512];
	FILE *f = fopen("/etc/benchboot/modules.order", "r");
	if (!f) {
		printf("BBTEST no modules.order\n");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!*line)
			continue;
		int fd = open(line, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
			printf("BBTEST module %s: %s\n", line, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	fclose(f);
}

static const char *arg(const char *cmdline, const char *key, const char *def)
{
	static char val[8][128];
	static int slot;
	const char *p = strstr(cmdline, key);
	if (!p)
		return def;
	p += strlen(key);
	char *v = val[slot++ % 8];
	size_t n = strcspn(p, " \n");
	snprintf(v, 128, "%.*s", (int)(n < 127 ? n : 127), p);
	return v;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void)
{
	char cmdline[4096] = "";
	setvbuf(stdout, NULL, _IOLBF, 0);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mkdir("/run", 0755);
	mount("tmpfs", "/run", "tmpfs", 0, NULL);
	int fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, cmdline, sizeof(cmdline) - 1);
		cmdline[n > 0 ? n : 0] = 0;
		close(fd);
	}
	int runs = atoi(arg(cmdline, "bbtest.runs=", "2"));
	size_t big = strtoul(arg(cmdline, "bbtest.big=", "65536"), NULL, 10);
	const char *id = arg(cmdline, "bbtest.id=", "test");
	int pause_ms = atoi(arg(cmdline, "bbtest.pause=", "0"));
	double t0 = now_ms();
	load_modules();
	printf("BBTEST modules loaded in %.0f ms\n", now_ms() - t0);
	const char *local = "/run/results";
	mkdir(local, 0755);
	t0 = now_ms();
	int r = results_open("", id);
	printf("BBTEST open rc=%d bootdir=%s in %.0f ms\n", r, results_bootdir(), now_ms() - t0);
	char log[256];
	int loglen = 0;
	for (int n = 1; n <= runs; n++) {
		printf("BBTEST run %d start\n", n);
		gen_run(local, n, big);
		loglen += snprintf(log + loglen, sizeof(log) - (size_t)loglen, "run %d done\n", n);
		put(local, "init.log", log, (size_t)loglen);
		printf("BBTEST sync %d begin\n", n);
		t0 = now_ms();
		r = results_sync(local, 0);
		printf("BBTEST sync %d end rc=%d in %.0f ms\n", n, r, now_ms() - t0);
		if (pause_ms > 0)
			usleep((useconds_t)pause_ms * 1000);
	}
	r = results_finish();
	printf("BBTEST finish rc=%d\n", r);
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
#endif
