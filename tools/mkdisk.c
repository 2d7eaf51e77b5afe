/*
 * usage: benchboot mkdisk PATH [--size N] [--force]
 *
 * Make a results disk: an ext4 filesystem (mke2fs) labelled BENCHBOOT, then the marker file with
 * a random disk id, written with libext2fs. PATH is an image file (created, no root needed) or a
 * block device (only with --force, and never while it or a partition of it is in use).
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resdisk.h"
#include "resfind.h"
#include "size.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot mkdisk PATH [--size N] [--force]\n"
    "\n"
    "Make a benchboot results disk at PATH: ext4 with the label " RESDISK_LABEL " and a marker\n"
    "file holding a random disk id. The init writes results only to such a disk; `benchboot\n"
    "collect` reads them back. PATH is an image file (created; no root needed) or a block\n"
    "device.\n"
    "\n"
    "options:\n"
    "  --size N    size of an image file, with K, M or G (default 256M)\n"
    "  --force     overwrite an existing non-empty file; required for a block device, which\n"
    "              is still refused while it or one of its partitions is mounted, a swap or\n"
    "              held by another device\n"
    "\n"
    "exit: 0 made, 100 wrong usage or refused, 111 system failure.\n";

static int fatal(int code, const char *what, const char *path, const char *why)
{
	fprintf(stderr, "benchboot mkdisk: fatal: unable to %s %s: %s\n", what, path, why);
	return code;
}

static int parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v;
	if (bb_size_parse(s, &v) || v < (1ULL << 20) || v > (1ULL << 44))
		return -1;
	*out = v;
	return 0;
}

static int run_mke2fs(const char *path)
{
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* -F: PATH may be a file, or hold an old filesystem (the checks were ours) */
		char *argv[] = {"mke2fs",
		                "-q",
		                "-F",
		                "-t",
		                "ext4",
		                "-L",
		                RESDISK_LABEL,
		                "-m",
		                "0",
		                "-b",
		                "4096",
		                "-E",
		                "lazy_itable_init=0,lazy_journal_init=0",
		                (char *)path,
		                NULL};
		dup2(2, 1);
		execvp("mke2fs", argv);
		execv("/sbin/mke2fs", argv);
		fprintf(stderr, "benchboot mkdisk: fatal: unable to run mke2fs: %s\n",
		        strerror(errno));
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	return 0;
}

static int random_id(char id[RESDISK_ID_LEN + 1])
{
	unsigned char raw[RESDISK_ID_LEN / 2];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, raw, sizeof(raw));
	close(fd);
	if (n != (ssize_t)sizeof(raw))
		return -EIO;
	for (size_t i = 0; i < sizeof(raw); i++)
		sprintf(id + 2 * i, "%02x", raw[i]);
	return 0;
}

static int mkdisk_main(int argc, char **argv)
{
	const char *path = NULL;
	unsigned long long size = 256ULL << 20;
	int force = 0, size_given = 0;
	struct stat st;
	char id[RESDISK_ID_LEN + 1], why[512];
	int r;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--force")) {
			force = 1;
		} else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			if (parse_size(argv[++i], &size)) {
				fprintf(stderr,
				        "benchboot mkdisk: bad size '%s' (e.g. 64M, 2G; at "
				        "least 1M)\n",
				        argv[i]);
				return EXIT_USAGE;
			}
			size_given = 1;
		} else if (argv[i][0] == '-' || path) {
			fprintf(stderr, "benchboot mkdisk: unexpected argument '%s'\n%s", argv[i],
			        usage_text);
			return EXIT_USAGE;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}

	if (!stat(path, &st) && S_ISBLK(st.st_mode)) {
		if (!force)
			return fatal(EXIT_USAGE, "format block device", path,
			             "this erases it: add --force if that is what you want");
		r = resfind_device_busy("", path, why, sizeof(why));
		if (r < 0)
			return fatal(EXIT_SYSTEM, "check block device", path, strerror(-r));
		if (r > 0)
			return fatal(EXIT_USAGE, "format block device", path, why);
		if (size_given)
			fprintf(stderr, "benchboot mkdisk: %s is a block device: --size ignored\n",
			        path);
	} else if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		return fatal(EXIT_USAGE, "use", path, "neither a regular file nor a block device");
	} else {
		if (!stat(path, &st) && st.st_size > 0 && !force)
			return fatal(EXIT_USAGE, "overwrite", path,
			             "the file exists and is not empty (--force overwrites it)");
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			return fatal(EXIT_SYSTEM, "create", path, strerror(errno));
		if (ftruncate(fd, (off_t)size)) {
			r = errno;
			close(fd);
			return fatal(EXIT_SYSTEM, "size", path, strerror(r));
		}
		close(fd);
	}
	if ((r = run_mke2fs(path)))
		return fatal(EXIT_SYSTEM, "make a filesystem on", path,
		             r == -EIO ? "mke2fs failed" : strerror(-r));
	if ((r = random_id(id)))
		return fatal(EXIT_SYSTEM, "get a random id for", path, strerror(-r));
	if ((r = resdisk_init_marker(path, id)))
		return fatal(EXIT_SYSTEM, "write the marker on", path, resdisk_strerror(r));
	printf("%s: results disk %s\n", path, id);
	return EXIT_OK;
}

BENCHBOOT_VERB(mkdisk, "make a results disk (an image file or a block device)", mkdisk_main);
