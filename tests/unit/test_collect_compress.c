/* bb_collect_compress_monitors (lib/host/collect/collect_compress.c) on a boot folder made here. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "harness.h"
#include "host/collect/collect.h"

static char *gunzip(const char *path)
{
	static char buf[4096];
	gzFile f = gzopen(path, "rb");
	if (!f)
		return NULL;
	int n = gzread(f, buf, sizeof buf - 1);
	gzclose(f);
	if (n < 0)
		return NULL;
	buf[n] = 0;
	return buf;
}

TEST(monitor_files_gzipped_status_files_kept)
{
	const char *dir = test_tmpdir();
	char path[600], err[300];
	unsigned problems = 9;
	test_write_file(dir, "runs/TCP_STREAM/1/monitor.mpstat", "time: 1.0\ncpu  1 2 3\n");
	test_write_file(dir, "runs/TCP_STREAM/1/monitor.mpstat.status", "ok\n");
	test_write_file(dir, "runs/TCP_STREAM/1/monitor.perf-profile.folded",
	                "# event: cpu-clock\n");
	test_write_file(dir, "runs/TCP_STREAM/1/client.0.out", "netperf\n");
	test_write_file(dir, "runs/TCP_STREAM/warmup-1/monitor.uptime", "time: 2\n1 2\n");
	test_write_file(dir, "env.json", "{}\n");
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	CHECK_INT((int)bb_collect_compress_monitors(fd, &problems, err, sizeof err), ==, 3);
	close(fd);
	CHECK_INT((int)problems, ==, 0);
	struct stat st;
	snprintf(path, sizeof path, "%s/runs/TCP_STREAM/1/monitor.mpstat", dir);
	CHECK(stat(path, &st) != 0);
	snprintf(path, sizeof path, "%s/runs/TCP_STREAM/1/monitor.mpstat.gz", dir);
	CHECK_STR(gunzip(path), "time: 1.0\ncpu  1 2 3\n");
	snprintf(path, sizeof path, "%s/runs/TCP_STREAM/1/monitor.perf-profile.folded.gz", dir);
	CHECK_STR(gunzip(path), "# event: cpu-clock\n");
	snprintf(path, sizeof path, "%s/runs/TCP_STREAM/warmup-1/monitor.uptime.gz", dir);
	CHECK(stat(path, &st) == 0);
	snprintf(path, sizeof path, "%s/runs/TCP_STREAM/1/monitor.mpstat.status", dir);
	CHECK(stat(path, &st) == 0);
	snprintf(path, sizeof path, "%s/runs/TCP_STREAM/1/client.0.out", dir);
	CHECK(stat(path, &st) == 0);
	/* a second pass finds nothing more to do */
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK_INT((int)bb_collect_compress_monitors(fd, &problems, err, sizeof err), ==, 0);
	close(fd);
}
