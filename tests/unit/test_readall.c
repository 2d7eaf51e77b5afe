/* bb_read_fd: the one whole-file reader (init_read, bb_fileio_read_all, the results writer). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "host/fileio.h"
#include "readall.h"

TEST(reads_a_file_larger_than_one_step_whole)
{
	static char big[3 * 4096 + 17];
	for (size_t i = 0; i < sizeof(big) - 1; i++)
		big[i] = (char)('a' + i % 26);
	const char *path = test_write_file(test_tmpdir(), "big", big);
	int fd = open(path, O_RDONLY);
	CHECK(fd >= 0);
	char *data;
	size_t len;
	CHECK_INT(bb_read_fd(fd, &data, &len), ==, 0);
	close(fd);
	CHECK_INT(len, ==, sizeof(big) - 1);
	CHECK(!memcmp(data, big, len));
	CHECK_INT(data[len], ==, 0);
	free(data);
}

TEST(reads_proc_files_whose_size_is_zero)
{
	int fd = open("/proc/self/status", O_RDONLY);
	CHECK(fd >= 0);
	char *data;
	size_t len;
	CHECK_INT(bb_read_fd(fd, &data, &len), ==, 0);
	close(fd);
	CHECK(len > 0);
	CHECK_INT(strlen(data), ==, len);
	CHECK(strstr(data, "Pid:") != NULL);
	free(data);
}

TEST(empty_file_and_read_errors)
{
	const char *path = test_write_file(test_tmpdir(), "empty", "");
	int fd = open(path, O_RDONLY);
	char *data;
	size_t len = 99;
	CHECK_INT(bb_read_fd(fd, &data, &len), ==, 0);
	close(fd);
	CHECK_INT(len, ==, 0);
	CHECK_STR(data, "");
	free(data);
	/* a directory opens but cannot be read */
	fd = open(test_tmpdir(), O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	CHECK_INT(bb_read_fd(fd, &data, &len), ==, -EISDIR);
	CHECK(data == NULL);
	close(fd);
	/* bb_fileio_read_all refuses what is not a regular file before reading */
	unsigned char *bytes;
	CHECK_INT(bb_fileio_read_all(test_tmpdir(), &bytes, &len), ==, -EISDIR);
	CHECK_INT(bb_fileio_read_all("/dev/null", &bytes, &len), ==, -EINVAL); /* not a file */
	CHECK_INT(bb_fileio_read_all("/proc/self/status", &bytes, &len), ==, 0);
	CHECK(len > 0 && strstr((char *)bytes, "Pid:"));
	free(bytes);
}
