/*
 * libFuzzer target for what collect reads: the first byte picks a disk image (read with
 * libext2fs through lib/results/resdisk, copied by lib/host/collect) or a console log
 * (lib/results/consfile). Crashes, sanitizer reports and anything written outside DIR (or a symlink
 * or special file inside it) abort.
 *
 * clang -fsanitize=fuzzer,address,undefined -Ilib fuzz_collect.c lib/host/collect/collect.c \
 *       lib/results/resdisk.c lib/results/consfile.c lib/sha256.c -lext2fs -lcom_err
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/collect/collect.h"

static char top[256], outdir[300];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int check_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	if (flag == FTW_SL || (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))) {
		fprintf(stderr, "collect left a special file or symlink: %s\n", path);
		abort();
	}
	return 0;
}

static void quiet(void *ctx, const char *line)
{
}

static void remove_top(void)
{
	rmdir(outdir);
	rmdir(top);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!top[0]) {
		snprintf(top, sizeof(top), "/dev/shm/bbfuzz.%d", (int)getpid());
		mkdir(top, 0700);
		snprintf(outdir, sizeof(outdir), "%s/out", top);
		atexit(remove_top);
	}
	if (size < 1)
		return 0;
	int fd = memfd_create("input", 0);
	if (fd < 0 || write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
		abort();
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct collect_opts o = {.outdir = outdir, .max_file_size = 1 << 20, .msg = quiet};
	struct collect_stats st = {0};
	if (data[0] & 1)
		bb_collect_console(path, &o, &st);
	else
		bb_collect_disk(path, &o, &st);
	close(fd);
	/* nothing but DIR under top, and only files and folders in DIR */
	DIR *d = opendir(top);
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "out")) {
			fprintf(stderr, "collect wrote outside DIR: %s\n", de->d_name);
			abort();
		}
	closedir(d);
	nftw(outdir, check_one, 16, FTW_PHYS);
	nftw(outdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
