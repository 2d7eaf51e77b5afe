/* File-descriptor helpers; see fileio.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/fileio.h"
#include "readall.h"

int bb_fileio_pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
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

int bb_fileio_mkdirs(const char *path)
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

/* Regular files only; read to EOF (bb_read_fd) rather than trusting st_size. */
int bb_fileio_read_all(const char *path, unsigned char **data, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;
	*data = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	else
		r = bb_read_fd(fd, (char **)data, len);
	close(fd);
	return r;
}

int bb_fileio_read_line(const char *path, char *buf, size_t len)
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

int bb_fileio_write_file(const char *path, const void *data, size_t len)
{
	char tmp[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	if (snprintf(tmp, sizeof(tmp), "%.*s.%s.tmp-%ld", dirlen, path, path + dirlen,
	             (long)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	int r = bb_fileio_pwrite_all(fd, data, len, 0);
	if (close(fd) && !r)
		r = -errno;
	if (!r && rename(tmp, path))
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}

int bb_fileio_copy_file(const char *src, const char *dst)
{
	unsigned char *data;
	size_t len;
	int r = bb_fileio_read_all(src, &data, &len);
	if (r)
		return r;
	r = bb_fileio_write_file(dst, data, len);
	free(data);
	return r;
}
