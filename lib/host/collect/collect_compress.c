/*
 * The raw monitor files of a collected boot folder, gzip-compressed (collect.h): every
 * runs/RUNID/ITER/monitor.NAME but the status files (monitor.NAME.status, a line or two the
 * user reads) becomes monitor.NAME.gz, reproducibly (no name, mtime 0: host/image/compress.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/bytebuf.h"
#include "host/collect/collect.h"
#include "host/image/compress.h"
#include "readall.h"

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcmp(s + n - t, tail);
}

/* One file: NAME -> NAME.gz (written whole under .NAME.gz.tmp, renamed), NAME removed. */
static int compress_one(int dirfd, const char *name, char *err, size_t errlen)
{
	char gz[300], tmp[310];
	char *data = NULL;
	size_t len = 0;
	struct bytebuf out = {0};
	int r, fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return snprintf(err, errlen, "%s: %s", name, strerror(errno)), -errno;
	r = bb_read_fd(fd, &data, &len);
	close(fd);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", name, strerror(-r));
		free(data);
		return r;
	}
	char cerr[256] = "";
	r = bb_compress_append(&out, data, len, COMPRESS_GZIP, 0, cerr, sizeof cerr);
	free(data);
	snprintf(gz, sizeof gz, "%s.gz", name);
	snprintf(tmp, sizeof tmp, ".%s.tmp", gz);
	if (!r) {
		fd =
		    openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		r = fd < 0 ? -errno : 0;
		for (size_t off = 0; !r && off < out.len;) {
			ssize_t w = write(fd, out.p + off, out.len - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				r = w < 0 ? -errno : -EIO;
			else
				off += (size_t)w;
		}
		if (fd >= 0 && close(fd) && !r)
			r = -errno;
		if (!r && renameat(dirfd, tmp, dirfd, gz))
			r = -errno;
		if (!r && unlinkat(dirfd, name, 0))
			r = -errno;
		if (r) {
			unlinkat(dirfd, tmp, 0);
			snprintf(cerr, sizeof cerr, "%s", strerror(-r));
		}
	}
	bb_bytebuf_free(&out);
	if (r)
		snprintf(err, errlen, "%s: %s", name, cerr);
	return r;
}

/* The folder rel under dirfd: runs/ (depth 0), a run's (1), an iteration's (2), whose
 * monitor files are compressed. Returns how many. */
static unsigned walk(int dirfd, const char *rel, int depth, char *err, size_t errlen,
                     unsigned *problems)
{
	unsigned done = 0;
	int fd = openat(dirfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat st;
		if (e->d_name[0] == '.' || fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (depth < 2 && S_ISDIR(st.st_mode))
			done += walk(fd, e->d_name, depth + 1, err, errlen, problems);
		else if (depth == 2 && S_ISREG(st.st_mode) && !strncmp(e->d_name, "monitor.", 8) &&
		         !ends_with(e->d_name, ".status") && !ends_with(e->d_name, ".gz")) {
			if (compress_one(fd, e->d_name, err, errlen))
				++*problems;
			else
				done++;
		}
	}
	closedir(d);
	return done;
}

unsigned bb_collect_compress_monitors(int bootfd, unsigned *problems, char *err, size_t errlen)
{
	*problems = 0;
	*err = 0;
	return walk(bootfd, "runs", 0, err, errlen, problems);
}
