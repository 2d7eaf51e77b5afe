/* Making a results disk; see mkdisk.h. */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ext2fs/ext2fs.h>

#include "host/errbuf.h"
#include "host/results/mkdisk.h"
#include "host/runtool.h"
#include "results/resdisk.h"
#include "results/resfind.h"

/* mke2fs -F (path may be a file, or hold an old filesystem: the checks were ours), with the
 * UUID, hash seed and clock fixed when asked. */
static int run_mke2fs(const char *path, const struct bb_mkdisk *o)
{
	char opts[256], now[32];
	snprintf(opts, sizeof(opts), "lazy_itable_init=0,lazy_journal_init=0%s%s",
	         o->hash_seed ? ",hash_seed=" : "", o->hash_seed ? o->hash_seed : "");
	snprintf(now, sizeof(now), "%u", o->mtime);
	char *argv[20];
	int n = 0;
	argv[n++] = "mke2fs";
	argv[n++] = "-q";
	argv[n++] = "-F";
	argv[n++] = "-t";
	argv[n++] = "ext4";
	argv[n++] = "-L";
	argv[n++] = RESDISK_LABEL;
	argv[n++] = "-m";
	argv[n++] = "0";
	argv[n++] = "-b";
	argv[n++] = "4096";
	if (o->uuid) {
		argv[n++] = "-U";
		argv[n++] = (char *)o->uuid;
	}
	argv[n++] = "-E";
	argv[n++] = opts;
	argv[n++] = (char *)path;
	argv[n] = NULL;
	static const char *const dirs[] = {"/sbin", NULL};
	struct bb_tool t = {.argv = argv,
	                    .dirs = dirs,
	                    .out = BB_TOOL_TO_STDERR,
	                    .env_name = o->mtime ? "E2FSPROGS_FAKE_TIME" : NULL,
	                    .env_value = now};
	int status, r = bb_tool_run(&t, &status, NULL, 0);
	if (r)
		return r == -ENOEXEC ? -EIO : r;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

/* Every in-use inode's times set to t: resdisk stamps the marker with the clock. */
static int normalise_times(const char *path, uint32_t t)
{
	ext2_filsys fs;
	ext2_inode_scan scan;
	ext2_ino_t ino;
	errcode_t e =
	    ext2fs_open(path, EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs);
	if (e)
		return -EIO;
	fs->now = t;
	int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *inode = calloc(1, (size_t)isize);
	if (!inode) {
		ext2fs_close_free(&fs);
		return -ENOMEM;
	}
	if ((e = ext2fs_open_inode_scan(fs, 0, &scan)))
		goto out_close;
	while (!(e = ext2fs_get_next_inode_full(scan, &ino, (struct ext2_inode *)inode, isize)) &&
	       ino) {
		if (!inode->i_links_count && !inode->i_mode)
			continue;
		int large = isize > EXT2_GOOD_OLD_INODE_SIZE &&
		            EXT2_GOOD_OLD_INODE_SIZE + inode->i_extra_isize >=
		                (int)offsetof(struct ext2_inode_large, i_crtime_extra) + 4;
		int changed = inode->i_atime != t || inode->i_ctime != t || inode->i_mtime != t;
		if (large)
			changed |= inode->i_atime_extra || inode->i_ctime_extra ||
			           inode->i_mtime_extra || inode->i_crtime != t ||
			           inode->i_crtime_extra;
		if (!changed)
			continue;
		inode->i_atime = inode->i_ctime = inode->i_mtime = t;
		if (large) {
			inode->i_atime_extra = inode->i_ctime_extra = inode->i_mtime_extra = 0;
			inode->i_crtime = t;
			inode->i_crtime_extra = 0;
		}
		if ((e = ext2fs_write_inode_full(fs, ino, (struct ext2_inode *)inode, isize)))
			break;
	}
	ext2fs_close_inode_scan(scan);
out_close:
	free(inode);
	fs->super->s_wtime = t;
	ext2fs_mark_super_dirty(fs);
	errcode_t ce = ext2fs_close_free(&fs);
	return e || ce ? -EIO : 0;
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

/* libext2fs takes its clock from E2FSPROGS_FAKE_TIME: set while the marker is written and
 * the times normalised, then the caller's value restored. */
static char *fake_time(uint32_t t)
{
	char now[32];
	const char *old = getenv("E2FSPROGS_FAKE_TIME");
	char *saved = old ? strdup(old) : NULL;
	snprintf(now, sizeof(now), "%u", t);
	setenv("E2FSPROGS_FAKE_TIME", now, 1);
	return saved;
}

static void restore_time(char *saved)
{
	if (saved)
		setenv("E2FSPROGS_FAKE_TIME", saved, 1);
	else
		unsetenv("E2FSPROGS_FAKE_TIME");
	free(saved);
}

/* A block device: only with force, never while in use. A file: created or emptied, sized. */
static int prepare(const char *path, const struct bb_mkdisk *o, char *err, size_t errlen)
{
	struct stat st;
	char why[512];
	int r;
	if (!stat(path, &st) && S_ISBLK(st.st_mode)) {
		if (!o->force)
			return bb_errbuf_fail(err, errlen, -ENOTEMPTY,
			                      "unable to format block device %s: this erases it",
			                      path);
		r = bb_resfind_device_busy("", path, why, sizeof(why));
		if (r < 0)
			return bb_errbuf_fail(err, errlen, r, "unable to check block device %s: %s",
			                      path, strerror(-r));
		if (r > 0)
			return bb_errbuf_fail(err, errlen, -EBUSY,
			                      "unable to format block device %s: %s", path, why);
		return 0;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "unable to use %s: neither a regular file nor a block device",
		                      path);
	if (!stat(path, &st) && st.st_size > 0 && !o->force)
		return bb_errbuf_fail(err, errlen, -EEXIST,
		                      "unable to overwrite %s: the file exists and is not empty",
		                      path);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return bb_errbuf_fail(err, errlen, -errno, "unable to create %s: %s", path,
		                      strerror(errno));
	r = ftruncate(fd, (off_t)(o->size ? o->size : BB_MKDISK_DEFAULT_SIZE)) ? -errno : 0;
	close(fd);
	if (r)
		return bb_errbuf_fail(err, errlen, r, "unable to size %s: %s", path, strerror(-r));
	return 0;
}

int bb_mkdisk(const char *path, const struct bb_mkdisk *o, char id[33], char *err, size_t errlen)
{
	char rid[RESDISK_ID_LEN + 1];
	int r;
	if ((r = prepare(path, o, err, errlen)))
		return r;
	if ((r = run_mke2fs(path, o)))
		return bb_errbuf_fail(err, errlen, r == -EIO ? -EIO : r,
		                      "unable to make a filesystem on %s: %s", path,
		                      r == -EIO ? "mke2fs failed" : strerror(-r));
	if (o->id)
		snprintf(rid, sizeof(rid), "%s", o->id);
	else if ((r = random_id(rid)))
		return bb_errbuf_fail(err, errlen, r, "unable to get a random id for %s: %s", path,
		                      strerror(-r));
	char *saved = o->mtime ? fake_time(o->mtime) : NULL;
	int nr = 0;
	r = bb_resdisk_init_marker(path, rid);
	if (!r && o->mtime)
		nr = normalise_times(path, o->mtime);
	if (o->mtime)
		restore_time(saved);
	if (r)
		return bb_errbuf_fail(err, errlen, -EIO, "unable to write the marker on %s: %s",
		                      path, bb_resdisk_strerror(r));
	if (nr)
		return bb_errbuf_fail(err, errlen, nr, "unable to set the times on %s: %s", path,
		                      strerror(-nr));
	if (id)
		snprintf(id, 33, "%s", rid);
	return 0;
}
