/* The setup time of the init: marks on the path to the first client, back-off, kernel log. */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "init.h"
#include "setuptime.h"

struct first_path first_path;
void (*setup_deferred)(struct boot *b);
double setup_deferred_start, setup_deferred_end, setup_deferred_waited;

int ready_backoff_ms(int tries)
{
	if (tries < 0)
		tries = 0;
	return tries >= 3 ? READY_MAX_MS : (1 << tries) < READY_MAX_MS ? 1 << tries : READY_MAX_MS;
}

void first_path_start(void)
{
	if (first_path.release)
		return;
	memset(&first_path, 0, sizeof(first_path));
	first_path.run_start = init_now_ms();
}

void first_path_mark(double *field)
{
	if (!first_path.release && !*field)
		*field = init_now_ms();
}

void setup_deferred_run(struct boot *b)
{
	void (*fn)(struct boot *) = setup_deferred;
	if (!fn)
		return;
	setup_deferred = NULL;
	setup_deferred_start = init_now_ms();
	fn(b);
	setup_deferred_end = init_now_ms();
	setup_deferred_waited = setup_deferred_end - setup_deferred_start;
}

void setup_deferred_run_beside(struct boot *b, pid_t busy)
{
	cpu_set_t mine, theirs, free_cpus;
	int moved = 0;
	if (setup_deferred && busy > 0 && !sched_getaffinity(0, sizeof(mine), &mine) &&
	    !sched_getaffinity(busy, sizeof(theirs), &theirs)) {
		CPU_ZERO(&free_cpus);
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &mine) && !CPU_ISSET(c, &theirs))
				CPU_SET(c, &free_cpus);
		moved = CPU_COUNT(&free_cpus) > 0 &&
		        !sched_setaffinity(0, sizeof(free_cpus), &free_cpus);
	}
	setup_deferred_run(b);
	if (moved && sched_setaffinity(0, sizeof(mine), &mine))
		say("cannot restore the init's CPU affinity: %s", strerror(errno));
}

void kmsg_mark(const char *text)
{
	char rec[256];
	int n = snprintf(rec, sizeof(rec), "<7>%s\n", text);
	int fd = open(init_path("/dev/kmsg"), O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (n > 0 && write(fd, rec, (size_t)n < sizeof(rec) ? (size_t)n : sizeof(rec) - 1) < 0)
		n = -1; /* nothing to do: the mark is for the measurements only */
	close(fd);
}

int kmsg_parse(const char *rec, unsigned long long *usec, const char **text)
{
	const char *p = rec;
	char *end;
	for (int field = 0; field < 2; field++) { /* PRI, SEQ */
		strtoull(p, &end, 10);
		if (end == p || *end != ',')
			return -1;
		p = end + 1;
	}
	unsigned long long us = strtoull(p, &end, 10);
	if (end == p || (*end != ',' && *end != ';'))
		return -1;
	const char *semi = strchr(end, ';');
	const char *nl = strchr(end, '\n');
	if (!semi || (nl && nl < semi))
		return -1;
	*usec = us;
	*text = semi + 1;
	return 0;
}

/* Every line of buf[0..len) (records, and the continuation lines that follow them). */
static void each_line(char *buf, size_t len, void (*fn)(const char *line, void *ctx), void *ctx)
{
	buf[len] = 0;
	for (char *line = buf; line < buf + len;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		fn(line, ctx);
		if (!nl)
			break;
		line = nl + 1;
	}
}

int kmsg_each(void (*fn)(const char *line, void *ctx), void *ctx)
{
	char buf[8193];
	struct stat st;
	int fd = open(init_path("/dev/kmsg"), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		/* a saved log (the unit tests): records one per line */
		size_t len;
		char *all = init_read("/dev/kmsg", &len);
		if (all)
			each_line(all, len, fn, ctx);
		free(all);
		close(fd);
		return 0;
	}
	/* the device: one record per read; EPIPE when records were overwritten meanwhile */
	for (;;) {
		ssize_t got = read(fd, buf, sizeof(buf) - 1);
		if (got < 0 && (errno == EPIPE || errno == EINTR))
			continue;
		if (got <= 0)
			break;
		each_line(buf, (size_t)got, fn, ctx);
	}
	close(fd);
	return 0;
}

struct find {
	const char *const *prefix;
	double *ms;
	size_t n;
};

static void match(const char *line, void *ctx)
{
	const struct find *f = ctx;
	unsigned long long us;
	const char *text;
	if (*line == ' ' || kmsg_parse(line, &us, &text))
		return; /* a continuation line (KEY=VALUE) or not a record */
	for (size_t i = 0; i < f->n; i++)
		if (f->ms[i] < 0 && !strncmp(text, f->prefix[i], strlen(f->prefix[i])))
			f->ms[i] = (double)us / 1e3;
}

void kmsg_find(const char *const *prefix, double *ms, size_t n)
{
	struct find f = {prefix, ms, n};
	for (size_t i = 0; i < n; i++)
		ms[i] = -1;
	kmsg_each(match, &f);
}
