/*
 * The console: /dev/console on fds 0-2, with fallbacks (create the node, then ttyS0, then
 * /dev/kmsg, then /dev/null) so the init can always report. Every line also goes to init.log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "console_proto.h"
#include "init.h"

static int log_fd = -1;

static int try_open(const char *path, mode_t mode, unsigned maj, unsigned min, int flags)
{
	int fd = open(init_path("%s", path), flags | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		init_ops->mknod(init_path("%s", path), mode, makedev(maj, min));
		fd = open(init_path("%s", path), flags | O_NOCTTY | O_CLOEXEC);
	}
	return fd;
}

int console_setup(void)
{
	static const struct {
		const char *path;
		unsigned maj, min;
		int flags;
	} tries[] = {
	    {"/dev/console", 5, 1, O_RDWR},
	    {"/dev/ttyS0", 4, 64, O_RDWR},
	    {"/dev/kmsg", 1, 11, O_WRONLY},
	    {"/dev/null", 1, 3, O_RDWR},
	};
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		int fd = try_open(tries[i].path, S_IFCHR | 0600, tries[i].maj, tries[i].min,
		                  tries[i].flags);
		if (fd < 0)
			continue;
		for (int t = 0; t < 3; t++)
			dup2(fd, t);
		if (fd > 2)
			close(fd);
		return (int)i;
	}
	return -1;
}

void console_log_open(const char *path)
{
	int fd = open(init_path("%s", path), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (log_fd >= 0)
			close(log_fd);
		log_fd = fd;
	}
}

/* when the init last printed a line (heartbeat() stays quiet within BB_HEARTBEAT_S of it) */
static double last_line_ms;

static void emit(const char *prefix, const char *fmt, va_list ap)
{
	last_line_ms = init_now_ms();
	char line[2048];
	size_t n = (size_t)snprintf(line, sizeof(line), "%s", prefix);
	int m = vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	n = m < 0 ? n : n + (size_t)m;
	if (n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	line[n] = 0;
	console_raw(line);
	if (log_fd >= 0 && write(log_fd, line, n) < 0)
		return;
}

void console_raw(const char *s)
{
	size_t len = strlen(s), off = 0;
	while (off < len) {
		ssize_t n = write(1, s + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		off += (size_t)n;
	}
}

void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit(BB_CON_HUMAN_PREFIX, fmt, ap);
	va_end(ap);
}

void machine(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit(BB_CON_PREFIX, fmt, ap);
	va_end(ap);
}

void heartbeat(const char *what, const char *run)
{
	double now = init_now_ms();
	if (now - last_line_ms < BB_HEARTBEAT_S * 1e3)
		return;
	machine(BB_CON_HEARTBEAT " what=%s run=%s uptime=%.0f", what, run && *run ? run : "-",
	        now / 1e3);
}

const char *console_word(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	for (; *s && n + 1 < len; s++)
		buf[n++] = (*s == ' ' || *s == '\t' || *s == '\n') ? ',' : *s;
	buf[n] = 0;
	return n ? buf : "-";
}
