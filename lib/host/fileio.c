/* File-descriptor helpers; see fileio.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/fileio.h"
#include "grow.h"

int fileio_pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;
	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int fileio_mkdirs(const char *path)
{
	char p[PATH_MAX];
	size_t len = strlen(path);
	if (len >= sizeof(p))
		return -ENAMETOOLONG;
	memcpy(p, path, len + 1);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return mkdir(p, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

/* Reads to EOF rather than trusting st_size, so /proc and /sys files (size 0) work too. */
int fileio_read_all(const char *path, unsigned char **data, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = 0;
	unsigned char *buf = NULL;
	size_t got = 0, cap = 0;
	*data = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		r = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		goto out_close;
	}
	for (;;) {
		/* room for st_size bytes at first, then at least 4 KiB more each time, and a NUL */
		size_t need = got + 4097;
		if (need < (size_t)st.st_size + 2)
			need = (size_t)st.st_size + 2;
		if (bb_grow(&buf, &cap, need, 1)) {
			r = -ENOMEM;
			goto out_free;
		}
		ssize_t n = read(fd, buf + got, cap - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			goto out_free;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = 0;
	*data = buf;
	*len = got;
	goto out_close;
out_free:
	free(buf);
out_close:
	close(fd);
	return r;
}

int fileio_read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, len - 1)) < 0 && errno == EINTR)
		;
	int r = n < 0 ? -errno : 0;
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return r;
}
