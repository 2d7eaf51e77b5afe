/* Paths under init_root, small file helpers and the table of real syscalls. */
#include <signal.h>
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

#include "init.h"
#include "netlink.h"
#include "readall.h"

static int real_finit_module(int fd, const char *params, int flags)
{
	return (int)syscall(SYS_finit_module, fd, params, flags);
}

static int real_init_module(void *image, unsigned long len, const char *params)
{
	return (int)syscall(SYS_init_module, image, len, params);
}

const struct init_ops init_real_ops = {
    .mount = mount,
    .mknod = mknod,
    .finit_module = real_finit_module,
    .init_module = real_init_module,
    .reboot = reboot,
    .link_up = net_real_link_up,
    .link_add_dummy = net_real_link_add_dummy,
    .addr_add = net_real_addr_add,
    .link_mtu = net_real_link_mtu,
    .route_add = net_real_route_add,
    .link_wait = net_real_link_wait,
};

const struct init_ops *init_ops = &init_real_ops;
const char *init_root = "";

const char *init_path(const char *fmt, ...)
{
	static char slots[8][4096];
	static unsigned next;
	char *buf = slots[next++ % 8];
	size_t n = (size_t)snprintf(buf, sizeof(slots[0]), "%s", init_root);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(slots[0]) - n, fmt, ap);
	va_end(ap);
	return buf;
}

char *init_read(const char *path, size_t *lenp)
{
	int fd = open(init_path("%s", path), O_RDONLY | O_CLOEXEC);
	char *buf;
	size_t len;
	if (fd < 0)
		return NULL;
	int r = bb_read_fd(fd, &buf, &len);
	close(fd);
	if (r) {
		errno = -r;
		return NULL;
	}
	if (lenp)
		*lenp = len;
	return buf;
}

int init_read_line(const char *path, char *buf, size_t len)
{
	int fd = open(init_path("%s", path), O_RDONLY | O_CLOEXEC);
	ssize_t n;
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int init_write(const char *path, const char *s, int create)
{
	int fd = open(init_path("%s", path),
	              O_WRONLY | O_CLOEXEC | O_TRUNC | (create ? O_CREAT : 0), 0644);
	size_t len = strlen(s), off = 0;
	if (fd < 0)
		return -errno;
	while (off < len) {
		ssize_t n = write(fd, s + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		off += (size_t)n;
	}
	return close(fd) ? -errno : 0;
}

int init_mkdirs(const char *path, mode_t mode)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", init_path("%s", path));
	size_t skip = strlen(init_root);
	for (char *p = buf + skip + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

double init_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

unsigned init_online_cpus(char *list, size_t len)
{
	char buf[1024];
	struct bb_cpuset set;
	if (init_read_line("/sys/devices/system/cpu/online", buf, sizeof(buf)) == 0 &&
	    bb_cpulist_parse(buf, &set) == 0 && bb_cpuset_count(&set) > 0) {
		if (list)
			bb_cpulist_format(&set, list, len);
		return bb_cpuset_count(&set);
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (list)
		snprintf(list, len, n > 1 ? "0-%ld" : "0", n - 1);
	return (unsigned)n;
}

void init_block_signals(sigset_t *set)
{
	sigfillset(set);
	sigdelset(set, SIGSEGV);
	sigdelset(set, SIGBUS);
	sigdelset(set, SIGILL);
	sigdelset(set, SIGFPE);
	sigprocmask(SIG_BLOCK, set, NULL);
}
