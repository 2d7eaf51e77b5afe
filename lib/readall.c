/* A whole open file into memory; see readall.h. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "grow.h"
#include "readall.h"

int bb_read_fd(int fd, char **data, size_t *len)
{
	size_t got = 0, cap = 0;
	char *buf = NULL;
	*data = NULL;
	*len = 0;
	for (;;) {
		/* at least 4 KiB to read into, and room for the NUL */
		if (bb_grow(&buf, &cap, got + 4097, 1)) {
			free(buf);
			return -ENOMEM;
		}
		ssize_t n = read(fd, buf + got, cap - got - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(buf);
			return -e;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = 0;
	*data = buf;
	*len = got;
	return 0;
}
